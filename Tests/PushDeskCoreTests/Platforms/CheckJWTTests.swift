import Crypto
import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk credentials check-jwt` (docs/CREDENTIALS.md) run as an operator runs it, the token on
/// stdin (`-`) or as the argument, on tokens made by PushDesk's own signer
/// (`APNsProviderToken`) and on hand-made broken ones. No output ever holds the token, its
/// signature or the key.
final class CheckJWTTests: XCTestCase {
    let keyId = "ABC123DEFG"
    let teamId = "DEF123GHIJ"
    var store: URL!
    var key: P256.Signing.PrivateKey!
    var outputs: [String] = []

    override func setUpWithError() throws {
        store = try makeTempDir(self)
        try DemoStore.write(to: store)
        key = P256.Signing.PrivateKey()
        let creds = store.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: creds, withIntermediateDirectories: true)
        try key.pemRepresentation.write(
            to: creds.appendingPathComponent("AuthKey_\(keyId).p8"), atomically: true, encoding: .utf8)
    }

    /// The token PushDesk itself would send, signed `age` seconds ago.
    private func signed(age: TimeInterval, key: P256.Signing.PrivateKey? = nil, team: String? = nil) throws -> String {
        let t = try APNsProviderToken(
            keyId: keyId, teamId: team ?? teamId, key: APNsAuthKey(privateKey: key ?? self.key),
            issuedAt: Date(timeIntervalSinceNow: -age))
        return String(t.authorizationHeaderValue.dropFirst("bearer ".count))
    }

    /// A JWT of these header and claims texts, signed with the store's key.
    private func handMade(_ header: String, _ claims: String) throws -> String {
        let input = CredentialText.base64url(Array(header.utf8)) + "." + CredentialText.base64url(Array(claims.utf8))
        let sig = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + CredentialText.base64url(sig)
    }

    /// Runs check-jwt with the token on stdin (from a file: a 1 MB one would fill a pipe).
    private func check(stdin bytes: [UInt8], json: Bool = false) throws -> CommandResult {
        let file = try makeTempDir(self).appendingPathComponent("token")
        try Data(bytes).write(to: file)
        let p = Process()
        p.executableURL = try builtPushDesk()
        p.arguments = ["credentials", "check-jwt", "--store", store.path] + (json ? ["--json"] : []) + ["-"]
        p.standardInput = try FileHandle(forReadingFrom: file)
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        try p.waitUntilExit(within: defaultChildDeadline)
        let r = CommandResult(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
        outputs.append(r.stdout + r.stderr)
        return r
    }

    private func check(_ token: String, json: Bool = false) throws -> CommandResult {
        try check(stdin: Array((token + "\n").utf8), json: json)
    }

    private func rules(_ r: CommandResult) -> [String] {
        let found = try? NSRegularExpression(pattern: #"\[(jwt\.[a-z-]+|token\.key)\]"#)
        let s = r.stdout
        return found?.matches(in: s, range: NSRange(s.startIndex..., in: s)).map {
            String(s[Range($0.range(at: 1), in: s)!])
        } ?? []
    }

    /// Neither the token, nor its signature, nor the key's PEM lines in anything printed or
    /// in any file of the store.
    private func assertNothingLeaked(_ tokens: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        var secrets = CredentialSecretScan.pemBodyLines(key.pemRepresentation)
        for t in tokens {
            secrets.append(t)
            if let sig = t.split(separator: ".").last, sig.count > 20 { secrets.append(String(sig)) }
        }
        var texts = outputs
        if let e = FileManager.default.enumerator(at: store, includingPropertiesForKeys: nil) {
            for case let url as URL in e where !url.path.hasSuffix(".p8") {
                if let d = try? Data(contentsOf: url) { texts.append(String(decoding: d, as: UTF8.self)) }
            }
        }
        for s in secrets {
            for t in texts { XCTAssertFalse(t.contains(s), "leaked \(s.prefix(12))…", file: file, line: line) }
        }
    }

    func testAFreshTokenOfTheProductsSignerHasNoFindings() throws {
        let token = try signed(age: 5)
        let r = try check(token)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains(#"header: {"alg":"ES256","kid":"ABC123DEFG"}"#), r.stdout)
        XCTAssertTrue(r.stdout.contains(#"claims: {"iss":"DEF123GHIJ","iat":"#), r.stdout)
        XCTAssertTrue(r.stdout.contains("no findings"), r.stdout)
        let j = try check(token, json: true)
        XCTAssertEqual(j.status, 0)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(doc.keys), ["header", "claims", "findings"])
        XCTAssertEqual(doc["header"] as? [String: String], ["alg": "ES256", "kid": keyId])
        XCTAssertEqual((doc["claims"] as? [String: Any])?["iss"] as? String, teamId)
        XCTAssertEqual((doc["findings"] as? [Any])?.count, 0)
        // As the argument too (and with the `bearer ` an operator copies from a header).
        let arg = try runPushDesk(["credentials", "check-jwt", "--store", store.path, "bearer " + token])
        outputs.append(arg.stdout + arg.stderr)
        XCTAssertEqual(arg.status, 0, arg.stdout + arg.stderr)
        try assertNothingLeaked([token])
    }

    func testFiftyNineMinutesIsAgeingAndSixtyOneIsExpired() throws {
        let old = try signed(age: 59 * 60)
        let r59 = try check(old)
        XCTAssertEqual(r59.status, 0, "a warning alone: \(r59.stdout)")
        XCTAssertEqual(rules(r59), ["jwt.ageing"])
        XCTAssertTrue(r59.stdout.contains("signed 59 minutes ago"), r59.stdout)
        let expired = try signed(age: 61 * 60)
        let r61 = try check(expired, json: true)
        XCTAssertEqual(r61.status, 1)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r61.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["rule"] as? String }, ["jwt.expired"])
        XCTAssertEqual(findings.first?["severity"] as? String, "error")
        XCTAssertEqual(findings.first?["field"] as? String, "claims.iat")
        let future = try signed(age: -300)
        XCTAssertEqual(rules(try check(future)), ["jwt.future"])
        try assertNothingLeaked([old, expired, future])
    }

    func testAnotherKeyIsTheSignatureAndAnotherTeamIsTheTeam() throws {
        let wrongKey = try signed(age: 10, key: P256.Signing.PrivateKey())
        let r = try check(wrongKey)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(rules(r), ["jwt.signature"])
        XCTAssertTrue(r.stdout.contains("does not verify with the key of neotrips-ios-dev"), r.stdout)
        let wrongTeam = try signed(age: 10, team: "ZZZ999ZZZZ")
        let t = try check(wrongTeam)
        XCTAssertEqual(t.status, 1)
        XCTAssertEqual(rules(t), ["jwt.team"], "the signature is the app's key's: only the team is wrong")
        XCTAssertTrue(t.stdout.contains("iss ZZZ999ZZZZ is not the Team ID of neotrips-ios-dev (DEF123GHIJ)"), t.stdout)
        let altered = String(try signed(age: 10).dropLast(3)) + "AAA"
        XCTAssertEqual(rules(try check(altered)), ["jwt.signature"])
        try assertNothingLeaked([wrongKey, wrongTeam, altered])
    }

    func testMalformedTokensArePinnedFindingsOrUsageErrors() throws {
        let now = Int(Date().timeIntervalSince1970)
        let cases: [(String, [String])] = [
            ("abc.def", ["jwt.format"]),
            (try handMade(#"["ES256"]"#, #"{"iss":"DEF123GHIJ","iat":\#(now)}"#), ["jwt.format"]),
            ("!!!." + (try handMade("{}", "{}")).split(separator: ".")[1] + ".sig", ["jwt.format"]),
            (try handMade(#"{"alg":"HS256","kid":"ABC123DEFG"}"#, #"{"iss":"DEF123GHIJ","iat":\#(now)}"#), ["jwt.alg"]),
            (try handMade(#"{"alg":"ES256","kid":"ABC123DEF"}"#, #"{"iss":"DEF123GHIJ","iat":\#(now)}"#), ["jwt.kid"]),
            (
                try handMade(#"{"alg":"ES256","kid":"ABC123DEFG"}"#, #"{"iss":"DEF123GHIJK","iat":\#(now)}"#),
                ["jwt.iss"]
            ),
            (try handMade(#"{"alg":"ES256","kid":"ABC123DEFG"}"#, #"{"iss":"DEF123GHIJ"}"#), ["jwt.format"]),
            (
                try handMade(#"{"alg":"ES256","kid":"QQQ123QQQQ"}"#, #"{"iss":"DEF123GHIJ","iat":\#(now)}"#),
                ["jwt.unknown-key"]
            ),
        ]
        for (token, expected) in cases {
            let r = try check(token)
            XCTAssertEqual(rules(r), expected, token)
            XCTAssertEqual(r.status, expected == ["jwt.unknown-key"] ? 0 : 1, token + r.stdout + r.stderr)
            XCTAssertEqual(r.stderr, "")
        }
        // A megabyte on stdin is refused after 16 KB, unparsed.
        let big = try check(stdin: [UInt8](repeating: UInt8(ascii: "A"), count: 1 << 20))
        XCTAssertEqual(big.status, 1)
        XCTAssertEqual(rules(big), ["jwt.format"])
        XCTAssertTrue(big.stdout.contains("over 16 KB"), big.stdout)
        // No token at all is a usage error.
        let none = try runPushDesk(["credentials", "check-jwt", "--store", store.path])
        XCTAssertEqual(none.status, 2, none.stderr)
        try assertNothingLeaked(cases.map(\.0))
    }
}
