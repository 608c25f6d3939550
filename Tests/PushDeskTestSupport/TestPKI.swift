import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A test certificate authority made in the test (swift-certificates): a CA and leaf
/// certificates for 127.0.0.1, server or client.
public struct TestPKI {
    public struct Identity {
        public var certificate: NIOSSLCertificate
        public var key: NIOSSLPrivateKey
        public var certificatePEM: String
        public var keyPEM: String
    }
    public let caKey = P256.Signing.PrivateKey()
    public let caCertificate: Certificate
    public let caPEM: String

    public init(name: String = "PushDesk Test CA") throws {
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        caCertificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600 * 24, issuer: subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            }, issuerPrivateKey: .init(caKey))
        caPEM = try caCertificate.serializeAsPEM().pemString
    }

    public var caNIO: NIOSSLCertificate { try! NIOSSLCertificate(bytes: Array(caPEM.utf8), format: .pem) }

    /// A leaf for 127.0.0.1 / localhost; `client` makes a TLS client certificate.
    public func issue(client: Bool = false, commonName: String = "127.0.0.1") throws -> Identity {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let cert = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600 * 24, issuer: caCertificate.subject,
            subject: try DistinguishedName { CommonName(commonName) }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([client ? .clientAuth : .serverAuth])
                SubjectAlternativeNames([
                    .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost"),
                ])
            }, issuerPrivateKey: .init(caKey))
        let certPEM = try cert.serializeAsPEM().pemString
        return Identity(
            certificate: try NIOSSLCertificate(bytes: Array(certPEM.utf8), format: .pem),
            key: try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem),
            certificatePEM: certPEM, keyPEM: key.pemRepresentation)
    }
}
