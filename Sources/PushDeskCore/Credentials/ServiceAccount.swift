import Crypto
import Foundation
import _CryptoExtras

/// A Firebase service-account key file (FCM HTTP v1), as downloaded from the Firebase
/// console: `type`, `project_id`, `private_key_id`, `private_key`, `client_email`, …
/// Only the non-secret fields are kept; the private key is parsed to prove it is an RSA
/// key and then dropped.
public struct ServiceAccount: Sendable, Equatable {
    public static let requiredFields = ["type", "project_id", "private_key_id", "private_key", "client_email"]

    public var type: String?
    public var projectId: String?
    public var clientEmail: String?
    public var privateKeyId: String?
    /// Names of required fields that are absent or not non-empty strings.
    public var missingFields: [String]
    /// RSA modulus size; nil when the private key is absent or not an RSA key.
    public var keyBits: Int?
    /// SHA-256 of the public key (DER), nil when the key did not load.
    public var publicKeyFingerprint: String?

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case fileNotFound(String)
        /// Not a regular file, too large or unreadable: what it is.
        case unreadable(String)
        case notJSON
        public var description: String {
            switch self {
            case .fileNotFound(let path): "file not found: \(path)"
            case .unreadable(let why): why
            // Never quote the parser's error: it may cite text around the private key.
            case .notJSON:
                "not a JSON object; download the service-account key again from the Firebase console (Project settings › Service accounts)"
            }
        }
    }

    public init(json data: Data) throws {
        guard let obj = try? JSONSerialization.jsonObject(with: data), let dict = obj as? [String: Any] else {
            throw Failure.notJSON
        }
        func field(_ k: String) -> String? {
            guard let s = dict[k] as? String, !s.isEmpty else { return nil }
            return s
        }
        type = field("type")
        projectId = field("project_id")
        clientEmail = field("client_email")
        privateKeyId = field("private_key_id")
        missingFields = Self.requiredFields.filter { field($0) == nil }
        if let pem = field("private_key"), let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) {
            keyBits = key.keySizeInBits
            publicKeyFingerprint = CredentialText.colonHex(SHA256.hash(data: key.publicKey.derRepresentation))
        }
    }

    public var hasPrivateKey: Bool { !missingFields.contains("private_key") }

    public static func load(file: URL, shownAs path: String) throws -> ServiceAccount {
        let data: Data
        do {
            guard let d = try SafeFile.readFile(file.path, maxBytes: 1 << 20, shownAs: path) else {
                throw Failure.fileNotFound(path)
            }
            data = d
        } catch let r as SafeFile.Refusal { throw Failure.unreadable(r.message) }
        return try ServiceAccount(json: data)
    }
}
