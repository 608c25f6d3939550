import Crypto
import Foundation
import SwiftASN1
import X509
import XCTest

@testable import PushDeskCore

/// The local CA of `pushdesk listen` (docs/LISTEN.md): made once and reused, its key 0600; the
/// server certificate as iOS requires it, issued again when the names change or it expires.
final class ListenCertificateTests: XCTestCase {
    func testTheLocalCAIsReusedAndTheServerCertificateIsWhatIOSRequires() throws {
        let store = try makeTempDir(self)
        let now = Date()
        let first = try ListenCertificates.localIdentity(
            storeRoot: store, names: ["listen.test", "192.168.1.20"], now: now)
        XCTAssertTrue(first.issued)
        let dir = store.appendingPathComponent(".pushdesk/listen")
        XCTAssertEqual(FileMode.of(dir.appendingPathComponent("ca-key.pem").path), 0o600)
        XCTAssertEqual(FileMode.of(dir.appendingPathComponent("server-key.pem").path), 0o600)
        XCTAssertEqual(first.caFile, dir.appendingPathComponent("ca.pem"))

        let ca = try Certificate(pemEncoded: String(contentsOf: dir.appendingPathComponent("ca.pem"), encoding: .utf8))
        let leaf = try Certificate(pemEncoded: first.chainPEM[0])
        XCTAssertEqual(leaf.signatureAlgorithm, .ecdsaWithSHA256)
        XCTAssertTrue(ca.publicKey.isValidSignature(leaf.signature, for: leaf))
        XCTAssertNotNil(P256.Signing.PublicKey(ca.publicKey), "the CA is P-256")
        XCTAssertEqual(try leaf.extensions.extendedKeyUsage?.contains(.serverAuth), true)
        XCTAssertEqual(try ca.extensions.basicConstraints, .isCertificateAuthority(maxPathLength: 0))
        XCTAssertEqual(leaf.notValidAfter.timeIntervalSince(now), 30 * 24 * 3600, accuracy: 2)
        let sans = try XCTUnwrap(try leaf.extensions.subjectAlternativeNames).map { "\($0)" }
        for expected in [
            GeneralName.dnsName("localhost"), .dnsName("listen.test"),
            .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
            .ipAddress(ASN1OctetString(contentBytes: [192, 168, 1, 20])),
            .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))),
        ] {
            XCTAssertTrue(sans.contains("\(expected)"), "\(expected) in \(sans)")
        }
        XCTAssertEqual(first.caFingerprint, ListenCertificates.fingerprint(ca))
        XCTAssertEqual(first.caFingerprint?.count, 32 * 3 - 1)

        // The same names a day later: the same CA and the same server certificate.
        let again = try ListenCertificates.localIdentity(
            storeRoot: store, names: ["192.168.1.20", "listen.test"], now: now + 86_400)
        XCTAssertFalse(again.issued)
        XCTAssertEqual(again.chainPEM, first.chainPEM)
        // Other names: a new server certificate from the same CA.
        let renamed = try ListenCertificates.localIdentity(storeRoot: store, names: ["other.test"], now: now + 86_400)
        XCTAssertTrue(renamed.issued)
        XCTAssertEqual(renamed.caFingerprint, first.caFingerprint)
        XCTAssertNotEqual(renamed.chainPEM[0], first.chainPEM[0])
        // Close to its end (issued a day later, half a day left): issued again.
        let late = try ListenCertificates.localIdentity(
            storeRoot: store, names: ["other.test"], now: now + 30.5 * 86_400)
        XCTAssertTrue(late.issued)
        XCTAssertEqual(late.caFingerprint, first.caFingerprint)
        XCTAssertThrowsError(try ListenCertificates.localIdentity(storeRoot: store, names: ["not a name!"], now: now))
    }
}
