import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The status bar shows the keys of the dialog that has the focus, not the form's behind
/// it.
final class DialogHintsTests: WholeScreenTestCase {
    func testUnsavedChangesDialogShowsItsOwnKeys() {
        let a = console()
        a.press(.open)
        a.focus(field: "label")
        a.type("!")
        a.press(.quit)
        assertScreen(a, "unsavedChangesDialogShowsItsOwnKeys")
        // Tab to the Discard button, by its name (bounded by the number of buttons).
        let buttons = a.dialog?.buttons ?? []
        XCTAssertTrue(buttons.contains("Discard"), "\(buttons)")
        for _ in buttons.indices where a.dialog.map({ $0.buttons[$0.focusedButton] }) != "Discard" { a.handle(.tab) }
        XCTAssertEqual(a.dialog.map { $0.buttons[$0.focusedButton] }, "Discard")
        XCTAssertEqual(lines(a).last, " Enter Discard  Tab next  Esc cancel", "Enter names the focused button")
    }

    func testPathDialogShowsOKCompleteAndCancel() {
        let a = console()
        a.press(.open)
        a.focus(field: "apps")
        a.press(.open)
        a.focus(field: "credentials.keyFile")
        a.handle(.enter)
        assertScreen(a, "pathDialogShowsOKCompleteAndCancel")
    }
}

/// A dialog's keys are the registry's: a button's first letter is a binding there (listed
/// in docs/KEYS.md), and so is Tab, which completes a path and does nothing in a plain text.
final class DialogKeysTests: XCTestCase {
    func testFirstLetterPressesAButtonThroughTheRegistry() {
        let labels = ["Save", "Discard", "Cancel"]
        XCTAssertEqual(KeyRegistry.firstLetter(.char("d"), of: labels, in: [.dialogButtons, .dialog]), 1)
        XCTAssertEqual(KeyRegistry.firstLetter(.char("C"), of: labels, in: [.dialogButtons, .dialog]), 2)
        XCTAssertNil(KeyRegistry.firstLetter(.char("d"), of: labels, in: [.dialog]), "no first letters in a text")
        XCTAssertNil(KeyRegistry.firstLetter(.char("x"), of: labels, in: [.dialogButtons]))
        var d = Dialog.confirm(title: "Unsaved changes", message: "Save?", buttons: labels, focus: 0)
        XCTAssertEqual(d.handle(.char("d")), .button(1))
        XCTAssertTrue(KeyRegistry.markdown().contains("| `a button's first letter` | Press the button it starts"))
    }

    func testTabCompletesAPathAndLeavesATextAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dialog-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data().write(to: dir.appendingPathComponent("neotrips-48.png"))
        XCTAssertEqual(KeyRegistry.action(for: .tab, in: [.dialog]), .pick)

        var text = Dialog.textInput(title: "Label", message: "", value: "neo")
        XCTAssertNil(text.handle(.tab))
        XCTAssertEqual(text.input.text, "neo", "Tab types nothing into a text")
        var path = Dialog.filePath(title: "Icon", message: "", value: "neo", base: dir.path)
        XCTAssertNil(path.handle(.tab))
        XCTAssertEqual(path.input.text, "neotrips-48.png")
    }
}
