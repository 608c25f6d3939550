import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The byte scan for plain URLs must never accept what Foundation's parser would not, and
/// `urlProblem` must answer exactly as `URLComponents` alone does.
final class URLCheckTests: XCTestCase {
    func testPlainURLsAreRecognised() {
        for s in [
            "https://marketing.neotrips.example:8443/", "http://t.example", "HTTPS://A-B.example/x?y=1&z=2#top",
            "https://h/p;a=b/c@d:e/~f_g(h)*+,!$'", "https://h:1/?q=/?#/?",
        ] {
            XCTAssertTrue(URLCheck.isPlainHTTPURL(s), s)
            XCTAssertNil(ServiceRules.urlProblem(s), s)
        }
        for s in [
            "https://", "https:///x", "https://h:/", "https://h:123456/", "https://h/%20", "https://h/a b",
            "https://[::1]/",
            "https://u@h/", "ftp://h/", "https:/h/", "https://h#a#b", "https://h/é", "https://h\\x", "https://h/\"",
        ] {
            XCTAssertFalse(URLCheck.isPlainHTTPURL(s), s)
        }
    }

    func testSameAnswerAsFoundation() {
        let fixed = [
            "", "h", "https", "https:", "https:/", "https://", "https://h", "https://h:", "https://h:0",
            "https://h:65536/",
            "https://h:99999", "https://.", "https://-", "https://h.", "https://h/%", "https://h/%2", "https://h/%2g",
            "https://h/%20",
            "https://[::1]:8/", "https://[v1.x]/", "https://u:p@h/", "https://@h/", "https://h?#", "https://h/#x#y",
            "http://h/ x", " https://h/", "https://h/\t", "HtTp://h/", "https://h/[x]", "https://h/{x}", "https://h/|",
            "mailto:x@h", "//h/", "/p", "https://h/é", "https://é.example/", "https://h/\u{7f}", "https://h:8a/",
        ]
        for s in fixed { XCTAssertEqual(ServiceRules.urlProblem(s), ServiceRules.foundationURLProblem(s), s) }
        // Random strings near the grammar: prefixes that almost match, then characters that matter.
        var rng = seededGenerator(self)
        let prefixes = [
            "https://", "http://", "HTTP://", "https:/", "https:", "htp://", "https://h", "https://h:8",
            "https://h.example/", "",
        ]
        let alphabet = Array("ab.-_~:/?#@[]%20!$&'()*+,;= \t\"<>\\^`{|}é")
        var accepted = 0
        for _ in 0..<4000 {
            var s = prefixes.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...10, using: &rng) { s.append(alphabet.randomElement(using: &rng)!) }
            if URLCheck.isPlainHTTPURL(s) {
                accepted += 1
                XCTAssertNil(
                    ServiceRules.foundationURLProblem(s), "the scan accepted \(s.debugDescription), Foundation does not"
                )
            }
            XCTAssertEqual(ServiceRules.urlProblem(s), ServiceRules.foundationURLProblem(s), s.debugDescription)
        }
        XCTAssertGreaterThan(accepted, 100, "the random strings exercise the fast path")
    }

    /// `OptionValues.isHTTPSURL` is a byte scan; it must answer as the string-based
    /// definition it replaced (kept here as the oracle).
    func testHTTPSURLScanMatchesItsDefinition() {
        func oracle(_ text: String) -> Bool {
            let lower = text.lowercased()
            guard lower.hasPrefix("https://") else { return false }
            guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return false }
            let rest = lower.dropFirst("https://".count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let host = authority.split(separator: "@").last.map { $0.split(separator: ":").first ?? "" } ?? ""
            return !host.isEmpty
        }
        let fixed = [
            "https://cdn.example/a.jpg", "HTTPS://H", "https://", "https://@", "https://u@", "https://u@:",
            "https://u@::",
            "https://:80", "https://::/x", "https://a@b@", "https://@@h", "https://h/ x", "https://h\u{7f}", "http://h",
            "https:/h", "hTtPs://x", "https://é/", "https://h#", "https://?", "xhttps://h", "https://h\tx",
        ]
        for s in fixed { XCTAssertEqual(OptionValues.isHTTPSURL(s), oracle(s), s.debugDescription) }
        var rng = seededGenerator(self)
        let prefixes = ["https://", "HTTPS://", "HtTpS://", "https:/", "http://", "", "https://u"]
        let alphabet = Array("ab:@/?#. \t\u{7f}éK")
        var yes = 0
        for _ in 0..<5000 {
            var s = prefixes.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...8, using: &rng) { s.append(alphabet.randomElement(using: &rng)!) }
            let want = oracle(s)
            if want { yes += 1 }
            XCTAssertEqual(OptionValues.isHTTPSURL(s), want, s.debugDescription)
        }
        XCTAssertGreaterThan(yes, 200)
    }
}
