import Foundation
import XCTest

@testable import PushDeskCore

/// Reading APNs certificates (PEM, DER, .p12) and the certificate rules, on certificates
/// generated at test time with Apple's push-certificate shape.
final class CredentialCertificateTests: XCTestCase {
    typealias F = CredentialFixtures
    // X.509 times are whole seconds: a fractional "now" would make day counts flicker.
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let bundle = "com.neotrips.app"

    func info(
        _ kind: F.Kind, bundle: String? = nil, from: TimeInterval = -30, to: TimeInterval = 300,
        topics: Bool = true
    ) throws -> CertificateInfo {
        let c = try F.pushCertificate(
            bundleId: bundle ?? self.bundle, kind: kind,
            notBefore: now + from * F.day, notAfter: now + to * F.day, topicsExtension: topics)
        return try CertificateInfo(derEncoded: c.der)
    }

    let place = CredentialRules.Place(file: "services/neotrips.xml", field: "iosApp[k].auth.certificateFile")

    func testReadsSubjectIssuerSerialFingerprintTopicsEnvironment() throws {
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .universal, notBefore: now - F.day,
            notAfter: now + 365 * F.day, serial: 0x1F46_DEAF)
        let i = try CertificateInfo(derEncoded: c.der)
        XCTAssertEqual(
            i.subject,
            "UID=com.neotrips.app, CN=Apple Push Services: com.neotrips.app, OU=TEAM123456, O=Neotrips Test, C=US")
        XCTAssertEqual(i.issuer, "CN=PushDesk Test WWDR CA (throw-away), O=PushDesk tests, C=US")
        XCTAssertEqual(i.serial, "1F:46:DE:AF")
        XCTAssertEqual(i.topics, ["com.neotrips.app", "com.neotrips.app.voip", "com.neotrips.app.complication"])
        XCTAssertEqual(i.environment, .universal)
        // X.509 times have whole seconds.
        XCTAssertEqual(i.notValidAfter.timeIntervalSince1970, (now + 365 * F.day).timeIntervalSince1970, accuracy: 1)

