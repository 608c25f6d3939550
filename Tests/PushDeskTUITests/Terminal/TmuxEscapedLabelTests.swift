import Foundation
import XCTest

@testable import PushDeskTUI

/// Control and escape sequences from a service file reach the screen escaped, in their own
/// style, and never as bytes the terminal would act on (hostile labels). XML 1.0
/// cannot hold ESC or BEL, so those come in through the other untrusted text that reaches
/// the console, a file name; the label carries what XML can: a C1 CSI (U+009B, which
/// many terminals treat as ESC [), CR and tab as character references, NEL, a bidi
/// override, an isolate, zero-width characters.
final class TmuxEscapedLabelTests: TmuxTestCase {
    /// As the label is written in the file, and as the console must show it.
    static let fileLabel = "Evil&#x9B;2J&#13;CR\u{85}N&#x202E;gpj.exe&#x200B;Z&#x2066;I&#9;T"
    static let shownLabel = #"Evil\u{9B}2J^MCR\u{85}N\u{202E}gpj.exe\u{200B}Z\u{2066}I^IT"#
    static let evilFile = "evil\u{1B}[2J\u{7}"

    func testHostileLabelAndFileNameRenderEscaped() throws {
        let services = store.appendingPathComponent("services")
        let path = services.appendingPathComponent("neotrips.xml")
        var xml = try String(contentsOf: path, encoding: .utf8)
        xml = xml.replacingOccurrences(
            of: #"name="neotrips" label="Neotrips""#, with: #"name="neotrips" label="\#(Self.fileLabel)""#)
        try xml.write(to: path, atomically: true, encoding: .utf8)
        // A second file whose name carries ESC [ 2 J and BEL: it fails to load (its name
        // does not match), and the console lists that error with the file name.
        try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<service format=\"1\" name=\"x\"/>\n".utf8)
            .write(to: services.appendingPathComponent(Self.evilFile + ".xml"))

        let t = try TmuxHarness(width: 200, height: 50, args: ["--store", store.path])
        t.waitFor("PushDesk — Services")
        // Record every byte the console writes from here on, then ask for a full repaint.
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("pd-raw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: raw) }
        try t.run(["pipe-pane", "-t", "pd", "-o", "cat >> \(TmuxHarness.quote(raw.path))"])
        t.keys("C-l")
        // The whole frame (a repaint arrives in pieces): the label row and the hints row.
        var s = t.waitUntil("the repainted list") { $0.contains(#"Evil\u{9B}2J^MCR"#) && $0.contains("Ctrl-Q quit") }
        // The load error names the file with its escapes shown, as the label is.
        assertScreen(t, s, "listWithEscapedNames")
        assertIntact(s, t, width: 200, height: 50)

        // The service editor shows the whole label in its field, escaped the same way.
        t.keys("Enter")
        s = t.waitUntil("the editor with the label") { $0.contains(Self.shownLabel) && $0.contains("Ctrl-Q quit") }
        assertScreen(t, s, "editorWithTheEscapedLabel")
        assertIntact(s, t, width: 200, height: 50)
        // The escapes are drawn in the text.escaped style (its own colours), not as label text.
        let e = t.screen(escapes: true)
        XCTAssertNotNil(
            e.range(of: "Evil(\u{1b}\\[[0-9;]*m)+\\\\u\\{9B\\}", options: .regularExpression),
            "a style change right before the escape:\n\(e.debugDescription.prefix(2000))")
        XCTAssertTrue(e.contains("38;5;208"), "text.escaped's foreground (208) is used")

        t.keys("Escape")
        t.waitFor("Enter edit")
        t.keys("C-q")
        XCTAssertEqual(t.ending().status, 0)
        try t.run(["pipe-pane", "-t", "pd"])
        let bytes = [UInt8](try Data(contentsOf: raw))
        XCTAssertGreaterThan(bytes.count, 1000, "the repaint was recorded")
        for (name, seq) in [
            ("U+009B CSI", [0xC2, 0x9B]), ("U+0085 NEL", [0xC2, 0x85]), ("U+202E RLO", [0xE2, 0x80, 0xAE]),
            ("U+200B ZWSP", [0xE2, 0x80, 0x8B]), ("U+2066 LRI", [0xE2, 0x81, 0xA6]), ("BEL", [0x07]),
        ] as [(String, [UInt8])] {
            XCTAssertFalse(contains(bytes, seq), "\(name) reached the terminal raw")
        }
    }

    /// The screen is whole: the title on the first row, the key hints on the last, nothing
    /// wider than the pane (a raw CR, tab or clear-screen would break one of these).
    private func assertIntact(
        _ s: String, _ t: TmuxHarness, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        let rows = s.components(separatedBy: "\n")
        XCTAssertTrue(rows.first?.contains("PushDesk — ") ?? false, "title row:\n\(s)", file: file, line: line)
        XCTAssertTrue(
            rows.prefix(height).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("Ctrl-Q quit")
                ?? false,
            "status row:\n\(s)", file: file, line: line)
        for r in rows { XCTAssertLessThanOrEqual(TextWidth.width(of: r), width, r, file: file, line: line) }
    }

    private func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        guard hay.count >= needle.count else { return false }
        for i in 0...(hay.count - needle.count)
        where hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle { return true }
        return false
    }
}
