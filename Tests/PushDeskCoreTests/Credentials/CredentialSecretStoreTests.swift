import Foundation
import XCTest

@testable import PushDeskCore

/// The secrets store: files in STORE/secrets (0700/0600), or env: references.
final class CredentialSecretStoreTests: XCTestCase {
    func testSetCreates0700DirectoryAnd0600FileEvenWithAPermissiveUmask() throws {
        let root = try makeTempDir(self)
        let store = SecretStore(storeRoot: root)
        let old = umask(0)
        defer { umask(old) }
        try store.set("neotrips-prod-p12", to: SecretValue("pa55-w0rd"))
        XCTAssertEqual(FileMode.of(root.appendingPathComponent("secrets").path), 0o700)
        XCTAssertEqual(FileMode.of(root.appendingPathComponent("secrets/neotrips-prod-p12").path), 0o600)
        XCTAssertEqual(try store.read("neotrips-prod-p12").bytes, Array("pa55-w0rd".utf8))
        // Replacing keeps 0600 and leaves no temporary file behind.
        try store.set("neotrips-prod-p12", to: SecretValue("n3w"))
        XCTAssertEqual(try store.read("neotrips-prod-p12"), SecretValue("n3w"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.directory.path), ["neotrips-prod-p12"])
        XCTAssertEqual(store.names(), ["neotrips-prod-p12"])
        try store.remove("neotrips-prod-p12")
        XCTAssertFalse(store.exists("neotrips-prod-p12"))
    }

    func testReplacingAnOpenFileMakesIt0600() throws {
        let root = try makeTempDir(self)
        let store = SecretStore(storeRoot: root)
        try CredentialFixtures.write(Data("old\n".utf8), to: store.directory.appendingPathComponent("k"), mode: 0o644)
        XCTAssertEqual(try store.read("k"), SecretValue("old"), "one trailing newline is not part of the secret")
        try store.set("k", to: SecretValue("new"))
        XCTAssertEqual(FileMode.of(store.directory.appendingPathComponent("k").path), 0o600)
    }

    func testEnvironmentReferences() throws {
        let store = SecretStore(storeRoot: try makeTempDir(self), environment: ["FCM_KEY": "AAAAxyz"])
        XCTAssertEqual(try store.read("env:FCM_KEY"), SecretValue("AAAAxyz"))
        XCTAssertThrowsError(try store.read("env:NOT_SET")) { e in
            XCTAssertEqual((e as? SecretError)?.kind, .missing)
            XCTAssertTrue("\(e)".contains("NOT_SET"))
        }
        XCTAssertThrowsError(try store.set("env:FCM_KEY", to: SecretValue("x")))
    }

    func testInvalidReferencesCannotEscapeTheDirectory() throws {
        let store = SecretStore(storeRoot: try makeTempDir(self))
        for bad in ["../x", "a/b", ".hidden", "", "env:", "env:1X", "env:A-B", String(repeating: "a", count: 101)] {
            XCTAssertThrowsError(try store.set(bad, to: SecretValue("v")), bad) { e in
                XCTAssertEqual((e as? SecretError)?.kind, .invalidReference)
            }
            XCTAssertThrowsError(try store.read(bad), bad)
        }
        XCTAssertThrowsError(try store.read("absent")) { e in
            XCTAssertEqual((e as? SecretError)?.kind, .missing)
            XCTAssertTrue("\(e)".contains("secrets/absent"))
        }
    }

    func testSecretValueNeverPrints() {
        let v = SecretValue("Top-Secret-Value")
        var dumped = ""
        dump(v, to: &dumped)
        for s in ["\(v)", String(reflecting: v), dumped, "\([v])", "\(Optional(v) as Any)"] {
            XCTAssertFalse(s.contains("Top-Secret"), s)
        }
    }

    func testPermissionsRule() {
        let p = CredentialRules.Place(file: "services/s.xml", field: "f")
        XCTAssertEqual(CredentialRules.permissions(path: "credentials/k.p8", mode: 0o600, at: p), [])
        XCTAssertEqual(CredentialRules.permissions(path: "secrets/", mode: 0o700, at: p), [])
        let f = CredentialRules.permissions(path: "credentials/k.p8", mode: 0o644, at: p)
        XCTAssertEqual(f.map(\.rule), ["secret.permissions"])
        XCTAssertEqual(f.first?.severity, .warning)
        XCTAssertTrue(f.first!.message.contains("0644") && f.first!.message.contains("chmod 600"))
        XCTAssertEqual(
            CredentialRules.permissions(path: "secrets/", mode: 0o750, at: p).first?.message.contains("chmod 700"), true
        )
    }
}
