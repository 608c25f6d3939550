import XCTest

@testable import PushDeskTUI

/// The multi-line body editor: line breaks, soft wrap, vertical moves, line-scoped keys.
final class TextAreaTests: XCTestCase {
    func render(_ a: inout TextArea, width: Int, height: Int) -> CellBuffer {
        var b = CellBuffer(width: width, height: height)
        a.render(into: &b, x: 0, y: 0, width: width, height: height, focused: true, role: .formField)
        return b
    }

    func testTypingLineBreaksAndLineScopedHomeEnd() {
        var a = TextArea()
        for c in "Hello" { a.handle(.char(c)) }
        a.insertNewline()
        for c in "world" { a.handle(.char(c)) }
        XCTAssertEqual(a.text, "Hello\nworld")
        a.handle(.home)
        a.handle(.char(">"))
        XCTAssertEqual(a.text, "Hello\n>world", "Home goes to the start of the line, not of the text")
        a.handle(.up)
        a.handle(.end)
        a.handle(.char("!"))
        XCTAssertEqual(a.text, "Hello!\n>world")
        a.handle(.ctrl("k"))  // at the end of the line: join the next
        XCTAssertEqual(a.text, "Hello!>world")
        a.handle(.ctrl("u"))
        XCTAssertEqual(a.text, ">world")
        XCTAssertEqual(a.cursor, 0)
    }

    /// A finding's line:column (columns in Unicode scalars, as the JSON reader counts) lands
    /// on its character; past a line's end, that end; past the last line, the end of the text.
    func testMoveCursorToALineAndScalarColumn() {
        var a = TextArea("{\"a\":1,\r\n\"e\u{301}\":x}\nlast")
        a.moveCursor(line: 2, column: 6)  // `"`, `e`, U+0301, `"`, `:`, then `x`
        XCTAssertEqual(Array(a.text)[a.cursor], "x")
        a.moveCursor(line: 2, column: 3)  // the combining mark: its character
        XCTAssertEqual(Array(a.text)[a.cursor], "e\u{301}")
        a.moveCursor(line: 1, column: 99)
        XCTAssertEqual(Array(a.text)[a.cursor], "\r\n")
        a.moveCursor(line: 3, column: 1)
        XCTAssertEqual(Array(a.text)[a.cursor], "l")
        a.moveCursor(line: 9, column: 1)
        XCTAssertEqual(a.cursor, a.text.count)
    }

    func testWordDeleteStopsAtTheLineStartThenJoins() {
        var a = TextArea("one two\nthree")
        a.handle(.ctrl("w"))
        XCTAssertEqual(a.text, "one two\n")
        a.handle(.ctrl("w"))
        XCTAssertEqual(a.text, "one two", "at a line start Ctrl-W removes the break")
        a.handle(.ctrl("w"))
        XCTAssertEqual(a.text, "one ")
        a.handle(.backspace)
        a.handle(.left)
        a.handle(.delete)
        XCTAssertEqual(a.text, "on")
    }

    func testSoftWrapAndVerticalMovesKeepTheColumn() {
        // Width 11 wraps at 10 columns (one column stays free for the cursor).
        var a = TextArea("abcdefghijklmnopqrstuvwxyz\nshort")
        var b = render(&a, width: 11, height: 4)
        XCTAssertEqual(
            (0..<4).map { b.line($0).trimmingTrailingSpaces() }, ["abcdefghij", "klmnopqrst", "uvwxyz", "short"])
        XCTAssertEqual(b.cursor?.x, 5)
        XCTAssertEqual(b.cursor?.y, 3)
        XCTAssertTrue(a.moveVertically(-1))  // onto "uvwxyz" at column 5
        b = render(&a, width: 11, height: 4)
        XCTAssertEqual(b.cursor?.x, 5)
        XCTAssertEqual(b.cursor?.y, 2)
        XCTAssertTrue(a.moveVertically(-1))
        XCTAssertTrue(a.moveVertically(-1))
        a.handle(.char("*"))
        XCTAssertEqual(a.text, "abcde*fghijklmnopqrstuvwxyz\nshort", "same column two rows up")
        XCTAssertFalse(a.moveVertically(-1), "the first row: the form moves to the field above")
    }

