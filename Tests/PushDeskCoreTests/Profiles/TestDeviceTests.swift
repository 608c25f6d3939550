import XCTest

@testable import PushDeskCore

/// Test devices in profiles (docs/FORMATS.md): the file format, the two rules, and how lists show tokens.
final class TestDeviceTests: XCTestCase {
    static let iosToken = "3f2a" + String(repeating: "0123456789abcdef", count: 3) + "0123456789ab9c1d"
    static let androidToken = "fY3kQ:APA91bH-example_registration.token"

    static let ana = Profile(
        name: "ana", fields: [("firstName", "Ana"), ("email", "ana@example.com")],
        subscriptions: [
            Subscription(
                app: "neotrips-ios-dev", token: iosToken, userKey: "ana@example.com", label: "Ana's iPhone 15"),
            Subscription(app: "neotrips-android", token: androidToken, label: "Ana's Pixel 8"),
        ])

    func testWrittenInTheFixedAttributeOrderAndReadBackUnchanged() throws {
        let root = try makeTempDir(self)
        let store = Store(root: root)
        try store.save(Self.ana)
        let path = root.appendingPathComponent("profiles/ana.xml")
        let bytes = try String(contentsOf: path, encoding: .utf8)
        XCTAssertEqual(
            bytes,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <recipient firstName="Ana" email="ana@example.com">
              <subscription app="neotrips-ios-dev" token="\(Self.iosToken)" userKey="ana@example.com" label="Ana's iPhone 15"/>
              <subscription app="neotrips-android" token="\(Self.androidToken)" label="Ana's Pixel 8"/>
            </recipient>

            """)
        let back = try store.load(Profile.self, "ana")
        XCTAssertEqual(back, Self.ana)
        try store.save(back)
        XCTAssertEqual(try String(contentsOf: path, encoding: .utf8), bytes)
    }

    func testOrderIsKeptAndAProfileWithoutDevicesStaysOneElement() throws {
        var p = Self.ana
        p.subscriptions.reverse()
        let data = Data(try ProfileXML.encode(p).utf8)
        XCTAssertEqual(
            try ProfileXML.decode(data, file: "profiles/ana.xml", name: "ana").subscriptions.map(\.app),
            ["neotrips-android", "neotrips-ios-dev"])
        XCTAssertEqual(
            try ProfileXML.encode(Profile(name: "bo", fields: [("firstName", "Bo")])),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<recipient firstName=\"Bo\"/>\n")
    }

    func testTheReaderRefusesUnknownAttributesAndMissingTokensWithAPosition() {
        let cases: [(String, String, Int, Int)] = [
            (#"<recipient a="1"><subscription app="x" token="t" colour="red"/></recipient>"#, "colour", 1, 50),
            (#"<recipient>\#n  <subscription app="x"/></recipient>"#, "token", 2, 3),
            (#"<recipient><device app="x" token="t"/></recipient>"#, "<device>", 1, 12),
            (#"<recipient><subscription app="x" token="t"><x/></subscription></recipient>"#, "<x>", 1, 44),
        ]
        for (xml, mentions, line, column) in cases {
            XCTAssertThrowsError(try ProfileXML.decode(Data(xml.utf8), file: "profiles/p.xml", name: "p"), xml) { e in
                guard let e = e as? StoreError else { return XCTFail("\(e)") }
                XCTAssertTrue(e.message.contains(mentions), e.message)
                XCTAssertEqual(e.line, line, xml)
                XCTAssertEqual(e.column, column, xml)
            }
        }
    }

    func testTheSchemaAcceptsWhatIsWrittenAndRefusesAnUnknownAttribute() throws {
        guard let xmllint = ["/usr/bin/xmllint"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("xmllint is missing; `make test` installs libxml2-utils")
        }
        let root = try makeTempDir(self)
        try Store(root: root).save(Self.ana)
        let xsd = packageRoot.appendingPathComponent("docs/schema/profile.xsd").path
        let good = try runProcess(
            xmllint, ["--noout", "--schema", xsd, root.appendingPathComponent("profiles/ana.xml").path])
        XCTAssertEqual(good.status, 0, good.stderr)
        let bad = root.appendingPathComponent("bad.xml")
        try #"<recipient><subscription app="x" token="t" colour="red"/></recipient>"#.write(
            to: bad, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try runProcess(xmllint, ["--noout", "--schema", xsd, bad.path]).status, 0)
        XCTAssertThrowsError(try ProfileXML.decode(try Data(contentsOf: bad), file: "bad.xml", name: "bad"))
    }

    func testUnknownAppAndTokenFormatRules() {
        let hex64 = String(repeating: "ab", count: 32)
        let cases: [(String, String, [String])] = [
            ("neotrips-ios-dev", hex64, []),
            ("neotrips-ios", hex64.uppercased() + "00", []),
            ("neotrips-ios", String(hex64.dropLast()), ["subscription.token-format"]),  // odd
            ("neotrips-ios", String(hex64.dropLast(2)), ["subscription.token-format"]),  // 62 digits
            ("neotrips-ios", String(hex64.dropLast(2)) + "zz", ["subscription.token-format"]),
            ("neotrips-ios", hex64 + " ", ["subscription.token-format"]),
            ("neotrips-android", Self.androidToken, []),
            ("neotrips-android", "", ["subscription.token-format"]),
            ("neotrips-android", "abc def", ["subscription.token-format"]),
            ("neotrips-android", "abc\u{7}def", ["subscription.token-format"]),
            ("neotrips-android", "abc\u{A0}def", ["subscription.token-format"]),
            ("no-such-app", hex64, ["subscription.unknown-app"]),
        ]
        for (app, token, expected) in cases {
            let p = Profile(
                name: "p",
                subscriptions: [Subscription(app: "neotrips-ios", token: hex64), .init(app: app, token: token)])
            let findings = ProfileRules.check(profiles: [p], services: [DemoStore.neotrips])
            XCTAssertEqual(findings.map(\.rule), expected, "\(app) \(token.debugDescription)")
            XCTAssertTrue(findings.allSatisfy { $0.severity == .error && $0.file == "profiles/p.xml" })
            XCTAssertEqual(
                findings.map(\.field),
                expected.map { $0 == "subscription.unknown-app" ? "subscriptions[1].app" : "subscriptions[1].token" })
        }
    }

    /// A service file that does not load may hold the key: its error is the one to fix, so no
    /// `subscription.unknown-app` cascades from it (a known app's token is still checked).
    func testNoUnknownAppWhileAServiceFileDoesNotLoad() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        var p = DemoStore.ana
        p.subscriptions.append(Subscription(app: "neotrips-android", token: "two words"))
        try Store(root: root).save(p)
        try Data("<service".utf8).write(to: root.appendingPathComponent("services/other.xml"))
        let found = StoreValidation.findings(Store(root: root).loadAll())
        XCTAssertEqual(found.filter { $0.rule.hasPrefix("subscription.") }.map(\.field), ["subscriptions[2].token"])
        try FileManager.default.removeItem(at: root.appendingPathComponent("services/neotrips.xml"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("services/other.xml"))
        XCTAssertEqual(
            StoreValidation.findings(Store(root: root).loadAll()).map(\.rule).filter { $0.hasPrefix("subscription.") },
            Array(repeating: "subscription.unknown-app", count: 3), "no service file failed: the keys are unknown")
    }

    func testShortenedTokens() {
        XCTAssertEqual(Subscription.shortened(Self.iosToken), "3f2a01\u{2026}9c1d")
        XCTAssertEqual(Subscription.shortened("0123456789"), "0123456789")
        XCTAssertEqual(Subscription.shortened("0123456789A"), "012345\u{2026}789A")
    }

    /// As an operator sees them: `validate` positions the finding, `list` shortens, `list --json` does not.
    func testValidateAndListOnTheCommandLine() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        var p = Self.ana
        p.subscriptions.append(Subscription(app: "neotrips-ios", token: "12345", label: "Old phone", kind: .voip))
        p.subscriptions[0].locale = "zh-Hant-TW"
        try Store(root: root).save(p)

        let v = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(v.status, 1, v.stderr)
        let lines = (v.stdout + v.stderr).split(separator: "\n").filter { $0.contains("subscription.") }
        XCTAssertEqual(lines.count, 1, v.stdout + v.stderr)
        XCTAssertTrue(
            lines.first?.hasPrefix(
                "profiles/ana.xml:5:36: error: subscriptions[2].token: the APNs device token \"12345\"")
                ?? false, v.stdout + v.stderr)
        XCTAssertTrue(lines.first?.hasSuffix("[subscription.token-format]") ?? false)

        let list = try runPushDesk(["list", "--store", root.path])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(
            list.stdout.hasSuffix(
                """
                test devices:
                  ana
                    neotrips-ios-dev         3f2a01…9c1d  device       Ana's iPhone 15
                    neotrips-android         fY3kQ:…oken  device       Ana's Pixel 8
                    neotrips-ios             12345        voip         Old phone

                """), list.stdout)
        XCTAssertFalse(list.stdout.contains(Self.iosToken))

        let json = try runPushDesk(["list", "--json", "--store", root.path])
        let doc = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let subs = (doc?["profiles"] as? [[String: Any]])?.first?["subscriptions"] as? [[String: Any]]
        XCTAssertEqual(subs?.map { $0["token"] as? String }, [Self.iosToken, Self.androidToken, "12345"])
        XCTAssertEqual(subs?.first?["userKey"] as? String, "ana@example.com")
        XCTAssertEqual(subs?.map { $0["kind"] as? String }, ["device", "device", "voip"])
        XCTAssertEqual(subs?.map { $0["locale"] as? String }, ["zh-Hant-TW", nil, nil])
        XCTAssertTrue(subs?[1]["locale"] is NSNull)
        XCTAssertTrue(subs?[1]["userKey"] is NSNull)
    }
}
