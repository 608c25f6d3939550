import Crypto
import Foundation
import SwiftASN1
import X509

/// The certificate `pushdesk listen` serves (docs/LISTEN.md): the operator's own (`--cert`,
/// `--key`), or one issued by PushDesk's local CA in `STORE/.pushdesk/listen/` — P-256, made
/// on first use and reused, its key mode 0600, never committed (`.pushdesk/` is git-ignored).
/// The server certificate names `localhost`, `127.0.0.1`, `::1` and every `--name`, has the
/// `serverAuth` extended key usage and a SHA-256 signature (what iOS requires of a server
/// certificate), is valid 30 days and is issued again when the names change or it runs out.
public struct ListenIdentity: Sendable {
    /// Server certificate first, then its issuer.
    public var chainPEM: [String]
    public var keyPEM: String
    /// The local CA's file and SHA-256 fingerprint; nil with `--cert`.
    public var caFile: URL?
    public var caFingerprint: String?
    /// Whether the server certificate was issued just now.
    public var issued: Bool
}

public enum ListenCertificates {
    public static let directory = ".pushdesk/listen"
    public static let validity: TimeInterval = 30 * 24 * 3600
    public static let defaultNames = ["localhost", "127.0.0.1", "::1"]

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The operator's certificate chain and key (PEM), checked to be readable and to match.
    public static func operatorIdentity(certificate: URL, key: URL) throws -> ListenIdentity {
        let certText: String
        let keyText: String
        do {
            certText = try String(contentsOf: certificate, encoding: .utf8)
            keyText = try String(contentsOf: key, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot read the certificate or key: \(error.localizedDescription)")
        }
        let pems = certText.components(separatedBy: "-----END CERTIFICATE-----").compactMap { part -> String? in
            guard let start = part.range(of: "-----BEGIN CERTIFICATE-----") else { return nil }
            return String(part[start.lowerBound...]) + "-----END CERTIFICATE-----\n"
        }
        guard let first = pems.first, let leaf = try? Certificate(pemEncoded: first) else {
            throw Failure(
                description: "\(certificate.path): no PEM certificate (-----BEGIN CERTIFICATE-----) could be read")
        }
        guard let privateKey = try? Certificate.PrivateKey(pemEncoded: keyText) else {
            throw Failure(description: "\(key.path): no PEM private key could be read (P-256, P-384 or RSA)")
        }
        guard privateKey.publicKey == leaf.publicKey else {
            throw Failure(description: "\(key.path) is not the key of \(certificate.path): give the matching pair")
        }
        return ListenIdentity(chainPEM: pems, keyPEM: keyText, caFile: nil, caFingerprint: nil, issued: false)
    }

    /// The local CA's identity for `names` (besides the defaults), reusing what is on disk.
    public static func localIdentity(storeRoot: URL, names: [String], now: Date = Date()) throws -> ListenIdentity {
        let dir = storeRoot.appendingPathComponent(directory)
        do {
            try FileManager.default.createDirectory(
                at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(description: "\(directory): cannot create: \(error.localizedDescription)")
        }
        let ca = try loadOrMakeCA(dir, now: now)
        let wanted = try sanNames(defaultNames + names)
        let serverFile = dir.appendingPathComponent("server.pem")
        let serverKeyFile = dir.appendingPathComponent("server-key.pem")
        var issued = false
        var leafPEM = try? String(contentsOf: serverFile, encoding: .utf8)
        var leafKeyPEM = try? String(contentsOf: serverKeyFile, encoding: .utf8)
        if !stillGood(leafPEM, key: leafKeyPEM, ca: ca.certificate, names: wanted, now: now) {
            let key = P256.Signing.PrivateKey()
            let leaf = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                notValidBefore: now - 300, notValidAfter: now + validity, issuer: ca.certificate.subject,
                subject: try DistinguishedName { CommonName("PushDesk listen") }, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(wanted)
                }, issuerPrivateKey: .init(ca.key))
            leafPEM = try leaf.serializeAsPEM().pemString + "\n"
            leafKeyPEM = key.pemRepresentation + "\n"
            try write(leafKeyPEM!, serverKeyFile, mode: 0o600)
            try write(leafPEM!, serverFile, mode: 0o644)
            issued = true
        }
        return ListenIdentity(
            chainPEM: [leafPEM!, ca.pem], keyPEM: leafKeyPEM!, caFile: dir.appendingPathComponent("ca.pem"),
            caFingerprint: fingerprint(ca.certificate), issued: issued)
    }

