import Crypto
import Foundation
import XCTest

@testable import PushDeskCore

/// APNs token auth: the .p8 key, Key ID / Team ID, and the signed provider JWT.
final class CredentialTokenTests: XCTestCase {
    let place = CredentialRules.Place(file: "services/s.xml", field: "iosApp[k].auth.keyId")

    func testLoadsP8AndSignsAVerifiableProviderToken() throws {
        let key = P256.Signing.PrivateKey()
        let p8 = key.pemRepresentation
        XCTAssertTrue(p8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let authKey = try APNsAuthKey(pem: p8)
        let iat = Date(timeIntervalSince1970: 1_790_000_000)
        let token = try APNsProviderToken(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", key: authKey, issuedAt: iat)

        let full = String(token.authorizationHeaderValue.dropFirst("bearer ".count))
        let parts = full.split(separator: ".").map(String.init)
        XCTAssertEqual(parts.count, 3)
        XCTAssertFalse(full.contains("="), "base64url without padding")
        let header = String(decoding: CredentialText.base64urlDecode(parts[0])!, as: UTF8.self)
        let claims = String(decoding: CredentialText.base64urlDecode(parts[1])!, as: UTF8.self)
        XCTAssertEqual(header, #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        XCTAssertEqual(claims, #"{"iss":"DEF123GHIJ","iat":1790000000}"#)

        // The signature verifies with the key's public half (raw r||s, as JWS ES256 wants).
        let sig = try P256.Signing.ECDSASignature(rawRepresentation: CredentialText.base64urlDecode(parts[2])!)
        XCTAssertTrue(key.publicKey.isValidSignature(sig, for: Data((parts[0] + "." + parts[1]).utf8)))
        // … and not with another key.
        XCTAssertFalse(
            P256.Signing.PrivateKey().publicKey.isValidSignature(sig, for: Data((parts[0] + "." + parts[1]).utf8)))

        // Only the redacted form is ever printed.
        XCTAssertEqual(token.redacted, "bearer " + String(full.prefix(12)) + "…")
        for shown in [
            "\(token)", String(reflecting: token),
            {
                var s = ""
                dump(token, to: &s)
                return s
            }(),
        ] {
            XCTAssertFalse(shown.contains(parts[2]), shown)
            XCTAssertFalse(shown.contains(full), shown)
        }
    }

    func testPublicKeyFingerprintMatchesOpenSSL() throws {
        let dir = try makeTempDir(self)
        let openssl = opensslPath
        let gen = try ChildProcess.run(
            openssl, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], stdin: [])
        XCTAssertEqual(gen.status, 0)
        let p8URL = dir.appendingPathComponent("AuthKey_ABC123DEFG.p8")
        try gen.stdout.write(to: p8URL)
        let key = try APNsAuthKey.load(file: p8URL, shownAs: "credentials/AuthKey_ABC123DEFG.p8")
        let pub = try ChildProcess.run(openssl, ["pkey", "-in", p8URL.path, "-pubout", "-outform", "DER"], stdin: [])
        XCTAssertEqual(key.publicKeyFingerprint, CredentialText.colonHex(SHA256.hash(data: pub.stdout)))
        XCTAssertEqual(key.publicKeyFingerprint.count, 32 * 3 - 1)
    }

    func testKeyRuleRejectsWhatIsNotAP256PKCS8Key() throws {
        // SEC1 "EC PRIVATE KEY" is not the .p8 form.
        let sec1 = try ChildProcess.run(
            opensslPath, ["ecparam", "-name", "prime256v1", "-genkey", "-noout"], stdin: [])
        let sec1PEM = String(decoding: sec1.stdout, as: UTF8.self)
        XCTAssertTrue(sec1PEM.contains("EC PRIVATE KEY"))
        XCTAssertThrowsError(try APNsAuthKey(pem: sec1PEM)) { e in
            guard case .notPKCS8? = e as? APNsAuthKey.Failure else { return XCTFail("\(e)") }
        }
        // A PKCS#8 key on another curve, and an RSA key.
        XCTAssertThrowsError(try APNsAuthKey(pem: P384.Signing.PrivateKey().pemRepresentation)) { e in
            XCTAssertEqual(e as? APNsAuthKey.Failure, .notP256)
        }
        XCTAssertThrowsError(try APNsAuthKey(pem: CredentialFixtures.leafKeyPEM)) { e in
            XCTAssertEqual(e as? APNsAuthKey.Failure, .notP256)
            XCTAssertFalse("\(e)".contains("PRIVATE KEY-----"))
        }
        XCTAssertThrowsError(try APNsAuthKey(pem: "garbage")) { e in
            guard case .notPKCS8? = e as? APNsAuthKey.Failure else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(
            try APNsAuthKey.load(file: URL(fileURLWithPath: "/nonexistent/k.p8"), shownAs: "credentials/k.p8")
        ) { e in
            XCTAssertEqual("\(e)", "file not found: credentials/k.p8")
        }
    }

    func testKeyIdAndTeamIdRules() {
        let team = CredentialRules.Place(file: "services/s.xml", field: "iosApp[k].auth.teamId")
        XCTAssertEqual(
            CredentialRules.tokenIDs(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyIdAt: place, teamIdAt: team), [])
        for bad in ["ABC123DEF", "ABC123DEFGH", "abc123defg", "ABC-23DEFG", ""] {
            let f = CredentialRules.tokenIDs(keyId: bad, teamId: "DEF123GHIJ", keyIdAt: place, teamIdAt: team)
            XCTAssertEqual(f.map(\.rule), ["token.key-id"], bad)
            XCTAssertEqual(f.first?.severity, .error)
            let g = CredentialRules.tokenIDs(keyId: "ABC123DEFG", teamId: bad, keyIdAt: place, teamIdAt: team)
            XCTAssertEqual(g.map(\.rule), ["token.team-id"], bad)
            XCTAssertEqual(g.first?.field, "iosApp[k].auth.teamId")
        }
        // Control characters from the file are escaped in the message.
        let esc = CredentialRules.tokenIDs(keyId: "AB\u{1B}[31m", teamId: "DEF123GHIJ", keyIdAt: place, teamIdAt: team)
        XCTAssertFalse(esc[0].message.contains("\u{1B}"))
        XCTAssertTrue(esc[0].message.contains("\\u{1B}"))
    }
}
