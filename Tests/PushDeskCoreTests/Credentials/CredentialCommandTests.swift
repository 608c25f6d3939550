import Crypto
import Foundation
import XCTest

@testable import PushDeskCore

/// `pushdesk credentials check` and `credentials set-secret` run as an operator would, over
/// a store with credentials generated here; every byte they print is searched for the
/// secrets used, and none may appear.
final class CredentialCommandTests: XCTestCase {
    typealias F = CredentialFixtures
    let p12Password = "Pa55-for-the-p12-\(UUID().uuidString.prefix(8))"
    let serverKey = "AAAA-legacy-fcm-server-key-\(UUID().uuidString)"
    let now = Date()

    struct Built {
        var root: URL
        var secrets: [String]
    }

    /// Neotrips with token auth (sandbox), certificate auth (production, .p12 + password),
    /// a service account (Android); and a second service on the legacy API with a server key.
    func buildStore(productionExpired: Bool = false, organization: String = "Neotrips Test") throws -> Built {
        let root = try makeTempDir(self)
        let store = Store(root: root)
        let creds = root.appendingPathComponent("credentials")

        let p8 = P256.Signing.PrivateKey().pemRepresentation
        try F.write(Data(p8.utf8), to: creds.appendingPathComponent("AuthKey_ABC123DEFG.p8"))
        let cert = try F.pushCertificate(
            bundleId: "com.neotrips.app", kind: .production,
            notBefore: now - (productionExpired ? 400 : 10) * F.day,
            notAfter: now + (productionExpired ? -1 : 200) * F.day, organization: organization)
        try F.writeP12(certPEM: cert.pem, password: p12Password, to: creds.appendingPathComponent("neotrips-prod.p12"))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: creds.appendingPathComponent("neotrips-prod.p12").path)
        let (json, saKey) = F.serviceAccountJSON(
            projectId: "neotrips-12345", clientEmail: "push@neotrips-12345.iam.gserviceaccount.com")
        try F.write(json, to: creds.appendingPathComponent("neotrips-firebase.json"))

        try store.save(
            Service(
                name: "neotrips", label: "Neotrips",
                marketingUrl: "https://marketing.neotrips.example:8443/",
                trackingUrl: "https://tracking.neotrips.example/",
                apps: [
                    .ios(
                        IOSApp(
                            environment: .sandbox, label: "Neotrips iOS (sandbox)", integrationKey: "neotrips-ios-dev",
                            bundleId: "com.neotrips.app",
                            auth: .token(
                                keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/AuthKey_ABC123DEFG.p8")
                        )),
                    .ios(
                        IOSApp(
                            environment: .production, label: "Neotrips iOS", integrationKey: "neotrips-ios",
                            bundleId: "com.neotrips.app",
                            auth: .certificate(
                                certificateFile: "credentials/neotrips-prod.p12", passwordRef: "neotrips-prod-p12"))),
                    .android(
                        AndroidApp(
                            label: "Neotrips Android", integrationKey: "neotrips-android",
                            packageName: "com.neotrips.app",
                            auth: .serviceAccount(
                                projectId: "neotrips-12345", clientEmail: "push@neotrips-12345.iam.gserviceaccount.com",
                                keyFile: "credentials/neotrips-firebase.json"))),
                ]))
        try store.save(
            Service(
                name: "oldapp", label: "Old app",
                marketingUrl: "https://m.old.example/", trackingUrl: "https://t.old.example/",
                apps: [
                    .android(
                        AndroidApp(
                            label: "Old Android", integrationKey: "old-android", packageName: "com.old.app",
                            api: .legacy, connector: .v2, auth: .serverKey(serverKeyRef: "old-fcm-key")))
                ]))

        // The secrets go in the way an operator puts them: on stdin of set-secret.
        for (name, value) in [("neotrips-prod-p12", p12Password), ("old-fcm-key", serverKey)] {
            let r = try runPushDeskWithInput(
                ["credentials", "set-secret", name, "--store", root.path], stdin: value + "\n")
            XCTAssertEqual(r.status, 0, r.stderr)
            captured.append(r)
        }
        let secretsOut =
            [p12Password, serverKey] + CredentialSecretScan.pemBodyLines(p8)
            + CredentialSecretScan.pemBodyLines(saKey) + CredentialSecretScan.pemBodyLines(F.leafKeyPEM)
        return Built(root: root, secrets: secretsOut)
    }

