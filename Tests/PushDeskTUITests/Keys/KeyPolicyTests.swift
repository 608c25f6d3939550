import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The key registry owns the policy: which bindings write (refused and not offered in a
/// read-only console), when a binding cannot act and why, and the text-editing keys that
/// one line editor applies in one-line fields and in the body alike.
final class KeyPolicyTests: DemoStoreConsoleTestCase {
    func holder() -> LockHolder {
        LockHolder(user: "alice", host: ProcessIdentity.host, pid: getpid(), program: "console", since: Date())
    }

    func testReadOnlyHintBarOffersNothingThatWrites() throws {
        guard case .acquired(let lock, _) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail("lock")
        }
        defer { lock.release() }
        let a = app(StoreAccess.open(storeRoot: root))
        let status = a.render(width: 120, height: 24).line(23).trimmingCharacters(in: .whitespaces)
        XCTAssertEqual(
            status,
            "Enter edit  D deliveries  t test devices  L listen  / filter  ? help  Ctrl-Q quit  Ctrl-F findings  Esc back"
        )
        let editing = app().render(width: 120, height: 24).line(23).trimmingCharacters(in: .whitespaces)
        XCTAssertEqual(
            editing,
            "Enter edit  n new  c duplicate  d delete  D deliveries  t test devices  L listen  / filter  ? help  Ctrl-Q quit"
        )
        // What is not offered is refused with the reason, by the same policy.
        a.handle(.char("c"))
        XCTAssertEqual(a.message, a.access.refusal)
        XCTAssertEqual(a.stack.count, 1)
    }

    func testSaveIsNotOfferedWhereNothingIsOpenAndSaysWhy() {
        let a = app()
        assertScreen(a, "listOffersNoSave", width: 120, height: 24)
        a.handle(.ctrl("s"))
        XCTAssertEqual(a.message, "Nothing to save here: open a service or a delivery (Enter) first.")
        a.handle(.enter)
        assertScreen(a, "editorOffersSave", width: 120, height: 24)
    }

    /// Every text-editing binding does the same in a one-line field and on a line of the
    /// body: one editor, resolved through the registry (Ctrl-H included).
    func testOneLineEditorForFieldsAndTheBody() {
        let edits = KeyRegistry.bindings(in: [.textField])
        XCTAssertTrue(edits.contains { $0.keys.contains(.ctrl("h")) && $0.action == .deleteBack })
        for b in edits {
            for k in b.keys {
                for cursor in [0, 3, 7, 11] {
                    var f = TextField("one two  three")
                    var a = TextArea("one two  three")
                    for _ in 0..<(14 - cursor) {
                        f.handle(.left)
                        a.handle(.left)
                    }
                    XCTAssertTrue(f.handle(k), "\(k.label) in a field")
                    XCTAssertTrue(a.handle(k), "\(k.label) in the body")
                    XCTAssertEqual(f.text, a.text, "\(k.label) at \(cursor)")
                    XCTAssertEqual(f.cursor, a.cursor, "\(k.label) at \(cursor)")
                }
            }
        }
        var f = TextField("abc")
        f.handle(.ctrl("h"))
        XCTAssertEqual(f.text, "ab")
    }

    func testHelpAndKeysDocListTheTextFieldBindingsFromTheRegistry() {
        let a = app()
        a.handle(.enter)  // the service editor: Name has focus
        a.handle(.f(1))
        a.resize(width: 100, height: 60)
        let help = a.render(width: 100, height: 60)
        XCTAssertNotNil(help.row(containing: KeyContext.textField.rawValue), help.text)
        for b in KeyRegistry.bindings(in: [.textField]) {
            XCTAssertNotNil(help.row(containing: b.description), "help lacks \(b.description):\n\(help.text)")
        }
        XCTAssertTrue(
            KeyRegistry.markdown().contains("| `Backspace`, `Ctrl-H` | Delete the character before the cursor"))
    }
}
