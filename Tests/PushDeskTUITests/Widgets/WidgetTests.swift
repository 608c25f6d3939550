import XCTest

@testable import PushDeskTUI

final class TextFieldTests: XCTestCase {
    func testCursorHomeEndAndDeleteWord() {
        var f = TextField("hello brave world")
        XCTAssertEqual(f.cursor, 17)
        f.handle(.ctrl("w"))
        XCTAssertEqual(f.text, "hello brave ")
        f.handle(.ctrl("w"))
        XCTAssertEqual(f.text, "hello ")
        f.handle(.home)
        f.handle(.char(">"))
        XCTAssertEqual(f.text, ">hello ")
        f.handle(.end)
        f.handle(.backspace)
        XCTAssertEqual(f.text, ">hello")
        f.handle(.left)
        f.handle(.left)
        f.handle(.delete)
        XCTAssertEqual(f.text, ">helo")
    }

    func testPastedNewlinesNeverSubmit() {
        var f = TextField()
        f.handle(.paste("line one\nline two"))
        XCTAssertEqual(f.text, "line one line two")
    }

    func testLongValueScrollsToKeepTheCursorVisible() {
        var f = TextField("https://tracking.neotrips.example/very/long/path")
        var b = CellBuffer(width: 20, height: 1)
        f.render(into: &b, x: 0, y: 0, width: 20, focused: true, role: .formField)
        XCTAssertEqual(b.cursor?.x, 19, "cursor at the end, on screen")
        XCTAssertTrue(b.line(0).hasPrefix("‹"), "a marker shows text scrolled off to the left: \(b.line(0))")
        XCTAssertTrue(b.line(0).contains("long/path"))
        f.handle(.home)
        f.render(into: &b, x: 0, y: 0, width: 20, focused: true, role: .formField)
        XCTAssertEqual(b.cursor?.x, 0)
        XCTAssertTrue(b.line(0).hasPrefix("https://"))
        XCTAssertTrue(b.line(0).hasSuffix("›"))
    }

    func testMaskedFieldNeverShowsTheValue() {
        var f = TextField("s3cret-password", masked: true)
        var b = CellBuffer(width: 30, height: 1)
        f.render(into: &b, x: 0, y: 0, width: 30, focused: false, role: .formField)
        XCTAssertFalse(b.line(0).contains("s3cret"))
        XCTAssertTrue(b.line(0).hasPrefix("••••"))
    }
}

final class TableViewTests: XCTestCase {
    func table() -> TableView {
        var t = TableView(columns: [.init("Name", width: 10), .init("Label")])
        t.setRows((1...50).map { ["svc\($0)", "Label \($0)"] })
        return t
    }

    func testSelectionScrollsAndFilters() {
        var t = table()
        var b = CellBuffer(width: 40, height: 10)
        t.render(into: &b, b.bounds, focused: true)
        XCTAssertEqual(b.role(x: 0, y: 1), .listSelected)
        for _ in 0..<12 { _ = t.handle(.down) }
        t.render(into: &b, b.bounds, focused: true)
        XCTAssertEqual(t.selectedRow, 12)
        XCTAssertNotNil(b.row(containing: "svc13"), "scrolled so that the selection is visible:\n\(b.text)")
        XCTAssertEqual(b.role(x: 0, y: b.row(containing: "svc13")!), .listSelected)

        _ = t.handle(.filter)
        for c in "svc4" { _ = t.handleFilterKey(.char(c)) }
        XCTAssertEqual(t.visible.count, 11, "svc4 and svc40…49")
        t.render(into: &b, b.bounds, focused: true)
        XCTAssertTrue(b.line(9).hasPrefix("/svc4"), b.text)
        _ = t.handleFilterKey(.escape)
        XCTAssertEqual(t.visible.count, 50)
    }
}

final class FormAndDialogTests: XCTestCase {
    func testFormMovesFocusCyclesChoicesAndShowsMessages() {
        var f = Form([
            FormField(id: "a", label: "Name"),
            FormField(id: "c", label: "Connector", kind: .choice(["http2", "binary"]), value: "http2"),
            FormField(id: "x", label: "Enabled", kind: .checkbox),
        ])
        XCTAssertEqual(f.handleText(.char("n")), .changed("a"))
        XCTAssertEqual(f["a"], "n")
        _ = f.handle(.nextField)
        XCTAssertEqual(f.handle(.toggle), .changed("c"))
        XCTAssertEqual(f["c"], "binary")
        XCTAssertEqual(f.handle(.pick), .pick("c"))
        _ = f.handle(.nextField)
        _ = f.handle(.toggle)
        XCTAssertEqual(f["x"], "true")
        f.setMessage("a", "required")
        var b = CellBuffer(width: 40, height: 6)
        f.render(into: &b, b.bounds, focused: true)
        XCTAssertEqual(b.row(containing: "↳ required"), 1, "the message is under its field:\n\(b.text)")
        XCTAssertNotNil(b.row(containing: "[x]"))
    }

    func testFilePathDialogCompletesNames() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pd-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("credentials"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: dir.appendingPathComponent("credentials/AuthKey_ABC.p8").path, contents: Data())
        _ = FileManager.default.createFile(
            atPath: dir.appendingPathComponent("credentials/AuthKey_DEF.p8").path, contents: Data())
        defer { try? FileManager.default.removeItem(at: dir) }
        var d = Dialog.filePath(title: "Key file", message: "", value: "cre", base: dir.path)
        XCTAssertNil(d.handle(.tab))
        XCTAssertEqual(d.input.text, "credentials/")
        _ = d.handle(.char("A"))
        _ = d.handle(.tab)
        XCTAssertEqual(d.input.text, "credentials/AuthKey_", "common prefix of two matches")
        XCTAssertEqual(d.candidates, ["AuthKey_ABC.p8", "AuthKey_DEF.p8"])
        _ = d.handle(.char("D"))
        _ = d.handle(.tab)
        XCTAssertEqual(d.handle(.enter), .text("credentials/AuthKey_DEF.p8"))
    }

    func testConfirmDialogButtonsByKey() {
        var d = Dialog.confirm(
            title: "Unsaved", message: "Save?", buttons: ["Save", "Discard", "Cancel"], focus: 0)
        XCTAssertEqual(d.handle(.char("d")), .button(1))
        XCTAssertNil(d.handle(.tab))
        XCTAssertEqual(d.handle(.enter), .button(1))
        XCTAssertEqual(d.handle(.escape), .cancelled)
    }
}

final class KeyDecodingTests: XCTestCase {
    func testRawBytesBecomeKeys() {
        XCTAssertEqual(Terminal.plainKey(9), .tab)
        XCTAssertEqual(Terminal.plainKey(13), .enter)
        XCTAssertEqual(Terminal.plainKey(27), .escape)
        XCTAssertEqual(Terminal.plainKey(127), .backspace)
        XCTAssertEqual(Terminal.plainKey(19), .ctrl("s"))
        XCTAssertEqual(Terminal.plainKey(26), .ctrl("z"))
        XCTAssertEqual(Terminal.plainKey(0x4E2D), .char("中"))
        XCTAssertNil(Terminal.plainKey(28), "Ctrl-\\ is not a key the console uses")
        XCTAssertEqual(Terminal.functionKey(KEY_UP), .up)
        XCTAssertEqual(Terminal.functionKey(KEY_BTAB), .backTab)
        XCTAssertEqual(Terminal.functionKey(pd_key_f(10)), .f(10))
        XCTAssertEqual(Terminal.functionKey(KEY_RESIZE), .resize)
    }
}
