import Foundation
import NIOSSL

/// Reads the certificates out of a PKCS#12 (.p12) bundle with swift-nio-ssl (BoringSSL's
/// `PKCS12_parse`) — the same reader `pushdesk send` uses for the TLS client identity, so a
/// .p12 is read one way everywhere. No child process: the password stays in this process.
public struct PKCS12Reader: Sendable {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The MAC check failed: the password is not the bundle's.
        case wrongPassword
        /// Not a PKCS#12 bundle, or one without a certificate.
        case unreadable(String)

        public var description: String {
            switch self {
            case .wrongPassword:
                "the password does not open this .p12 bundle; set the right one in the secret named by passwordRef"
            case .unreadable(let why): why
            }
        }
    }

    public init() {}

    /// DER bytes of the bundle's certificates: the client certificate (the one matching the
    /// private key) first, then the rest of the chain in file order.
    public func certificates(file: URL, password: SecretValue) throws -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw Failure.unreadable("cannot read the file")
        }
        do {
            let (chain, _) = try ClientIdentity.read([UInt8](data), password: password, shownAs: file.lastPathComponent)
            let der = try chain.map { try $0.toDERBytes() }
            guard !der.isEmpty else { throw Failure.unreadable("the .p12 bundle holds no certificate") }
            return der
        } catch let f as CredentialFailure {
            if f.rule == CredentialRules.certificatePassword.id { throw Failure.wrongPassword }
            throw Failure.unreadable("not a readable PKCS#12 (.p12) bundle")
        }
    }
}
