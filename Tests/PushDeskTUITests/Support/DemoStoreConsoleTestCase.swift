import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// In-process console tests on a fresh demo store in a temporary directory: the store, a
/// console over it with a given lock state and recovery keeper, and typing helpers.
class DemoStoreConsoleTestCase: XCTestCase {
    var root: URL!
    var store: Store!

    override func setUp() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-\(Self.self)-\(UUID().uuidString)")
        try DemoStore.write(to: root)
        store = Store(root: root)
    }
    override func tearDown() async throws { try? FileManager.default.removeItem(at: root) }

    func app(_ access: StoreAccess = .unlocked(), keeper: RecoveryKeeper? = nil) -> ConsoleApp {
        let a = ConsoleApp(store: .open(store, access: access), access: access)
        a.recovery = keeper
        return a
    }
    func type(_ app: ConsoleApp, _ text: String) { for c in text { app.handle(.char(c)) } }
    /// Screen text with borders and runs of whitespace folded to one space.
    func flat(_ s: String) -> String { s.replacingOccurrences(of: "[\\s│]+", with: " ", options: .regularExpression) }
}
