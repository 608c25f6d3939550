import Foundation
import XCTest

@testable import PushDeskCore

final class JSONValueTests: XCTestCase {
    func testCompactEscapesOnlyWhatJSONRequires() {
        let v = JSONValue.object([
            ("url", .string("https://a.example/x/y")), ("t", .string("Ça \"q\" \\ 東京 🎉\n\u{01}")),
        ])
        XCTAssertEqual(v.compact, #"{"url":"https://a.example/x/y","t":"Ça \"q\" \\ 東京 🎉\n\u0001"}"#)
        XCTAssertEqual(v.compactByteCount, v.compact.utf8.count)
    }

    func testKeyOrderIsInsertionOrder() {
        let v = JSONValue.object([("z", .int(1)), ("a", .bool(true)), ("m", .null)])
        XCTAssertEqual(v.compact, #"{"z":1,"a":true,"m":null}"#)
    }

    func testPrettyParsesBackToSameValueAsCompact() throws {
        let v = JSONValue.object([
            ("aps", .object([("alert", .object([("title", .string("Hi"))])), ("badge", .int(3))])),
            ("list", .array([.string("a"), .number("0.8")])), ("empty", .object([])),
        ])
        let a = try JSONSerialization.jsonObject(with: Data(v.compact.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(v.pretty.utf8)) as? NSDictionary
        XCTAssertNotNil(a)
        XCTAssertEqual(a, b)
        XCTAssertTrue(v.pretty.contains("\n  \"aps\": {\n    \"alert\""))
    }
}
