import XCTest

@testable import PushDeskCore

/// The one escape rule over a whole printed document (`Escape.json`, `Escape.xml`): what
/// `mustEscape` flags is replaced wherever it sits — first, last, side by side — and the rest,
/// wide text and emoji sequences included, is kept byte for byte.
final class EscapeDocumentTests: XCTestCase {
    func testFlaggedScalarsAtTheEdgesAndSideBySide() {
        XCTAssertEqual(Escape.json("\u{202E}a\u{9B}\u{7F}b\u{200B}"), "\\u202Ea\\u009B\\u007Fb\\u200B")
        XCTAssertEqual(Escape.xml("\u{202E}a\u{9B}\u{7F}b\u{200B}"), "&#x202E;a&#x9B;&#x7F;b&#x200B;")
        XCTAssertEqual(Escape.json("\u{E0041}"), "\\uDB40\\uDC41", "a tag character alone: a surrogate pair")
    }

    func testTextWithNothingFlaggedIsKept() {
        let kept =
            "{\n  \"title\": \"夏天來了 — Zürich, Tromsø 👩‍👩‍👧 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}\"\n}"
        XCTAssertEqual(Escape.json(kept), kept)
        XCTAssertEqual(Escape.xml(kept), kept)
    }

    /// Long documents keep every byte between the flagged ones: the runs copied whole.
    func testRunsBetweenFlaggedScalarsAreCopiedExactly() {
        let run = String(repeating: "週日前八折 — é ", count: 200)
        let doc = (0..<50).map { "\(run)\u{2028}\($0)" }.joined(separator: "\n")
        let expected = (0..<50).map { "\(run)\\u2028\($0)" }.joined(separator: "\n")
        XCTAssertEqual(Escape.json(doc), expected)
    }
}
