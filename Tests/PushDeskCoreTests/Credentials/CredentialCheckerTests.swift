import Crypto
import Foundation
import XCTest

@testable import PushDeskCore

/// `CredentialChecker.check` over a store directory holding generated credentials, the way
/// `credentials check` and the console's Credentials tab call it.
final class CredentialCheckerTests: XCTestCase {
    typealias F = CredentialFixtures
    let now = Date()
    let bundle = "com.neotrips.app"
    let p12Password = "Corr3ct-Horse-p12"
    let serverKey = "AAAA-legacy-server-key-0123456789"
    var root: URL!

    override func setUp() {
        root = try! makeTempDir(self)
    }

    func writeP12(
        _ name: String, kind: F.Kind, bundle b: String? = nil, from: Double = -10, to: Double = 200,
        password: String? = nil
    ) throws -> String {
        let c = try F.pushCertificate(
            bundleId: b ?? bundle, kind: kind, notBefore: now + from * F.day, notAfter: now + to * F.day)
        let url = root.appendingPathComponent("credentials/\(name)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try F.writeP12(certPEM: c.pem, password: password ?? p12Password, to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return "credentials/\(name)"
    }

    func ios(_ env: IOSEnvironment, _ auth: IOSAuth?, key: String? = nil, bundle b: String? = nil) -> MobileApp {
        .ios(
            IOSApp(
                environment: env, label: "Neotrips iOS \(env.rawValue)",
                integrationKey: key ?? "neotrips-ios-\(env.rawValue)",
                bundleId: b ?? bundle, auth: auth))
    }

    func check(_ apps: [MobileApp], env: [String: String] = [:]) -> [CredentialReport] {
        CredentialChecker.check(
            service: Service(name: "neotrips", label: "Neotrips", apps: apps), storeRoot: root,
            now: now, environment: env, pkcs12: PKCS12Reader())
    }

    func rules(_ r: CredentialReport) -> [String] { r.findings.map(\.rule) }

    func testGoodCertificatePairHasDetailsAndNoFindings() throws {
        try SecretStore(storeRoot: root).set("dev-p12", to: SecretValue(p12Password))
        try SecretStore(storeRoot: root).set("prod-p12", to: SecretValue(p12Password))
        let dev = try writeP12("dev.p12", kind: .development)
        let prod = try writeP12("prod.p12", kind: .production)
        let reports = check([
            ios(.sandbox, .certificate(certificateFile: dev, passwordRef: "dev-p12")),
            ios(.production, .certificate(certificateFile: prod, passwordRef: "prod-p12")),
        ])
        XCTAssertEqual(reports.count, 2)
        for r in reports {
            XCTAssertEqual(r.findings, [], "\(r.findings.map(\.formatted))")
            XCTAssertEqual(r.kind, .certificate)
            XCTAssertEqual(r.detail("format"), "pkcs12")
            XCTAssertTrue(r.detail("subject")!.contains("UID=com.neotrips.app"))
            XCTAssertEqual(r.detail("topics"), "com.neotrips.app, com.neotrips.app.voip, com.neotrips.app.complication")
            XCTAssertEqual(r.detail("sha256")?.count, 95)
            XCTAssertNotNil(r.detail("serial"))
            XCTAssertNotNil(r.detail("issuer"))
            XCTAssertNotNil(r.detail("notBefore"))
            XCTAssertNotNil(r.detail("notAfter"))
        }
        XCTAssertEqual(reports[0].detail("pushEnvironment"), "development (sandbox only)")
        XCTAssertEqual(reports[1].detail("pushEnvironment"), "production only")
    }

    func testCertificateRulesThroughTheChecker() throws {
        try SecretStore(storeRoot: root).set("pw", to: SecretValue(p12Password))
        let cases: [(F.Kind, IOSEnvironment, String?, Double, Double, [String])] = [
            (.universal, .production, nil, -400, -2, ["certificate.expired"]),
            (.universal, .production, nil, -10, 12, ["certificate.expiring"]),
            (.universal, .production, nil, 3, 300, ["certificate.not-yet-valid"]),
            (.universal, .production, "com.other.app", -10, 300, ["certificate.topic"]),
            (.development, .production, nil, -10, 300, ["certificate.environment"]),
            (.production, .sandbox, nil, -10, 300, ["certificate.environment"]),
            (.universal, .sandbox, nil, -10, 300, []),
        ]
        for (i, c) in cases.enumerated() {
            let file = try writeP12("c\(i).p12", kind: c.0, bundle: c.2, from: c.3, to: c.4)
            let r = check([ios(c.1, .certificate(certificateFile: file, passwordRef: "pw"))])[0]
            XCTAssertEqual(rules(r), c.5, "case \(i): \(r.findings.map(\.formatted))")
            XCTAssertTrue(r.findings.allSatisfy { $0.file == "services/neotrips.xml" })
        }
    }

    func testSharedCertificateOnSandboxAndProduction() throws {
        try SecretStore(storeRoot: root).set("pw", to: SecretValue(p12Password))
        let one = try writeP12("one.p12", kind: .universal)
        let reports = check([
            ios(.sandbox, .certificate(certificateFile: one, passwordRef: "pw")),
            ios(.production, .certificate(certificateFile: one, passwordRef: "pw")),
        ])
        XCTAssertEqual(reports.map(rules), [["certificate.shared"], ["certificate.shared"]])
        XCTAssertEqual(reports[0].findings[0].severity, .error)
        XCTAssertTrue(reports[1].findings[0].message.contains("neotrips-ios-sandbox"))

        // A copy of the same certificate under another name is still the same certificate.
        try FileManager.default.copyItem(
            at: root.appendingPathComponent(one), to: root.appendingPathComponent("credentials/copy.p12"))
        let copied = check([
            ios(.sandbox, .certificate(certificateFile: one, passwordRef: "pw")),
            ios(.production, .certificate(certificateFile: "credentials/copy.p12", passwordRef: "pw")),
        ])
        XCTAssertEqual(copied.map(rules), [["certificate.shared"], ["certificate.shared"]])

        // Two universal certificates, one per app: nothing shared.
        let two = try writeP12("two.p12", kind: .universal)
        let ok = check([
            ios(.sandbox, .certificate(certificateFile: one, passwordRef: "pw")),
            ios(.production, .certificate(certificateFile: two, passwordRef: "pw")),
        ])
        XCTAssertEqual(ok.map(rules), [[], []])
    }

    func testWrongPasswordMissingSecretMissingFileUnreadable() throws {
        let store = SecretStore(storeRoot: root)
        try store.set("wrong", to: SecretValue("Not-The-Password-77"))
        let file = try writeP12("c.p12", kind: .universal)
        let wrong = check([ios(.sandbox, .certificate(certificateFile: file, passwordRef: "wrong"))])[0]
        XCTAssertEqual(rules(wrong), ["certificate.password"])
        XCTAssertFalse(wrong.findings[0].message.contains("Not-The-Password-77"))
        XCTAssertFalse(wrong.findings[0].message.contains(p12Password))

        let noRef = check([ios(.sandbox, .certificate(certificateFile: file, passwordRef: ""))])[0]
        XCTAssertEqual(rules(noRef), ["certificate.password"])
        XCTAssertTrue(noRef.findings[0].message.contains("needs a password"), noRef.findings[0].message)

        let noSecret = check([ios(.sandbox, .certificate(certificateFile: file, passwordRef: "absent"))])[0]
        XCTAssertEqual(rules(noSecret), ["secret.missing"])
        XCTAssertTrue(noSecret.findings[0].message.contains("secrets/absent"))

        let envMissing = check([ios(.sandbox, .certificate(certificateFile: file, passwordRef: "env:P12_PW"))])[0]
        XCTAssertEqual(rules(envMissing), ["secret.missing"])
        let envOK = check(
            [ios(.sandbox, .certificate(certificateFile: file, passwordRef: "env:P12_PW"))],
            env: ["P12_PW": p12Password])[0]
        XCTAssertEqual(rules(envOK), [])

        let missing = check([ios(.sandbox, .certificate(certificateFile: "credentials/gone.p12", passwordRef: ""))])[0]
        XCTAssertEqual(rules(missing), ["certificate.unreadable"])
        XCTAssertTrue(missing.findings[0].message.contains("file not found: credentials/gone.p12"))

        try F.write(Data("junk".utf8), to: root.appendingPathComponent("credentials/junk.pem"))
        let junk = check([ios(.sandbox, .certificate(certificateFile: "credentials/junk.pem", passwordRef: ""))])[0]
        XCTAssertEqual(rules(junk), ["certificate.unreadable"])
    }

    func testPermissionsOfKeyFilesAndSecrets() throws {
        let store = SecretStore(storeRoot: root)
        try store.set("pw", to: SecretValue(p12Password))
        let file = try writeP12("c.p12", kind: .universal)
        XCTAssertEqual(rules(check([ios(.sandbox, .certificate(certificateFile: file, passwordRef: "pw"))])[0]), [])

        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: root.appendingPathComponent(file).path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: store.directory.path)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o640], ofItemAtPath: store.directory.appendingPathComponent("pw").path)
        let r = check([ios(.sandbox, .certificate(certificateFile: file, passwordRef: "pw"))])[0]
        XCTAssertEqual(Set(rules(r)), ["secret.permissions"])
        XCTAssertEqual(r.findings.count, 3, r.findings.map(\.formatted).joined(separator: "\n"))
        XCTAssertTrue(r.findings.allSatisfy { $0.severity == .warning })

        // A DER certificate holds no key: its mode does not matter.
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .universal, notBefore: now - F.day, notAfter: now + 100 * F.day)
        try F.write(Data(c.der), to: root.appendingPathComponent("credentials/c.cer"), mode: 0o644)
        XCTAssertEqual(
            rules(check([ios(.sandbox, .certificate(certificateFile: "credentials/c.cer", passwordRef: ""))])[0]), [])
    }

    func testTokenAuthThroughTheChecker() throws {
        let key = P256.Signing.PrivateKey()
        try F.write(
            Data(key.pemRepresentation.utf8), to: root.appendingPathComponent("credentials/AuthKey_ABC123DEFG.p8"))
        let good = check([
            ios(
                .sandbox,
                .token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/AuthKey_ABC123DEFG.p8"))
        ])[0]
        XCTAssertEqual(good.kind, .token)
        XCTAssertEqual(rules(good), [])
        XCTAssertEqual(good.detail("publicKeySha256"), try APNsAuthKey(pem: key.pemRepresentation).publicKeyFingerprint)
        let auth = good.detail("authorization")!
        XCTAssertTrue(auth.hasPrefix("bearer eyJ") && auth.hasSuffix("…"))
        XCTAssertEqual(auth.count, "bearer ".count + 12 + 1)

        let bad = check([
            ios(.sandbox, .token(keyId: "abc", teamId: "TOO-LONG-TEAM-ID", keyFile: "credentials/none.p8"))
        ])[0]
        XCTAssertEqual(rules(bad), ["token.key-id", "token.team-id", "token.key"])
        XCTAssertTrue(bad.findings[2].message.contains("credentials/none.p8"))

        try FileManager.default.setAttributes(
            [.posixPermissions: 0o604],
            ofItemAtPath: root.appendingPathComponent("credentials/AuthKey_ABC123DEFG.p8").path)
        let open = check([
            ios(
                .sandbox,
                .token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/AuthKey_ABC123DEFG.p8"))
        ])[0]
        XCTAssertEqual(rules(open), ["secret.permissions"])
    }

    func testAndroidAuthThroughTheChecker() throws {
        let email = "push@neotrips-12345.iam.gserviceaccount.com"
        let (json, _) = F.serviceAccountJSON(projectId: "neotrips-12345", clientEmail: email, privateKey: F.leafKeyPEM)
        try F.write(json, to: root.appendingPathComponent("credentials/firebase.json"))
        func android(_ auth: AndroidAuth?) -> MobileApp {
            .android(
                AndroidApp(
                    label: "Neotrips Android", integrationKey: "neotrips-android", packageName: "com.neotrips.app",
                    auth: auth))
        }
        let good = check([
            android(
                .serviceAccount(projectId: "neotrips-12345", clientEmail: email, keyFile: "credentials/firebase.json"))
        ])[0]
        XCTAssertEqual(rules(good), [])
        XCTAssertEqual(good.detail("projectId"), "neotrips-12345")
        XCTAssertEqual(good.detail("keyBits"), "RSA 2048 bits")
        let mismatch = check([
            android(.serviceAccount(projectId: "other-1", clientEmail: email, keyFile: "credentials/firebase.json"))
        ])[0]
        XCTAssertEqual(rules(mismatch), ["service-account.project-id"])
        XCTAssertEqual(mismatch.findings[0].field, "apps[0].auth.projectId")
        let gone = check([android(.serviceAccount(projectId: "p", clientEmail: "", keyFile: "credentials/nope.json"))])[
            0]
        XCTAssertEqual(rules(gone), ["service-account.unreadable"])
        XCTAssertTrue(gone.findings[0].message.contains("credentials/nope.json"))

        let legacyMissing = check([android(.serverKey(serverKeyRef: "fcm-server-key"))])[0]
        XCTAssertEqual(rules(legacyMissing), ["secret.missing", "fcm.legacy-api"])
        try SecretStore(storeRoot: root).set("fcm-server-key", to: SecretValue(serverKey))
        let legacy = check([android(.serverKey(serverKeyRef: "fcm-server-key"))])[0]
        XCTAssertEqual(rules(legacy), ["fcm.legacy-api"])
        XCTAssertEqual(legacy.findings[0].severity, .warning)

        // No <auth> at all is the service rule auth.missing, not a credential finding.
        XCTAssertEqual(check([android(nil)])[0].kind, .none)
        XCTAssertEqual(rules(check([ios(.sandbox, nil)])[0]), [])
    }

    func testFindingsForValidateArePositionedAndSkipWhatServiceRulesReport() throws {
        let store = Store(root: root)
        try store.save(
            Service(
                name: "neotrips", label: "Neotrips", marketingUrl: "https://m.example/",
                trackingUrl: "https://t.example/",
                apps: [
                    ios(.sandbox, .token(keyId: "bad", teamId: "DEF123GHIJ", keyFile: "credentials/none.p8")),
                    .android(
                        AndroidApp(
                            label: "A", integrationKey: "a", packageName: "com.a.b", api: .legacy,
                            auth: .serverKey(serverKeyRef: "absent"))),
                ]))
        let snapshot = store.loadAll()
        XCTAssertEqual(snapshot.errors, [])
        let findings = CredentialChecker.findings(snapshot, storeRoot: root, now: now)
        XCTAssertEqual(findings.map(\.rule), ["token.key-id", "token.key", "secret.missing"])
        XCTAssertTrue(
            findings.allSatisfy { $0.file == "services/neotrips.xml" && $0.line != nil && $0.column != nil },
            findings.map(\.formatted).joined(separator: "\n"))
        // The line is the one of the <auth> element that holds the field.
        let xml = try String(contentsOf: root.appendingPathComponent("services/neotrips.xml"), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(xml[findings[0].line! - 1].contains("keyId=\"bad\""), String(xml[findings[0].line! - 1]))
    }

    func testReportsAndTheirJSONHoldNoSecret() throws {
        let store = SecretStore(storeRoot: root)
        try store.set("pw", to: SecretValue(p12Password))
        try store.set("fcm", to: SecretValue(serverKey))
        let file = try writeP12("c.p12", kind: .universal)
        let p8 = P256.Signing.PrivateKey().pemRepresentation
        try F.write(Data(p8.utf8), to: root.appendingPathComponent("credentials/k.p8"))
        let (json, saPEM) = F.serviceAccountJSON(
            projectId: "p-1", clientEmail: "a@p-1.iam.gserviceaccount.com", privateKey: F.leafKeyPEM)
        try F.write(json, to: root.appendingPathComponent("credentials/sa.json"))
        let reports = check([
            ios(.sandbox, .token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/k.p8")),
            ios(.production, .certificate(certificateFile: file, passwordRef: "pw")),
            .android(
                AndroidApp(
                    label: "A", integrationKey: "a1", packageName: "x",
                    auth: .serviceAccount(
                        projectId: "p-1", clientEmail: "a@p-1.iam.gserviceaccount.com", keyFile: "credentials/sa.json"))
            ),
            .android(
                AndroidApp(
                    label: "B", integrationKey: "a2", packageName: "x", api: .legacy,
                    auth: .serverKey(serverKeyRef: "fcm"))),
        ])
        var text = reports.map { $0.json.pretty }.joined()
        dump(reports, to: &text)
        for secret in [p12Password, serverKey] + CredentialSecretScan.pemBodyLines(p8)
            + CredentialSecretScan.pemBodyLines(saPEM)
        {
            XCTAssertFalse(text.contains(secret), "secret found in reports: \(secret.prefix(8))…")
        }
    }
}

/// Helpers to look for secrets in captured output.
enum CredentialSecretScan {
    /// The base64 lines of a PEM body (each long enough to be unmistakable).
    static func pemBodyLines(_ pem: String) -> [String] {
        pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 16 }
    }
}
