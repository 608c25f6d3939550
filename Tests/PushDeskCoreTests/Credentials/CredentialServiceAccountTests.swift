import Foundation
import XCTest

@testable import PushDeskCore

/// Firebase service-account JSON (FCM HTTP v1), with a fresh RSA key from openssl genrsa.
final class CredentialServiceAccountTests: XCTestCase {
    typealias F = CredentialFixtures
    let at = CredentialRules.Place(file: "services/s.xml", field: "androidApp[a].auth.keyFile")
    let pAt = CredentialRules.Place(file: "services/s.xml", field: "androidApp[a].auth.projectId")
    let cAt = CredentialRules.Place(file: "services/s.xml", field: "androidApp[a].auth.clientEmail")
    let project = "neotrips-12345", email = "push@neotrips-12345.iam.gserviceaccount.com"

    func rules(_ a: ServiceAccount, project p: String? = nil, email e: String? = nil) -> [String] {
        CredentialRules.serviceAccount(
            a, projectId: p ?? project, clientEmail: e ?? email,
            at: at, projectIdAt: pAt, clientEmailAt: cAt
        ).map(\.rule)
    }

    func testGoodServiceAccount() throws {
        let (json, _) = F.serviceAccountJSON(projectId: project, clientEmail: email, privateKey: F.leafKeyPEM)
        let a = try ServiceAccount(json: json)
        XCTAssertEqual(a.projectId, project)
        XCTAssertEqual(a.clientEmail, email)
        XCTAssertEqual(a.type, "service_account")
        XCTAssertEqual(a.keyBits, 2048)
        XCTAssertEqual(a.missingFields, [])
        XCTAssertNotNil(a.publicKeyFingerprint)
        XCTAssertEqual(rules(a), [])
    }

    func testEachRuleFires() throws {
        let key = F.leafKeyPEM
        let a = try ServiceAccount(
            json: F.serviceAccountJSON(projectId: project, clientEmail: email, privateKey: key).json)
        XCTAssertEqual(rules(a, project: "other-project"), ["service-account.project-id"])
        XCTAssertEqual(rules(a, email: "x@other.iam.gserviceaccount.com"), ["service-account.client-email"])

        let user = try ServiceAccount(
            json: F.serviceAccountJSON(projectId: project, clientEmail: email, type: "authorized_user", privateKey: key)
                .json)
        XCTAssertEqual(rules(user), ["service-account.type"])

        let ecKey = p256PEM()
        let ec = try ServiceAccount(
            json: F.serviceAccountJSON(projectId: project, clientEmail: email, privateKey: ecKey).json)
        XCTAssertEqual(rules(ec), ["service-account.key"])

        let missing = try ServiceAccount(
            json: F.serviceAccountJSON(
                projectId: project, clientEmail: email, privateKey: key,
                omit: ["private_key", "client_email"]
            ).json)
        XCTAssertEqual(missing.missingFields, ["private_key", "client_email"])
        XCTAssertEqual(rules(missing), ["service-account.fields"])

        XCTAssertThrowsError(
            try ServiceAccount(json: Data("{\"private_key\": \"-----BEGIN PRIVATE KEY-----\nMIIE".utf8))
        ) { e in
            XCTAssertEqual(e as? ServiceAccount.Failure, .notJSON)
            XCTAssertFalse("\(e)".contains("MIIE"))
        }
        XCTAssertThrowsError(
            try ServiceAccount.load(file: URL(fileURLWithPath: "/nonexistent/f.json"), shownAs: "credentials/f.json")
        ) { e in
            XCTAssertEqual("\(e)", "file not found: credentials/f.json")
        }
    }

    func testFreshKeyFromGenrsaLoads() throws {
        let (json, pem) = F.serviceAccountJSON(projectId: project, clientEmail: email)
        XCTAssertTrue(pem.contains("PRIVATE KEY"))
        XCTAssertEqual(try ServiceAccount(json: json).keyBits, 2048)
    }

    private func p256PEM() -> String {
        let r = try! ChildProcess.run(
            opensslPath, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], stdin: [])
        return String(decoding: r.stdout, as: UTF8.self)
    }
}