        // The fingerprint is the one openssl prints for the same certificate.
        let dir = try makeTempDir(self)
        let pemURL = dir.appendingPathComponent("c.pem")
        try c.pem.write(to: pemURL, atomically: true, encoding: .utf8)
        let r = try ChildProcess.run(
            opensslPath, ["x509", "-in", pemURL.path, "-noout", "-fingerprint", "-sha256"], stdin: [])
        let out = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(out.components(separatedBy: "=").last, i.sha256Fingerprint)
    }

    func testEnvironmentFromExtensionsAndSubject() throws {
        XCTAssertEqual(try info(.development).environment, .development)
        XCTAssertEqual(try info(.production).environment, .production)
        XCTAssertEqual(try info(.universal).environment, .universal)
        XCTAssertEqual(try info(.plain).environment, .unknown)
    }

    func testTopicsFallBackOnSubjectUID() throws {
        let i = try info(.development, bundle: "com.example.old", topics: false)
        XCTAssertEqual(i.topics, ["com.example.old"])
    }

    func testValidityRules() throws {
        let expired = CredentialRules.validity(try info(.universal, from: -400, to: -1), now: now, at: place)
        XCTAssertEqual(expired.map(\.rule), ["certificate.expired"])
        XCTAssertEqual(expired.first?.severity, .error)

        let soon = CredentialRules.validity(try info(.universal, to: 10), now: now, at: place)
        XCTAssertEqual(soon.map(\.rule), ["certificate.expiring"])
        XCTAssertEqual(soon.first?.severity, .warning)
        XCTAssertTrue(soon.first!.message.contains("in 10 days"), soon.first!.message)

        let future = CredentialRules.validity(try info(.universal, from: 2, to: 400), now: now, at: place)
        XCTAssertEqual(future.map(\.rule), ["certificate.not-yet-valid"])
        XCTAssertEqual(future.first?.severity, .error)

        XCTAssertEqual(CredentialRules.validity(try info(.universal, to: 30.01), now: now, at: place), [])
        XCTAssertEqual(
            CredentialRules.validity(try info(.universal, to: 29.99), now: now, at: place).map(\.rule),
            ["certificate.expiring"])
    }

    func testTopicRule() throws {
        XCTAssertEqual(CredentialRules.topic(try info(.universal), bundleId: bundle, at: place), [])
        XCTAssertEqual(CredentialRules.topic(try info(.universal), bundleId: bundle + ".voip", at: place), [])
        let other = CredentialRules.topic(try info(.universal, bundle: "com.other.app"), bundleId: bundle, at: place)
        XCTAssertEqual(other.map(\.rule), ["certificate.topic"])
        XCTAssertEqual(other.first?.severity, .error)
        XCTAssertTrue(other.first!.message.contains("com.other.app"))
    }

    func testEnvironmentRule() throws {
        let dev = try info(.development)
        let prod = try info(.production)
        let uni = try info(.universal)
        XCTAssertEqual(CredentialRules.environment(dev, app: .sandbox, at: place), [])
        XCTAssertEqual(CredentialRules.environment(prod, app: .production, at: place), [])
        XCTAssertEqual(CredentialRules.environment(uni, app: .sandbox, at: place), [])
        XCTAssertEqual(CredentialRules.environment(uni, app: .production, at: place), [])
        XCTAssertEqual(
            CredentialRules.environment(dev, app: .production, at: place).map(\.rule), ["certificate.environment"])
        XCTAssertEqual(
            CredentialRules.environment(prod, app: .sandbox, at: place).map(\.rule), ["certificate.environment"])
        XCTAssertEqual(
            CredentialRules.environment(try info(.plain), app: .sandbox, at: place).map(\.severity), [.error])
    }

    func testReadsPEMDERAndP12() throws {
        let dir = try makeTempDir(self)
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .production, notBefore: now - F.day, notAfter: now + 90 * F.day)
        let expected = try CertificateInfo(derEncoded: c.der)

        let pem = dir.appendingPathComponent("c.pem")
        try (c.pem + F.leafKeyPEM).write(to: pem, atomically: true, encoding: .utf8)
        let der = dir.appendingPathComponent("c.cer")
        try Data(c.der).write(to: der)
        let p12 = dir.appendingPathComponent("c.p12")
        try F.writeP12(certPEM: c.pem, password: "s3cret-Pa55", to: p12)

        let noPassword: () throws -> SecretValue = {
            XCTFail("no password needed")
            return SecretValue("")
        }
        let a = try CertificateFile.read(file: pem, shownAs: "c.pem", password: noPassword)
        XCTAssertEqual(a.0, expected)
        XCTAssertEqual(a.1, .pem)
        let b = try CertificateFile.read(file: der, shownAs: "c.cer", password: noPassword)
        XCTAssertEqual(b.0, expected)
        XCTAssertEqual(b.1, .der)
        let p = try CertificateFile.read(file: p12, shownAs: "c.p12", password: { SecretValue("s3cret-Pa55") })
        XCTAssertEqual(p.0, expected)
        XCTAssertEqual(p.1, .pkcs12)

        XCTAssertTrue(CertificateFile.holdsPrivateKey(try Data(contentsOf: pem)))
        XCTAssertFalse(CertificateFile.holdsPrivateKey(try Data(contentsOf: der)))
        XCTAssertTrue(CertificateFile.holdsPrivateKey(try Data(contentsOf: p12)))
    }

    /// What `openssl pkcs12 -nodes` prints — "Bag Attributes", subject= and issuer= lines
    /// around the blocks — is a PEM file operators keep: SwiftASN1's PEM reader skips the
    /// text between blocks and finds the certificate and the key.
    func testReadsOpenSSLOutputWithBagAttributes() throws {
        let dir = try makeTempDir(self)
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .production, notBefore: now - F.day, notAfter: now + 90 * F.day)
        let p12 = dir.appendingPathComponent("c.p12")
        try F.writeP12(certPEM: c.pem, password: "s3cret-Pa55", to: p12)
        let r = try ChildProcess.run(
            opensslPath, ["pkcs12", "-in", p12.path, "-nodes", "-passin", "fd:0"],
            stdin: Array("s3cret-Pa55\n".utf8))
        XCTAssertEqual(r.status, 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("Bag Attributes"), text)
        XCTAssertTrue(text.contains("friendlyName: push"), text)
        let pem = dir.appendingPathComponent("from-openssl.pem")
        try text.write(to: pem, atomically: true, encoding: .utf8)

        let read = try CertificateFile.read(file: pem, shownAs: "from-openssl.pem", password: { SecretValue("") })
        XCTAssertEqual(read.0, try CertificateInfo(derEncoded: c.der))
        XCTAssertEqual(read.1, .pem)
        XCTAssertTrue(CertificateFile.holdsPrivateKey(try Data(contentsOf: pem)))
        XCTAssertEqual(CredentialText.pemLabels(text), ["CERTIFICATE", "PRIVATE KEY"])
        XCTAssertEqual(CredentialText.pemBlocks(text, label: "CERTIFICATE"), [c.der])
    }

    func testReadsLegacyKeychainStyleP12() throws {
        let dir = try makeTempDir(self)
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .universal, notBefore: now - F.day, notAfter: now + 90 * F.day)
        let p12 = dir.appendingPathComponent("legacy.p12")
        try F.writeP12(certPEM: c.pem, password: "old-keychain", to: p12, legacy: true)
        let read = try CertificateFile.read(file: p12, shownAs: "legacy.p12", password: { SecretValue("old-keychain") })
        XCTAssertEqual(read.0, try CertificateInfo(derEncoded: c.der))
        XCTAssertThrowsError(
            try CertificateFile.read(file: p12, shownAs: "legacy.p12", password: { SecretValue("nope") })
        ) { e in
            XCTAssertEqual(e as? CertificateFile.Failure, .wrongPassword)
        }
    }

    func testControlCharactersFromTheCertificateAreEscaped() throws {
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .universal, notBefore: now - F.day, notAfter: now + 90 * F.day,
            organization: "Evil\u{1B}]0;pwned\u{07}Corp")
        let i = try CertificateInfo(derEncoded: c.der)
        XCTAssertTrue(i.subject.contains("\u{1B}"), "the model keeps the real value")
        let shown = CredentialDetail("subject", "Subject", i.subject).value
        XCTAssertFalse(shown.unicodeScalars.contains { $0.value < 0x20 }, shown)
        XCTAssertTrue(shown.contains("Evil\\u{1B}]0;pwned\\u{7}Corp"), shown)
    }

    func testWrongPasswordLeaksNothing() throws {
        let dir = try makeTempDir(self)
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .production, notBefore: now - F.day, notAfter: now + 90 * F.day)
        let p12 = dir.appendingPathComponent("c.p12")
        try F.writeP12(certPEM: c.pem, password: "right-horse-battery", to: p12)
        XCTAssertThrowsError(
            try CertificateFile.read(file: p12, shownAs: "c.p12", password: { SecretValue("wrong-guess-42") })
        ) { e in
            XCTAssertEqual(e as? CertificateFile.Failure, .wrongPassword)
            let text = "\(e)" + String(describing: e) + String(reflecting: e)
            XCTAssertFalse(text.contains("wrong-guess-42"))
            XCTAssertFalse(text.contains("right-horse-battery"))
        }
    }

    func testUnreadableAndMissingFiles() throws {
        let dir = try makeTempDir(self)
        let junk = dir.appendingPathComponent("junk.p12")
        try Data("this is not a certificate".utf8).write(to: junk)
        XCTAssertThrowsError(
            try CertificateFile.read(file: junk, shownAs: "credentials/junk.p12", password: { SecretValue("") })
        ) { e in
            guard case .unreadable(let why)? = e as? CertificateFile.Failure else { return XCTFail("\(e)") }
            XCTAssertTrue(why.contains("credentials/junk.p12"), why)
        }
        let pemNoCert = dir.appendingPathComponent("key-only.pem")
        try F.leafKeyPEM.write(to: pemNoCert, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(
            try CertificateFile.read(file: pemNoCert, shownAs: "key-only.pem", password: { SecretValue("") })
        ) { e in
            guard case .unreadable(let why)? = e as? CertificateFile.Failure else { return XCTFail("\(e)") }
            XCTAssertFalse(why.contains("PRIVATE KEY-----"))
        }
        XCTAssertThrowsError(
            try CertificateFile.read(
                file: dir.appendingPathComponent("nope.p12"), shownAs: "credentials/nope.p12",
                password: { SecretValue("") })
        ) { e in
            XCTAssertEqual(e as? CertificateFile.Failure, .fileNotFound("credentials/nope.p12"))
            XCTAssertTrue("\(e)".contains("file not found: credentials/nope.p12"))
        }
    }

    /// A .p12 is read by swift-nio-ssl in this process: no `openssl` on PATH is needed.
    func testAP12IsReadWithoutOpenSSL() throws {
        let dir = try makeTempDir(self)
        let c = try F.pushCertificate(
            bundleId: bundle, kind: .production, notBefore: now - F.day, notAfter: now + 90 * F.day)
        let p12 = dir.appendingPathComponent("c.p12")
        try F.writeP12(certPEM: c.pem, password: "pw", to: p12)
        let path = getenv("PATH").map { String(cString: $0) }
        setenv("PATH", dir.path, 1)
        defer { if let path { setenv("PATH", path, 1) } }
        let (info, format) = try CertificateFile.read(file: p12, shownAs: "c.p12", password: { SecretValue("pw") })
        XCTAssertEqual(format, .pkcs12)
        XCTAssertEqual(info.topics.first, bundle)
    }
}

/// The .p12 password never leaves the process: a stand-in `openssl` on PATH that would
/// record its argv, environment and stdin is never run.
final class CredentialPKCS12ArgvTests: XCTestCase {
    func testNoChildProcessSeesThePassword() throws {
        let dir = try makeTempDir(self)
        let log = dir.appendingPathComponent("log")
        let fake = dir.appendingPathComponent("openssl")
        try "#!/bin/sh\necho ran \"$*\" >> '\(log.path)'\nexit 1\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: fake.path)
        let p12 = dir.appendingPathComponent("x.p12")
        try Data([0x30, 0x82, 0x01, 0x00, 0x02, 0x01, 0x03]).write(to: p12)
        let path = getenv("PATH").map { String(cString: $0) }
        setenv("PATH", dir.path, 1)
        defer { if let path { setenv("PATH", path, 1) } }
        XCTAssertThrowsError(try PKCS12Reader().certificates(file: p12, password: SecretValue("Hunter2"))) { e in
            XCTAssertEqual(e as? PKCS12Reader.Failure, .unreadable("not a readable PKCS#12 (.p12) bundle"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: log.path), "a child process was started")
    }
}
