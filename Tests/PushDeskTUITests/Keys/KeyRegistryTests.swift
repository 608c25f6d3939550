import Foundation
import XCTest

@testable import PushDeskTUI

final class KeyRegistryTests: XCTestCase {
    func testEveryFunctionKeyHasAPlainOrCtrlAlternative() {
        let withFunctionKeys = KeyRegistry.bindings.filter { $0.keys.contains(where: \.isFunctionKey) }
        // F1 (help) at least: the loop below checks something.
        XCTAssertTrue(withFunctionKeys.contains { $0.action == .help }, "\(withFunctionKeys.map(\.action))")
        for b in withFunctionKeys {
            XCTAssertTrue(b.keys.contains { !$0.isFunctionKey }, "\(b.action) has only F-keys")
        }
    }

    func testNoKeyIsBoundTwiceInOneContext() {
        XCTAssertTrue(KeyContext.allCases.contains(.servicesList))
        XCTAssertGreaterThan(KeyRegistry.bindings.count, KeyContext.allCases.count, "bindings to check")
        for c in KeyContext.allCases {
            var seen: [Key: Action] = [:]
            for b in KeyRegistry.bindings where b.context == c {
                for k in b.keys {
                    if let other = seen[k], c != .dialog {
                        XCTFail("\(k.label) bound to \(other) and \(b.action) in \(c)")
                    }
                    seen[k] = b.action
                }
            }
        }
    }

    func testHelpOverlayListsTheRegistryBindings() {
        var b = CellBuffer(width: 100, height: 40)
        HelpOverlay.render(into: &b, in: b.bounds, contexts: [.servicesList, .global])
        let listed = KeyRegistry.bindings(in: [.servicesList])
        // The services list's own actions, by name: the loop below checks each is in the help.
        XCTAssertTrue(listed.contains { $0.action == .open }, "\(listed.map(\.action))")
        for binding in listed {
            XCTAssertNotNil(b.row(containing: binding.description), "help lacks \(binding.description):\n\(b.text)")
        }
    }

    /// docs/KEYS.md is generated from the registry; this fails when it is stale.
    func testKeysDocIsGeneratedFromTheRegistry() throws {
        let url = packageRoot.appendingPathComponent("docs/KEYS.md")
        if ProcessInfo.processInfo.environment["PUSHDESK_UPDATE_DOCS"] == "1" {
            try KeyRegistry.markdown().write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(
            committed, KeyRegistry.markdown(),
            "docs/KEYS.md is stale: run `PUSHDESK_UPDATE_DOCS=1 swift test --filter KeyRegistryTests` or `pushdesk keys --markdown > docs/KEYS.md`"
        )
    }

    /// The per-context lists are indexed by a context's place in `allCases`, and hold what a
    /// filter of the whole registry gives, in its order.
    func testEachContextsBindingsAreTheRegistrysInItsOrder() {
        for (i, c) in KeyContext.allCases.enumerated() {
            XCTAssertEqual(c.ordinal, i, c.rawValue)
            XCTAssertEqual(
                KeyRegistry.bindings(in: [c]).map(\.helpText),
                KeyRegistry.bindings.filter { $0.context == c }.map(\.helpText),
                c.rawValue)
        }
        XCTAssertEqual(
            KeyRegistry.bindings(in: [.servicesList, .list, .global]).count,
            KeyRegistry.bindings.filter { [.servicesList, .list, .global].contains($0.context) }.count)
    }
}
