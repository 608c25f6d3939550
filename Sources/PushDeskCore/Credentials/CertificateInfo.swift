import Crypto
import Foundation
import SwiftASN1
import X509

/// Which APNs environment a push certificate may connect to.
public enum PushCertificateEnvironment: String, Sendable, Equatable {
    /// Development (sandbox) only: "Apple Development IOS Push Services".
    case development
    /// Production only: "Apple Production IOS Push Services".
    case production
    /// Both: the "Apple Push Services" certificates Apple has issued since 2015.
    case universal
    /// Neither Apple's push extensions nor a push subject: not an APNs certificate.
    case unknown

    public func allows(_ env: IOSEnvironment) -> Bool {
        switch (self, env) {
        case (.universal, _), (.development, .sandbox), (.production, .production): true
        default: false
        }
    }

    /// What the console and `credentials check` show.
    public var label: String {
        switch self {
        case .development: "development (sandbox only)"
        case .production: "production only"
        case .universal: "sandbox and production"
        case .unknown: "not an APNs push certificate"
        }
    }
}

/// What PushDesk shows about an APNs client certificate, read from the certificate itself.
///
/// Apple's push certificates (Apple WWDR CPS; see docs/RULES.md) carry:
/// - subject `UID=<bundle id>, CN=Apple Push Services: <bundle id>, OU=<team id>, …`
///   (older ones: `Apple Development IOS Push Services: …` / `Apple Production IOS Push Services: …`);
/// - extension 1.2.840.113635.100.6.3.1 when valid for development (sandbox) and
///   1.2.840.113635.100.6.3.2 when valid for production (universal certificates have both);
/// - extension 1.2.840.113635.100.6.3.6: the topics (bundle id, `.voip`, `.complication`).
public struct CertificateInfo: Sendable, Equatable {
    public static let developmentOID: ASN1ObjectIdentifier = "1.2.840.113635.100.6.3.1"
    public static let productionOID: ASN1ObjectIdentifier = "1.2.840.113635.100.6.3.2"
    public static let topicsOID: ASN1ObjectIdentifier = "1.2.840.113635.100.6.3.6"
    static let uidOID: ASN1ObjectIdentifier = "0.9.2342.19200300.100.1.1"

    public var subject: String
    public var issuer: String
    /// Hex bytes, colon-separated.
    public var serial: String
    /// SHA-256 of the DER certificate, colon-separated uppercase hex (as openssl prints it).
    public var sha256Fingerprint: String
    public var notValidBefore: Date
    public var notValidAfter: Date
    /// Bundle ids (and `.voip`/`.complication` topics) the certificate may push to.
    public var topics: [String]
    public var environment: PushCertificateEnvironment

    public init(derEncoded der: [UInt8]) throws {
        try self.init(certificate: Certificate(derEncoded: der), der: der)
    }

    public init(certificate cert: Certificate, der: [UInt8]) {
        subject = Self.format(cert.subject)
        issuer = Self.format(cert.issuer)
        serial = CredentialText.colonHex(cert.serialNumber.bytes)
        sha256Fingerprint = CredentialText.colonHex(SHA256.hash(data: der))
        notValidBefore = cert.notValidBefore
        notValidAfter = cert.notValidAfter

        let hasDev = cert.extensions.contains { $0.oid == Self.developmentOID }
        let hasProd = cert.extensions.contains { $0.oid == Self.productionOID }
        let cn = Self.values(of: .RDNAttributeType.commonName, in: cert.subject).first ?? ""
        switch (hasDev, hasProd) {
        case (true, true): environment = .universal
        case (true, false): environment = .development
        case (false, true): environment = .production
        case (false, false):
            // Certificates without the extensions: fall back on the subject's common name.
            if cn.hasPrefix("Apple Development IOS Push Services:") {
                environment = .development
            } else if cn.hasPrefix("Apple Production IOS Push Services:") {
                environment = .production
            } else if cn.hasPrefix("Apple Push Services:") {
                environment = .universal
            } else {
                environment = .unknown
            }
        }

        var topics: [String] = []
        if let ext = cert.extensions.first(where: { $0.oid == Self.topicsOID }) {
            topics = Self.parseTopics(ext.value)
        }
        if topics.isEmpty {
            // No topics extension: the subject's UID is the bundle id, else the CN's tail.
            topics = Self.values(of: Self.uidOID, in: cert.subject)
            if topics.isEmpty, let colon = cn.firstIndex(of: ":"), cn.hasPrefix("Apple") {
                let tail = cn[cn.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if !tail.isEmpty { topics = [tail] }
            }
        }
        self.topics = topics
    }

    /// The topics extension is a SEQUENCE alternating a topic (UTF8String) with a SEQUENCE
    /// naming its kind (`app`, `voip`, `complication`); only the strings are topics.
    static func parseTopics(_ value: ArraySlice<UInt8>) -> [String] {
        guard let root = try? DER.parse(value), case .constructed(let children) = root.content else { return [] }
        return children.compactMap { node in
            guard
                node.identifier == .utf8String || node.identifier == .ia5String
                    || node.identifier == .printableString,
                case .primitive(let bytes) = node.content
            else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func values(of oid: ASN1ObjectIdentifier, in name: DistinguishedName) -> [String] {
        name.flatMap { rdn in rdn.filter { $0.type == oid }.map { String($0.value) ?? $0.value.description } }
    }

    /// `UID=…, CN=…, OU=…, O=…, C=…` in the certificate's own order (as openssl prints it).
    static func format(_ name: DistinguishedName) -> String {
        name.flatMap { rdn in
            rdn.map { attr -> String in
                let key: String
                switch attr.type {
                case .RDNAttributeType.commonName: key = "CN"
                case .RDNAttributeType.countryName: key = "C"
                case .RDNAttributeType.organizationName: key = "O"
                case .RDNAttributeType.organizationalUnitName: key = "OU"
                case .RDNAttributeType.localityName: key = "L"
                case .RDNAttributeType.stateOrProvinceName: key = "ST"
                case uidOID: key = "UID"
                default: key = attr.type.description
                }
                return key + "=" + (String(attr.value) ?? attr.value.description)
            }
        }.joined(separator: ", ")
    }
}
