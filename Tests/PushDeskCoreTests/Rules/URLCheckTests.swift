import XCTest
@testable import PushDeskCore

/// The byte scan for plain URLs must never accept what Foundation's parser would not, and
/// `urlProblem` must answer exactly as `URLComponents` alone does.
final class URLCheckTests: XCTestCase {
    func testPlainURLsAreRecognised() {
        for s in ["https://marketing.neotrips.example:8443/", "http://t.example", "HTTPS://A-B.example/x?y=1&z=2#top",
                  "https://h/p;a=b/c@d:e/~f_g(h)*+,!$'", "https://h:1/?q=/?#/?"] {
            XCTAssertTrue(URLCheck.isPlainHTTPURL(s), s)
            XCTAssertNil(ServiceRules.urlProblem(s), s)
        }
        for s in ["https://", "https:///x", "https://h:/", "https://h:123456/", "https://h/%20", "https://h/a b", "https://[::1]/",
                  "https://u@h/", "ftp://h/", "https:/h/", "https://h#a#b", "https://h/é", "https://h\\x", "https://h/\""] {
            XCTAssertFalse(URLCheck.isPlainHTTPURL(s), s)
        }
    }

    func testSameAnswerAsFoundation() {
        let fixed = ["", "h", "https", "https:", "https:/", "https://", "https://h", "https://h:", "https://h:0", "https://h:65536/",
                     "https://h:99999", "https://.", "https://-", "https://h.", "https://h/%", "https://h/%2", "https://h/%2g", "https://h/%20",
                     "https://[::1]:8/", "https://[v1.x]/", "https://u:p@h/", "https://@h/", "https://h?#", "https://h/#x#y",
                     "http://h/ x", " https://h/", "https://h/\t", "HtTp://h/", "https://h/[x]", "https://h/{x}", "https://h/|",
                     "mailto:x@h", "//h/", "/p", "https://h/é", "https://é.example/", "https://h/\u{7f}", "https://h:8a/"]
        for s in fixed { XCTAssertEqual(ServiceRules.urlProblem(s), ServiceRules.foundationURLProblem(s), s) }
        // Random strings near the grammar: prefixes that almost match, then characters that matter.
        var rng = SystemRandomNumberGenerator()
        let prefixes = ["https://", "http://", "HTTP://", "https:/", "https:", "htp://", "https://h", "https://h:8", "https://h.example/", ""]
        let alphabet = Array("ab.-_~:/?#@[]%20!$&'()*+,;= \t\"<>\\^`{|}é")
        var accepted = 0
        for _ in 0..<4000 {
            var s = prefixes.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...10, using: &rng) { s.append(alphabet.randomElement(using: &rng)!) }
            if URLCheck.isPlainHTTPURL(s) {
                accepted += 1
                XCTAssertNil(ServiceRules.foundationURLProblem(s), "the scan accepted \(s.debugDescription), Foundation does not")
            }
            XCTAssertEqual(ServiceRules.urlProblem(s), ServiceRules.foundationURLProblem(s), s.debugDescription)
        }
        XCTAssertGreaterThan(accepted, 100, "the random strings exercise the fast path")
    }
}