    func testEndOfAFullSoftRowDoesNotTrapTheCursor() {
        // Going up onto a wrapped row lands before its last character, so ↑ keeps moving.
        var a = TextArea("0123456789abcdefghij")
        _ = render(&a, width: 11, height: 3)
        a.handle(.end)
        XCTAssertTrue(a.moveVertically(-1))
        var b = render(&a, width: 11, height: 3)
        XCTAssertEqual(b.cursor?.y, 0)
        XCTAssertTrue(a.moveVertically(1))
        b = render(&a, width: 11, height: 3)
        XCTAssertEqual(b.cursor?.y, 1)
        XCTAssertFalse(a.moveVertically(1))
    }

    func testScrollsToTheCursorAndMarksHiddenRows() {
        var a = TextArea((1...8).map { "line \($0)" }.joined(separator: "\n"))
        var b = render(&a, width: 20, height: 3)
        XCTAssertEqual(b.line(2).trimmingTrailingSpaces(), "line 8", "the cursor's row (the last) shows")
        XCTAssertEqual(b.line(0).last, "↑", "rows hidden above:\n\(b.text)")
        for _ in 0..<7 { _ = a.moveVertically(-1) }
        b = render(&a, width: 20, height: 3)
        XCTAssertTrue(b.line(0).hasPrefix("line 1"))
        XCTAssertEqual(b.line(2).last, "↓", b.text)
    }

    func testPasteKeepsLineBreaksAndControlCharactersShowEscaped() {
        var a = TextArea()
        a.handle(.paste("a\r\nb\rc\u{1B}d"))
        XCTAssertEqual(a.text, "a\nb\nc\u{1B}d")
        let b = render(&a, width: 20, height: 3)
        XCTAssertEqual(b.line(2).trimmingTrailingSpaces(), "c^[d")
    }

    func testWideCharactersWrapByColumns() {
        var a = TextArea("夏のセール開催中")  // 16 columns
        let b = render(&a, width: 11, height: 2)
        XCTAssertEqual(b.line(0).trimmingTrailingSpaces(), "夏のセール")
        XCTAssertEqual(b.line(1).trimmingTrailingSpaces(), "開催中")
        XCTAssertEqual(b.cursor?.x, 6)
    }
}

/// The form's multi-line field and greyed-out fields.
final class FormTextAreaTests: XCTestCase {
    func form() -> Form {
        Form([
            FormField(id: "title", label: "Title", value: "Hi"),
            FormField(id: "body", label: "Body", kind: .textArea(rows: 2...5), value: "one"),
            FormField(id: "sound", label: "Sound", kind: .choice(["(not set)", "default"]), value: "(not set)"),
        ])
    }

    func testEnterIsANewLineAndArrowsLeaveAtTheEdges() {
        var f = form()
        XCTAssertEqual(f.handle(.lineDown), .moved)  // from Title (not a text area): next field
        XCTAssertEqual(f.focused?.id, "body")
        XCTAssertEqual(f.handle(.newline), .changed("body"))
        XCTAssertEqual(f.handleText(.char("x")), .changed("body"))
        XCTAssertEqual(f["body"], "one\nx")
        XCTAssertEqual(f.handle(.lineUp), .moved)
        XCTAssertEqual(f.focused?.id, "body", "↑ moved inside the text")
        XCTAssertEqual(f.handle(.lineUp), .moved)
        XCTAssertEqual(f.focused?.id, "title", "↑ on the first row leaves for the field above")
        XCTAssertEqual(f.handle(.newline), .unhandled, "Enter is a new line only in a text area")
    }

    func testTheFieldGrowsWithItsTextWithinItsBounds() {
        var f = form()
        var b = CellBuffer(width: 40, height: 12)
        f.render(into: &b, b.bounds, focused: true)
        XCTAssertEqual(b.row(containing: "Sound"), 3, "Title, then 2 rows of body:\n\(b.text)")
        f["body"] = "1\n2\n3\n4\n5\n6\n7"
        b = CellBuffer(width: 40, height: 12)
        f.render(into: &b, b.bounds, focused: true)
        XCTAssertEqual(b.row(containing: "Sound"), 6, "at most 5 rows:\n\(b.text)")
        XCTAssertEqual(f.height(width: 40), 7)
    }

    func testDimmedFieldsUseTheDisabledRoleUnlessFocused() {
        var f = form()
        f.fields[2].dimmed = true
        var b = CellBuffer(width: 40, height: 8)
        f.render(into: &b, b.bounds, focused: true)
        let row = b.row(containing: "Sound")!
        XCTAssertEqual(b.role(x: 0, y: row), .formDisabled)
        f.focus(id: "sound")
        f.render(into: &b, b.bounds, focused: true)
        XCTAssertEqual(b.role(x: 0, y: row), .formFieldFocus, "the focused field is drawn as focused")
    }
}
