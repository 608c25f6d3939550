import XCTest

@testable import PushDeskTUI

final class TextWidthTests: XCTestCase {
    func testWidthTable() {
        XCTAssertEqual(TextWidth.width(of: "abc"), 3)
        XCTAssertEqual(TextWidth.width(of: "中文"), 4, "CJK takes two columns each")
        XCTAssertEqual(TextWidth.width(of: "ｶﾅ"), 2, "halfwidth katakana is narrow")
        XCTAssertEqual(TextWidth.width(of: "e\u{0301}"), 1, "a combining accent takes no column")
        XCTAssertEqual(TextWidth.width(of: "한국어"), 6)
        XCTAssertEqual(TextWidth.width(of: "🚀"), 2)
    }

    func testControlCharactersAreEscapedNeverRaw() {
        XCTAssertEqual(Sanitize.string("a\u{1b}[31mb"), "a^[[31mb")
        XCTAssertEqual(Sanitize.string("tab\there"), "tab^Ihere")
        XCTAssertEqual(Sanitize.string("x\u{7f}"), "x^?")
        XCTAssertEqual(Sanitize.string("\u{85}"), "\\u{85}")
        XCTAssertEqual(Sanitize.string("evil\u{202E}txt"), "evil\\u{202E}txt", "bidi override shown, not applied")
        XCTAssertEqual(TextWidth.width(of: "\u{1b}"), 2, "the escape ^[ takes the columns it shows")
    }

    func testTruncateAndPadRespectColumns() {
        XCTAssertEqual(TextWidth.truncate("中文中文", to: 5), "中文…")
        XCTAssertEqual(TextWidth.width(of: TextWidth.pad("中文", to: 7)), 7)
        XCTAssertEqual(TextWidth.truncate("short", to: 10), "short")
    }
}

final class CellBufferTests: XCTestCase {
    func testWideGlyphOccupiesTwoCellsAndLinesUp() {
        var b = CellBuffer(width: 10, height: 2)
        b.put("中a", x: 0, y: 0, role: .normal)
        b.put("xxa", x: 0, y: 1, role: .normal)
        XCTAssertEqual(b[0, 0].text, "中")
        XCTAssertTrue(b[1, 0].isContinuation)
        XCTAssertEqual(b[2, 0].text, "a")
        XCTAssertEqual(
            b.column(of: "a", inRow: 0), b.column(of: "a", inRow: 1),
            "the a after a wide glyph is in column 2 on both rows")
    }

    func testWideGlyphAtTheEdgeBecomesASpace() {
        var b = CellBuffer(width: 3, height: 1)
        let end = b.put("ab中", x: 0, y: 0, role: .normal)
        XCTAssertEqual(b.line(0), "ab ")
        XCTAssertEqual(end, 3)
    }

    func testOverwritingHalfAWideGlyphBlanksTheOtherHalf() {
        var b = CellBuffer(width: 4, height: 1)
        b.put("中中", x: 0, y: 0, role: .normal)
        b.put("x", x: 1, y: 0, role: .normal)
        XCTAssertEqual(b.line(0), " x中")
    }

    func testEscapedControlCharactersGetTheEscapedRole() {
        var b = CellBuffer(width: 10, height: 1)
        b.put("a\u{1b}", x: 0, y: 0, role: .normal)
        XCTAssertEqual(b.line(0).trimmingTrailingSpaces(), "a^[")
        XCTAssertEqual(b.role(x: 1, y: 0), .escaped)
        XCTAssertFalse(b.cells.contains { $0.text.unicodeScalars.contains { $0.value == 0x1b } })
    }

    func testASCIIBordersWhenAsked() {
        var b = CellBuffer(width: 4, height: 3)
        b.asciiOnly = true
        b.box(b.bounds, role: .border)
        XCTAssertEqual(b.text, "+--+\n|  |\n+--+")
    }
}
