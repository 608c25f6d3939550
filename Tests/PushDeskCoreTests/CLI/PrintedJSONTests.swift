import Foundation
import XCTest

@testable import PushDeskCore

/// A printed JSON document (`--json`) writes DEL, C1, bidi and invisible characters as
/// `\uXXXX`: a JSON reader gets the same values, a terminal gets nothing it would obey.
/// What is sent and counted stays the compact form of docs/PAYLOADS.md.
final class PrintedJSONTests: XCTestCase {
    func testListJSONEscapesWhatATerminalWouldObeyAndKeepsTheValue() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let store = Store(root: root)
        var s = try store.load(Service.self, "neotrips")
        let label = "Evil\u{9B}2J\u{7F}\u{202E}x\u{200B}"
        s.label = label
        try store.save(s)
        let r = try runPushDesk(["list", "--json", "--store", root.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#""label": "Evil\u009B2J\u007F\u202Ex\u200B""#), r.stdout)
        XCTAssertNil(r.stdout.unicodeScalars.first { (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let services = try XCTUnwrap(doc["services"] as? [[String: Any]])
        XCTAssertEqual(services.first?["label"] as? String, label)
    }

    func testOnlyThePrintedFormIsEscaped() {
        let v = JSONValue.object([("title", .string("a\u{85}b"))])
        XCTAssertEqual(v.compact, "{\"title\":\"a\u{85}b\"}")
        XCTAssertEqual(v.compactByteCount, v.compactBytes.count)
        XCTAssertEqual(v.pretty, "{\n  \"title\": \"a\\u0085b\"\n}")
        // An emoji sequence's joiner is part of one picture and stays.
        XCTAssertEqual(JSONValue.string("👩\u{200D}👧").pretty, "\"👩\u{200D}👧\"")
        // Astral characters are escaped as a surrogate pair.
        XCTAssertEqual(JSONValue.string("a\u{E0041}").pretty, "\"a\\uDB40\\uDC41\"")
    }
}
