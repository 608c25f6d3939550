import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

@testable import PushDeskCore

/// Credentials made at test time — nothing real is committed. A throw-away CA (P-256,
/// swift-certificates) issues certificates with the shape of Apple's push certificates
/// (subject UID/CN/OU, extensions 1.2.840.113635.100.6.3.1/.2/.6) for an RSA key made by
/// `openssl genrsa`; `openssl pkcs12 -export` bundles them with a password.
enum CredentialFixtures {
    enum Kind { case development, production, universal, plain }

    static let caKey = P256.Signing.PrivateKey()
    static let caName = try! DistinguishedName {
        CommonName("PushDesk Test WWDR CA (throw-away)")
        OrganizationName("PushDesk tests")
        CountryName("US")
    }

    /// One RSA key (openssl genrsa) for the leaf certificates, made once per run.
    static let leafKeyPEM: String = genrsa()

    static func genrsa() -> String {
        let openssl = opensslPath
        let r = try! ChildProcess.run(openssl, ["genrsa", "2048"], stdin: [])
        precondition(r.status == 0, "openssl genrsa failed")
        return String(decoding: r.stdout, as: UTF8.self)
    }

    static let uidOID: ASN1ObjectIdentifier = "0.9.2342.19200300.100.1.1"

    /// DER of the topics extension: SEQUENCE { topic, SEQUENCE { kind }, … } as Apple writes it.
    static func topicsExtension(_ bundleId: String) throws -> [UInt8] {
        var s = DER.Serializer()
        try s.appendConstructedNode(identifier: .sequence) { c in
            for (topic, kind) in [
                (bundleId, "app"), (bundleId + ".voip", "voip"), (bundleId + ".complication", "complication"),
            ] {
                try c.serialize(ASN1UTF8String(topic))
                try c.appendConstructedNode(identifier: .sequence) { k in try k.serialize(ASN1UTF8String(kind)) }
            }
        }
        return s.serializedBytes
    }

    /// An Apple-shaped push certificate for `bundleId`, DER and PEM.
    static func pushCertificate(
        bundleId: String, kind: Kind, notBefore: Date, notAfter: Date,
        topicsExtension withTopics: Bool = true, serial: Int = Int.random(in: 1...Int(Int32.max)),
        organization: String = "Neotrips Test"
    )
        throws -> (der: [UInt8], pem: String)
    {
        let cn: String
        switch kind {
        case .development: cn = "Apple Development IOS Push Services: \(bundleId)"
        case .production: cn = "Apple Production IOS Push Services: \(bundleId)"
        case .universal: cn = "Apple Push Services: \(bundleId)"
        case .plain: cn = "Some TLS client: \(bundleId)"
        }
        let subject = DistinguishedName([
            RelativeDistinguishedName(.init(type: uidOID, utf8String: bundleId)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: cn)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: "TEAM123456")),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationName, utf8String: organization)),
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.countryName, printableString: "US")),
        ])
        var exts: [Certificate.Extension] = []
        let nullValue: ArraySlice<UInt8> = [0x05, 0x00]
        if kind == .development || kind == .universal {
            exts.append(.init(oid: CertificateInfo.developmentOID, critical: false, value: nullValue))
        }
        if kind == .production || kind == .universal {
            exts.append(.init(oid: CertificateInfo.productionOID, critical: false, value: nullValue))
        }
        if withTopics && kind != .plain {
            exts.append(
                .init(oid: CertificateInfo.topicsOID, critical: false, value: try topicsExtension(bundleId)[...]))
        }
        let leaf = try _RSA.Signing.PrivateKey(pemRepresentation: leafKeyPEM)
        let cert = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(bytes: withUnsafeBytes(of: UInt64(serial).bigEndian) { Array($0) }),
            publicKey: .init(leaf.publicKey), notValidBefore: notBefore, notValidAfter: notAfter,
            issuer: caName, subject: subject, extensions: try Certificate.Extensions(exts),
            issuerPrivateKey: .init(caKey))
        var s = DER.Serializer()
        try s.serialize(cert)
        return (s.serializedBytes, try cert.serializeAsPEM().pemString)
    }

    /// `openssl pkcs12 -export` of the certificate with the leaf key; the password goes on stdin.
    /// `legacy`: RC2-40/3DES encryption, as macOS Keychain exports it.
    static func writeP12(certPEM: String, password: String, to url: URL, legacy: Bool = false) throws {
        let dir = url.deletingLastPathComponent()
        let certFile = dir.appendingPathComponent(".fixture-cert-\(UUID().uuidString).pem")
        let keyFile = dir.appendingPathComponent(".fixture-key-\(UUID().uuidString).pem")
        try certPEM.write(to: certFile, atomically: true, encoding: .utf8)
        try leafKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(at: certFile)
            try? FileManager.default.removeItem(at: keyFile)
        }
        let r = try ChildProcess.run(
            opensslPath,
            [
                "pkcs12", "-export", "-in", certFile.path, "-inkey", keyFile.path, "-out", url.path,
                "-name", "push", "-passout", "fd:0",
            ] + (legacy ? ["-legacy"] : []), stdin: Array((password + "\n").utf8))
        precondition(r.status == 0, "openssl pkcs12 -export failed")
    }

    /// A Firebase service-account JSON with a fresh RSA key (openssl genrsa).
    static func serviceAccountJSON(
        projectId: String, clientEmail: String, type: String = "service_account",
        privateKey: String? = nil, omit: Set<String> = []
    ) -> (json: Data, keyPEM: String) {
        let pem = privateKey ?? genrsa()
        var obj: [String: String] = [
            "type": type, "project_id": projectId, "private_key_id": "0123456789abcdef0123456789abcdef01234567",
            "private_key": pem, "client_email": clientEmail, "client_id": "123456789012345678901",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
        for k in omit { obj.removeValue(forKey: k) }
        let data = try! JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
        return (data, pem)
    }

    static func write(_ data: Data, to url: URL, mode: Int = 0o600) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    static let day: TimeInterval = 86400
}

/// The system `openssl`, which the fixtures use to make keys and .p12 bundles (the product no longer runs it).
let opensslPath: String = ChildProcess.locate("openssl", searchPath: ProcessInfo.processInfo.environment["PATH"])!
