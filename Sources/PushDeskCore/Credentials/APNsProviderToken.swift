import Crypto
import Foundation

/// An APNs token-auth signing key: the `.p8` file Apple hands out once (PKCS#8, P-256).
public struct APNsAuthKey: Sendable {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case fileNotFound(String)
        /// Not a regular file, too large or unreadable: what it is.
        case unreadable(String)
        case notPKCS8(String)
        case notP256

        public var description: String {
            switch self {
            case .fileNotFound(let path): "file not found: \(path)"
            case .unreadable(let why): why
            case .notPKCS8(let what):
                "not a PKCS#8 .p8 key (\(what)); download the key again from Apple's developer site (Keys)"
            case .notP256: "the key is not a P-256 (ES256) private key; APNs token auth needs the .p8 key Apple issues"
            }
        }
    }

    let privateKey: P256.Signing.PrivateKey

    public init(privateKey: P256.Signing.PrivateKey) { self.privateKey = privateKey }

    /// Parses the text of a .p8 file. Only the PEM label `PRIVATE KEY` (PKCS#8) is accepted:
    /// that is what Apple issues, and what Campaign and other senders expect.
    public init(pem: String) throws {
        let labels = CredentialText.pemLabels(pem)
        guard let first = labels.first else { throw Failure.notPKCS8("no PEM block") }
        guard first == "PRIVATE KEY" else {
            throw Failure.notPKCS8("found a \(Escape.inline(first, limit: .max)) block")
        }
        do { privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch { throw Failure.notP256 }
    }

    public static func load(file: URL, shownAs path: String) throws -> APNsAuthKey {
        let data: Data
        do {
            guard let d = try SafeFile.readFile(file.path, maxBytes: 1 << 20, shownAs: path) else {
                throw Failure.fileNotFound(path)
            }
            data = d
        } catch let r as SafeFile.Refusal { throw Failure.unreadable(r.message) }
        return try APNsAuthKey(pem: String(decoding: data, as: UTF8.self))
    }

    /// SHA-256 of the public key (DER SubjectPublicKeyInfo): identifies the key without
    /// revealing it; `openssl pkey -pubout -outform DER | sha256sum` gives the same bytes.
    public var publicKeyFingerprint: String {
        CredentialText.colonHex(SHA256.hash(data: privateKey.publicKey.derRepresentation))
    }

    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }
}

/// The APNs provider authentication token: a JWT signed with ES256 (header `alg`, `kid`;
/// claims `iss` = Team ID, `iat` = issue time), sent as `authorization: bearer <token>`.
///
/// Its `description` is the redacted form, so interpolating it anywhere shows only
/// `bearer <first 12 chars>…`; the whole token is available only to the code that sends.
public struct APNsProviderToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let keyId: String
    public let teamId: String
    public let issuedAt: Date
    private let token: String

    public init(keyId: String, teamId: String, key: APNsAuthKey, issuedAt: Date) throws {
        self.keyId = keyId
        self.teamId = teamId
        self.issuedAt = issuedAt
        let header = JSONValue.object([("alg", .string("ES256")), ("kid", .string(keyId))])
        let claims = JSONValue.object([("iss", .string(teamId)), ("iat", .int(Int(issuedAt.timeIntervalSince1970)))])
        let signingInput =
            CredentialText.base64url(Array(header.compact.utf8)) + "."
            + CredentialText.base64url(Array(claims.compact.utf8))
        // JWS ES256 wants the raw 64-byte r||s form, not DER.
        let signature = try key.privateKey.signature(for: Data(signingInput.utf8)).rawRepresentation
        token = signingInput + "." + CredentialText.base64url(signature)
    }

    /// `bearer eyJhbGciOiJF…` — what previews, the console and logs show.
    public var redacted: String { "bearer " + String(token.prefix(12)) + "…" }

    /// The full header value. Only for the code that actually talks to APNs; never print it.
    public var authorizationHeaderValue: String { "bearer " + token }

    public var description: String { redacted }
    public var debugDescription: String { redacted }
    public var customMirror: Mirror { Mirror(self, children: ["keyId": keyId, "teamId": teamId, "token": redacted]) }
}
