import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// Apple's key scopes (docs/CREDENTIALS.md): `keyEnvironment` and `keyTopics` in the file, the
/// credential rules `token.environment` and `token.topic` in `validate`, `credentials
/// check` and before `send` (which they block: no request at all).
final class KeyScopeTests: XCTestCase {
    func scopedStore(environment: String, topics: String = "") throws -> URL {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        var s = DemoStore.neotrips
        if case .ios(var a) = s.apps[0] {
            a.auth = .token(
                keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/AuthKey_ABC123DEFG.p8",
                keyEnvironment: environment, keyTopics: topics)
            s.apps[0] = .ios(a)
        }
        try Store(root: store).save(s)
        return store
    }

    func testTheAttributesAreWrittenAfterTeamIdAndBothIsLeftOut() throws {
        let store = try scopedStore(environment: "production", topics: "com.neotrips.app com.neotrips.other")
        let xml = try String(contentsOf: store.appendingPathComponent("services/neotrips.xml"), encoding: .utf8)
        XCTAssertTrue(
            xml.contains(
                #"<auth mode="token" keyId="ABC123DEFG" teamId="DEF123GHIJ" keyEnvironment="production" keyTopics="com.neotrips.app com.neotrips.other" keyFile="credentials/AuthKey_ABC123DEFG.p8"/>"#
            ), xml)
        let both = try scopedStore(environment: "both")
        let plain = try String(contentsOf: both.appendingPathComponent("services/neotrips.xml"), encoding: .utf8)
        XCTAssertTrue(
            plain.contains(
                #"<auth mode="token" keyId="ABC123DEFG" teamId="DEF123GHIJ" keyFile="credentials/AuthKey_ABC123DEFG.p8"/>"#
            ), plain)
        let bad = xml.replacingOccurrences(of: #"keyEnvironment="production""#, with: #"keyEnvironment="prod""#)
        XCTAssertThrowsError(try ServiceXML.decode(Data(bad.utf8), file: "services/neotrips.xml")) {
            XCTAssertTrue("\($0)".contains("sandbox|production|both"), "\($0)")
        }
    }

    func testAProductionKeyOnTheSandboxAppIsAnErrorEverywhere() throws {
        let mock = try MockPushServices(self)
        var s = DemoStore.neotrips
        if case .ios(var a) = s.apps[0] {
            a.auth = .token(
                keyId: MockPushServices.keyId, teamId: MockPushServices.teamId,
                keyFile: "credentials/AuthKey_\(MockPushServices.keyId).p8", keyEnvironment: "production",
                keyTopics: "com.neotrips.other")
            s.apps[0] = .ios(a)
        }
        try Store(root: mock.store).save(s)
        let validate = try runPushDesk(["validate", "--store", mock.store.path])
        XCTAssertEqual(validate.status, 1)
        let out = validate.stdout + validate.stderr
        XCTAssertTrue(out.contains("services/neotrips.xml:"), out)
        XCTAssertTrue(
            out.contains(
                "apps[0].auth.keyEnvironment: the key of neotrips-ios-dev is limited to production, but the app is the sandbox app"
            ), out)
        XCTAssertTrue(out.contains("[token.environment]"), out)
        XCTAssertTrue(out.contains("apps[0].auth.keyTopics:"), out)
        XCTAssertTrue(out.contains("[token.topic]"), out)

        let check = try runPushDesk([
            "credentials", "check", "neotrips", "--app", "neotrips-ios-dev", "--store", mock.store.path,
        ])
        XCTAssertEqual(check.status, 1, check.stdout)
        XCTAssertTrue(check.stderr.contains("[token.environment]"), check.stderr)
        XCTAssertTrue(check.stdout.contains("Key environment"), check.stdout)

        try mock.saveProfile([Subscription(app: "neotrips-ios-dev", token: MockPushServices.Token.ok)])
        let send = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--json"],
            environment: mock.environment())
        XCTAssertEqual(send.status, 1, send.stdout + send.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(send.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((doc["results"] as? [Any])?.count, 0)
        XCTAssertEqual(
            Set((doc["blocked"] as? [[String: Any]] ?? []).map { $0["rule"] as? String }),
            ["token.environment", "token.topic"])
        XCTAssertEqual(mock.apns.requests.count, 0, "blocked: nothing is sent")
        XCTAssertEqual(mock.google.requests.count, 0)
    }

    func testAMalformedTopicIsTheBundleIdRule() {
        var s = DemoStore.neotrips
        if case .ios(var a) = s.apps[0] {
            a.auth = .token(
                keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "k.p8", keyTopics: "com.neotrips.app not_a bundle")
            s.apps[0] = .ios(a)
        }
        let f = ServiceRules.check(service: s).filter { $0.rule == "bundle-id.format" }
        XCTAssertEqual(f.map(\.field), ["apps[0].auth.keyTopics", "apps[0].auth.keyTopics"])
        XCTAssertTrue(f[0].message.contains("key topic \"not_a\""), f[0].message)
    }

    func testTheOnlineCheckAndHintsNameTheAttributes() {
        XCTAssertTrue(
            ResponseHints.apns(reason: "BadEnvironmentKeyIdInToken", status: 403, environment: .production)!
                .contains("keyEnvironment"))
        XCTAssertTrue(
            ResponseHints.apns(reason: "TopicDisallowed", status: 400, environment: nil)!.contains("keyTopics"))
        let invalid = ResponseHints.apns(reason: "InvalidProviderToken", status: 403, environment: nil)!
        XCTAssertTrue(invalid.contains("keyEnvironment") && invalid.contains("keyTopics"), invalid)
    }

    /// The Campaign package carries the scope in its `pushdesk:auth`, from the same row.
    func testTheCampaignPackageCarriesTheScope() throws {
        var s = DemoStore.neotrips
        if case .ios(var a) = s.apps[1] {
            a.auth = .token(
                keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/k.p8", keyEnvironment: "production",
                keyTopics: "com.neotrips.app")
            s.apps[1] = .ios(a)
        }
        let text = try CampaignPackage.encode([s], includeCredentialRefs: true)
        XCTAssertTrue(
            text.contains(
                #"<pushdesk:auth mode="token" keyId="ABC123DEFG" teamId="DEF123GHIJ" keyEnvironment="production" keyTopics="com.neotrips.app" keyFile="credentials/k.p8"/>"#
            ), text)
        XCTAssertEqual(try CampaignPackage.decode(Data(text.utf8), file: "p.xml").services, [s])
        let bad = text.replacingOccurrences(of: #"keyEnvironment="production""#, with: #"keyEnvironment="staging""#)
        XCTAssertThrowsError(try CampaignPackage.decode(Data(bad.utf8), file: "p.xml")) {
            XCTAssertTrue("\($0)".contains("sandbox|production|both"), "\($0)")
        }
    }
}
