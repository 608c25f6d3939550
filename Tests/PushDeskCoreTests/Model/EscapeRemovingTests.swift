import XCTest

@testable import PushDeskCore

/// `Escape.removingFlagged`: a name from the network keeps its text and loses every control
/// sequence whole, so nothing of `ESC [31m` or an OSC title is left in a saved label.
final class EscapeRemovingTests: XCTestCase {
    func testControlSequencesLeaveWhole() {
        let cases: [(String, String)] = [
            ("Ana\u{1B}[31m iPhone\u{1B}[0m", "Ana iPhone"),  // SGR, ESC form
            ("Ana\u{9B}1;31mPad", "AnaPad"),  // SGR, C1 CSI form
            ("QA\u{1B}]0;owned\u{07} phone", "QA phone"),  // OSC to BEL
            ("QA\u{1B}]2;t\u{1B}\\ phone", "QA phone"),  // OSC to ST
            ("QA\u{9D}8;;https://x.example\u{9C}link", "QAlink"),  // C1 OSC to C1 ST
            ("Pix\u{1B}cel", "Pixel"),  // ESC and one character (RIS)
            ("tail\u{1B}[", "tail"),  // cut off after CSI
            ("Ana's\tPixel\n8", "Ana's Pixel 8"),  // layout becomes a space
            ("\u{202E}enohP", "enohP"),  // bidi override left out
            ("東京の iPhone", "東京の iPhone"),  // text as it is
        ]
        for (name, label) in cases {
            XCTAssertEqual(Escape.removingFlagged(name), label, name.debugDescription)
        }
    }
}
