import Foundation
import XCTest

/// The base of the real-terminal suites: tmux and the built binary are there (else the
/// test is skipped, or fails when only the binary is missing), and a fresh demo store made
/// by `pushdesk init --demo` is at `store`, removed afterwards.
class TmuxTestCase: XCTestCase {
    var store: URL!

    override func setUpWithError() throws {
        _ = try TmuxHarness.requirements()
        store = try makeDemoStore()
    }

    override func tearDown() { if let store { try? FileManager.default.removeItem(at: store) } }
}
