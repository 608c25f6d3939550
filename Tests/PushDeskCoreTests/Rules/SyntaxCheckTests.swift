import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The service rules' syntax checks are byte scans (they run for every app of a store on
/// each validate); each must answer as the string definition it replaced, kept here as the
/// oracle, on fixed and random strings.
final class SyntaxCheckTests: XCTestCase {
    static func isAlnum(_ u: Unicode.Scalar) -> Bool {
        (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9")
    }
    static func bundleId(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2
            && parts.allSatisfy { p in !p.isEmpty && p.unicodeScalars.allSatisfy { isAlnum($0) || $0 == "-" } }
    }
    static func packageName(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2
            && parts.allSatisfy { p in
                guard let f = p.unicodeScalars.first, (f >= "a" && f <= "z") || (f >= "A" && f <= "Z") else {
                    return false
                }
                return p.unicodeScalars.allSatisfy { isAlnum($0) || $0 == "_" }
            }
    }
    static func schemaName(_ s: String) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { p in !p.isEmpty && p.unicodeScalars.allSatisfy(isAlnum) }
    }
    static func reserved(_ name: String) -> Bool {
        ServiceRules.reservedVariableNames.contains(name) || name.hasPrefix("google") || name.hasPrefix("gcm")
    }

    func check(_ s: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            ServiceRules.isBundleId(s), Self.bundleId(s), "bundle id \(s.debugDescription)", file: file, line: line)
        XCTAssertEqual(
            ServiceRules.isPackageName(s), Self.packageName(s), "package \(s.debugDescription)", file: file, line: line)
        XCTAssertEqual(
            ServiceRules.isSchemaName(s), Self.schemaName(s), "schema \(s.debugDescription)", file: file, line: line)
        XCTAssertEqual(
            ServiceRules.containsWhitespace(s), s.contains(where: { $0.isWhitespace }), "space \(s.debugDescription)",
            file: file, line: line)
        XCTAssertEqual(
            ServiceRules.isReservedVariableName(s), Self.reserved(s), "reserved \(s.debugDescription)", file: file,
            line: line)
    }

    func testSameAnswersAsTheDefinitions() {
        for s in [
            "com.example.app", "com", ".com", "com.", "a..b", "a.b-c", "1a.b", "a_b.c", "nms:appSubscriptionRcp",
            "nms:", ":x",
            "a:b:c", "a:b", "é.b", "a.é", "", "key with space", "key\u{a0}nbsp", "tab\tkey", "\r\n", "\u{2028}", "gcm",
            "google.x",
            "gcmx", "aps", "apsx", "_mId", "from", "message_type", "notification", "google\u{301}", "g", "x",
        ] {
            check(s)
        }
        var rng = seededGenerator(self)
        let alphabet = Array("ab1Z-._:g o\u{a0}é\t")
        for _ in 0..<5000 {
            var s = ""
            for _ in 0..<Int.random(in: 0...9, using: &rng) { s.append(alphabet.randomElement(using: &rng)!) }
            check(s)
        }
    }
}
