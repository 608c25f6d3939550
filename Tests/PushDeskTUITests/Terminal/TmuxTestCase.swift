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

extension XCTestCase {
    /// A settled screen of the real terminal (`screen`, as a `waitFor` returned it) against
    /// GoldenScreens/<class>/<name>.<W>x<H>.txt: the store's temporary path, the user, host,
    /// pids and times masked, and a screen that shows one of them compared as its words.
    func assertScreen(
        _ t: TmuxHarness, _ screen: String, _ name: String, masks: [(String, String)] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let flowed = GoldenScreens.machineDependent(screen)
        let masked = GoldenScreens.masked(screen, masks + GoldenScreens.machineMasks)
        if flowed {
            GoldenScreens.check(
                GoldenScreens.flowed(masked), "\(name).\(t.display("#{pane_width}x#{pane_height}"))",
                owner: goldenOwner, file: file, line: line)
        } else {
            assertScreen(
                text: masked, name, size: t.display("#{pane_width}x#{pane_height}"), file: file, line: line)
        }
    }

    /// A file the console wrote (a saved record) against its golden copy, GoldenScreens/<class>/<name>.
    func assertGolden(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        GoldenScreens.check(text, name, owner: goldenOwner, file: file, line: line)
    }
}