    var captured: [CommandResult] = []

    func runPushDeskWithInput(_ args: [String], stdin: String) throws -> CommandResult {
        try runProcess(try builtPushDesk().path, args, stdin: stdin)
    }

    func run(_ args: [String]) throws -> CommandResult {
        let r = try runPushDesk(args)
        captured.append(r)
        return r
    }

    /// A certificate's subject is untrusted text: a right-to-left override would reorder the
    /// operator's line and a zero-width joiner hide a difference. Both are shown escaped, in
    /// the text and the JSON form, by the one rule (`Escape`).
    func testABidiOverrideInACertificateSubjectIsShownEscaped() throws {
        let built = try buildStore(organization: "Neo\u{202E}trips\u{200D}Test")
        let text = try run(["credentials", "check", "neotrips", "--store", built.root.path])
        XCTAssertEqual(text.status, 0, text.stderr)
        let subject = text.stdout.split(separator: "\n").filter { $0.hasPrefix("  Subject ") }
        XCTAssertEqual(
            subject,
            [
                "  Subject              UID=com.neotrips.app, CN=Apple Production IOS Push Services: com.neotrips.app, OU=TEAM123456, O=Neo\\u{202E}trips\\u{200D}Test, C=US"
            ])
        let json = try run(["credentials", "check", "neotrips", "--json", "--store", built.root.path])
        XCTAssertTrue(json.stdout.contains(#"O=Neo\\u{202E}trips\\u{200D}Test"#), json.stdout)
        for out in [text.stdout + text.stderr, json.stdout + json.stderr] {
            XCTAssertFalse(out.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{200D}" }, out)
        }
    }

    func testCheckShowsDetailsExitsZeroAndPrintsNoSecret() throws {
        let built = try buildStore()
        let root = built.root.path
        XCTAssertEqual(FileMode.of(built.root.appendingPathComponent("secrets/neotrips-prod-p12").path), 0o600)
        XCTAssertEqual(try SecretStore(storeRoot: built.root).read("neotrips-prod-p12"), SecretValue(p12Password))

        let text = try run(["credentials", "check", "--store", root])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stderr, "")
        XCTAssertTrue(
            text.stdout.contains("neotrips / neotrips-ios  Neotrips iOS  [ios production, certificate]"), text.stdout)
        XCTAssertTrue(
            text.stdout.contains("UID=com.neotrips.app, CN=Apple Production IOS Push Services: com.neotrips.app"),
            text.stdout)
        XCTAssertTrue(text.stdout.contains("production only"))
        XCTAssertNotNil(
            text.stdout.range(of: #"authorization\s+bearer eyJ[A-Za-z0-9_-]{9}…"#, options: .regularExpression),
            text.stdout)
        XCTAssertTrue(text.stdout.contains("RSA 2048 bits"))
        XCTAssertTrue(text.stdout.contains("[fcm.legacy-api]"), "the legacy server key is flagged")
        XCTAssertTrue(text.stdout.contains("4 apps checked: 0 errors, 1 warnings"), text.stdout)

        let one = try run(["credentials", "check", "neotrips", "--json", "--store", root])
        XCTAssertEqual(one.status, 0, one.stderr)
        let doc = try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as! [String: Any]
        let reports = doc["reports"] as! [[String: Any]]
        XCTAssertEqual(reports.map { $0["app"] as! String }, ["neotrips-ios-dev", "neotrips-ios", "neotrips-android"])
        let cert = reports[1]["details"] as! [String: String]
        XCTAssertEqual(cert["topics"], "com.neotrips.app, com.neotrips.app.voip, com.neotrips.app.complication")
        XCTAssertEqual(cert["format"], "pkcs12")
        XCTAssertEqual(cert["sha256"]?.count, 95)
        let token = reports[0]["details"] as! [String: String]
        XCTAssertEqual(token["authorization"]?.count, "bearer ".count + 12 + 1)

        // validate and list run over the same store must not print secrets either.
        _ = try run(["validate", "--store", root])
        _ = try run(["list", "--json", "--store", root])
        assertNoSecret(built.secrets)
    }

    /// check-jwt over the same store: a provider token signed with the store's own key is
    /// checked from stdin and as an argument; neither the token nor a secret is printed.
    func testCheckJWTPrintsNoTokenAndNoSecret() throws {
        let built = try buildStore()
        let key = try APNsAuthKey.load(
            file: built.root.appendingPathComponent("credentials/AuthKey_ABC123DEFG.p8"), shownAs: "AuthKey")
        let token = String(
            try APNsProviderToken(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", key: key, issuedAt: now)
                .authorizationHeaderValue.dropFirst("bearer ".count))
        let piped = try runPushDeskWithInput(
            ["credentials", "check-jwt", "--store", built.root.path, "-"], stdin: token + "\n")
        captured.append(piped)
        XCTAssertEqual(piped.status, 0, piped.stdout + piped.stderr)
        XCTAssertTrue(piped.stdout.contains("no findings"), piped.stdout)
        let json = try run(["credentials", "check-jwt", "--json", "--store", built.root.path, token])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        let tampered = try run(["credentials", "check-jwt", "--store", built.root.path, token + "x"])
        XCTAssertEqual(tampered.status, 1, tampered.stdout)
        let signature = String(token.split(separator: ".")[2])
        _ = try run(["credentials", "check", "--store", built.root.path])
        assertNoSecret(built.secrets + [token, signature, signature + "x"])
    }

    func testErrorsExitOneWithPositionedLinesAndStillNoSecret() throws {
        let built = try buildStore(productionExpired: true)
        // A wrong password too: the message must not carry either password.
        try SecretStore(storeRoot: built.root).set("old-fcm-key", to: SecretValue(serverKey))
        let wrong = "Wrong-\(p12Password)"
        let setWrong = try runPushDeskWithInput(
            ["credentials", "set-secret", "neotrips-prod-p12", "--store", built.root.path], stdin: wrong)
        captured.append(setWrong)
        let r = try run(["credentials", "check", "neotrips", "--store", built.root.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertNotNil(
            r.stderr.range(
                of:
                    #"(?m)^services/neotrips\.xml:\d+:\d+: error: apps\[1\]\.auth\.passwordRef: .*\[certificate\.password\]$"#,
                options: .regularExpression), r.stderr)

        try SecretStore(storeRoot: built.root).set("neotrips-prod-p12", to: SecretValue(p12Password))
        let expired = try run(["credentials", "check", "neotrips", "--json", "--store", built.root.path])
        XCTAssertEqual(expired.status, 1)
        XCTAssertTrue(expired.stdout.contains("\"rule\": \"certificate.expired\""), expired.stdout)

        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644],
            ofItemAtPath: built.root.appendingPathComponent("credentials/AuthKey_ABC123DEFG.p8").path)
        let perms = try run(["credentials", "check", "neotrips", "--store", built.root.path])
        XCTAssertTrue(perms.stdout.contains("[secret.permissions]"), perms.stdout)

        let unknown = try run(["credentials", "check", "nosuch", "--store", built.root.path])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("services/nosuch.xml: error: no service named nosuch"), unknown.stderr)
        assertNoSecret(built.secrets + [wrong])
    }

    func testSetSecretRefusesBadNamesAndEmptyInput() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let bad = try runPushDeskWithInput(
            ["credentials", "set-secret", "../escape", "--store", root.path], stdin: "x\n")
        XCTAssertEqual(bad.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("escape").path))
        let empty = try runPushDeskWithInput(["credentials", "set-secret", "k", "--store", root.path], stdin: "")
        XCTAssertEqual(empty.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("secrets/k").path))
    }

    private func assertNoSecret(_ secrets: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(captured.isEmpty)
        let all = captured.map { $0.stdout + "\n" + $0.stderr }.joined(separator: "\n")
        XCTAssertGreaterThan(all.count, 1000, "the commands printed their reports")
        for s in secrets where all.contains(s) {
            XCTFail("a secret appears in the commands' output: \(s.prefix(6))…", file: file, line: line)
        }
    }
}
