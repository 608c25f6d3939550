import XCTest

@testable import PushDeskCore

/// The one XML writer: its whole output, and what it refuses.
final class XMLWriterTests: XCTestCase {
    func testWholeDocumentWithEscapes() throws {
        var w = XMLWriter()
        try w.start("service", [("name", "a&b<c>\"d\"\n\t\re"), ("label", nil), ("x", "Ｆｕｌｌ ok")])
        try w.textElement("title", text: "Tom & Jerry <3 \"q\"\r\n\tend \u{FF21}")
        try w.empty("variable", [("name", "v"), ("label", "")])
        w.end()
        XCTAssertEqual(
            w.output,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <service name="a&amp;b&lt;c&gt;&quot;d&quot;&#10;&#9;&#13;e" x="Ｆｕｌｌ ok">
              <title>Tom &amp; Jerry &lt;3 "q"&#13;
            \tend \u{FF21}</title>
              <variable name="v" label=""/>
            </service>

            """)
    }

    func testRefusesWhatAFileCannotHoldOrTheReaderRefuses() {
        for bad in ["a\u{1}b", "x\u{FFFE}", "\u{FFFF}", "ok\u{0}"] {
            var w = XMLWriter()
            XCTAssertThrowsError(try w.empty("a", [("v", bad)])) { XCTAssertTrue($0 is XMLWriteError, "\($0)") }
        }
        var w = XMLWriter()
        let long = String(repeating: "é", count: ElementReader.maxValueBytes / 2 + 1)
        XCTAssertThrowsError(try w.textElement("t", text: long)) { XCTAssertTrue($0 is XMLEncodeError, "\($0)") }
    }
}