    /// SHA-256 of the certificate's DER, as `AB:CD:…` (what Keychain Access and openssl show).
    public static func fingerprint(_ c: Certificate) -> String {
        var s = DER.Serializer()
        try? s.serialize(c)
        return SHA256.hash(data: s.serializedBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    // MARK: the CA

    struct CA {
        var certificate: Certificate
        var key: P256.Signing.PrivateKey
        var pem: String
    }

    static func loadOrMakeCA(_ dir: URL, now: Date) throws -> CA {
        let certFile = dir.appendingPathComponent("ca.pem")
        let keyFile = dir.appendingPathComponent("ca-key.pem")
        if let pem = try? String(contentsOf: certFile, encoding: .utf8),
            let keyText = try? String(contentsOf: keyFile, encoding: .utf8)
        {
            guard let cert = try? Certificate(pemEncoded: pem),
                let key = try? P256.Signing.PrivateKey(pemRepresentation: keyText),
                Certificate.PublicKey(key.publicKey) == cert.publicKey
            else {
                throw Failure(
                    description:
                        "\(directory)/ca.pem and ca-key.pem cannot be read as a matching P-256 pair; delete both to make a new CA (devices that trusted the old one must trust the new one)"
                )
            }
            if cert.notValidAfter > now { return CA(certificate: cert, key: key, pem: pem) }
        }
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CommonName("PushDesk listen CA (\(ProcessIdentity.user)@\(ProcessIdentity.host))")
            OrganizationName("PushDesk")
        }
        let cert = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now - 300,
            notValidAfter: now + 10 * 365 * 24 * 3600, issuer: subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: .init(key.publicKey))
            }, issuerPrivateKey: .init(key))
        let pem = try cert.serializeAsPEM().pemString + "\n"
        try write(key.pemRepresentation + "\n", keyFile, mode: 0o600)
        try write(pem, certFile, mode: 0o644)
        return CA(certificate: cert, key: key, pem: pem)
    }

    /// Whether the server certificate on disk can be served again: issued by this CA, for
    /// exactly these names, with its key, and valid for at least another day.
    static func stillGood(
        _ pem: String?, key: String?, ca: Certificate, names: [GeneralName], now: Date
    ) -> Bool {
        guard let pem, let key, let cert = try? Certificate(pemEncoded: pem),
            let k = try? P256.Signing.PrivateKey(pemRepresentation: key),
            Certificate.PublicKey(k.publicKey) == cert.publicKey, cert.issuer == ca.subject,
            ca.publicKey.isValidSignature(cert.signature, for: cert),
            cert.notValidBefore <= now, cert.notValidAfter > now + 24 * 3600,
            let sans = try? cert.extensions.subjectAlternativeNames
        else { return false }
        return Set(sans.map { "\($0)" }) == Set(names.map { "\($0)" })
    }

    /// DNS names and IP addresses (v4 and v6) as subject alternative names, each once.
    static func sanNames(_ names: [String]) throws -> [GeneralName] {
        var out: [GeneralName] = []
        var seen: Set<String> = []
        for n in names where seen.insert(n.lowercased()).inserted {
            if let bytes = ipBytes(n) {
                out.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))))
            } else if isDNSName(n) {
                out.append(.dnsName(n.lowercased()))
            } else {
                throw Failure(description: "--name \(Escape.inline(n)) is neither a DNS name nor an IP address")
            }
        }
        return out
    }

    static func ipBytes(_ s: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, s, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, s, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    static func isDNSName(_ s: String) -> Bool {
        guard !s.isEmpty, s.utf8.count <= 253 else { return false }
        return s.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy {
                    ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
                }
        }
    }

    static func write(_ text: String, _ url: URL, mode: mode_t) throws {
        do { try AtomicFile.write(Array(text.utf8), to: url, mode: mode) } catch {
            throw Failure(description: "\(directory)/\(url.lastPathComponent): cannot write: \(error)")
        }
    }
}
