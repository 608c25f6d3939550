import Crypto
import Foundation
import NIOSSL
import _CryptoExtras

/// A credential read for sending (docs/SENDING.md). Keys live in memory only.
public enum PushCredential: Sendable {
    /// APNs token auth: the .p8 key signs provider tokens.
    case apnsToken(keyId: String, teamId: String, key: APNsAuthKey, file: String)
    /// APNs certificate auth: TLS client identity from the .p12 (or PEM with key).
    case apnsCertificate(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey, file: String)
    /// FCM HTTP v1: the service account signs OAuth grants.
    case fcm(GoogleServiceAccountKey)

    /// Identifies the credential for connection sharing (one connection per host and credential).
    var identity: String {
        switch self {
        case .apnsToken(let keyId, let teamId, _, let file): "token:\(teamId):\(keyId):\(file)"
        case .apnsCertificate(_, _, let file): "certificate:\(file)"
        case .fcm(let k): "fcm:\(k.clientEmail):\(k.file)"
        }
    }
}

/// A credential that cannot be read or used: the target ends `failed` with `rule` as its reason.
public struct CredentialFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var rule: String
    public var message: String
    public var description: String { message }
}

/// The service-account fields sending needs (`ServiceAccount` keeps only the non-secret ones).
public struct GoogleServiceAccountKey: Sendable {
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"
    public var clientEmail: String
    public var tokenURI: String
    public var projectId: String
    let privateKey: _RSA.Signing.PrivateKey
    let file: String

    public init(json data: Data, file: String) throws {
        guard let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CredentialFailure(
                rule: CredentialRules.serviceAccountUnreadable.id, message: "\(file): not a JSON object")
        }
        guard let email = obj["client_email"] as? String, !email.isEmpty, let pem = obj["private_key"] as? String,
            !pem.isEmpty
        else {
            throw CredentialFailure(
                rule: CredentialRules.serviceAccountFields.id,
                message: "\(file): client_email or private_key is missing")
        }
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem), key.keySizeInBits >= 2048 else {
            throw CredentialFailure(
                rule: CredentialRules.serviceAccountKey.id,
                message: "\(file): private_key is not an RSA key of 2048 bits or more")
        }
        clientEmail = email
        privateKey = key
        projectId = obj["project_id"] as? String ?? ""
        tokenURI = (obj["token_uri"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultTokenURI
        self.file = file
    }
}

public enum CredentialLoader {
    /// Reads the app's credential. Paths are relative to the store unless absolute; the .p12
    /// password comes from its secret (docs/SECRETS.md).
    public static func load(_ app: MobileApp, storeRoot: URL, secrets: SecretStore) throws -> PushCredential {
        func resolve(_ path: String) -> URL {
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : storeRoot.appendingPathComponent(path)
        }
        switch app {
        case .ios(let a):
            switch a.auth {
            case nil:
                throw CredentialFailure(rule: ServiceRules.authMissing.id, message: "the app has no credentials")
            case .token(let keyId, let teamId, let keyFile, _, _):
                if let f = CredentialRules.tokenIDs(
                    keyId: keyId, teamId: teamId, keyIdAt: .init(file: "", field: ""),
                    teamIdAt: .init(file: "", field: "")
                ).first {
                    throw CredentialFailure(rule: f.rule, message: f.message)
                }
                do {
                    let key = try APNsAuthKey.load(file: resolve(keyFile), shownAs: keyFile)
                    return .apnsToken(keyId: keyId, teamId: teamId, key: key, file: keyFile)
                } catch let f as APNsAuthKey.Failure {
                    throw CredentialFailure(rule: CredentialRules.tokenKey.id, message: f.description)
                }
            case .certificate(let file, let passwordRef):
                let password: SecretValue
                do { password = passwordRef.isEmpty ? SecretValue("") : try secrets.read(passwordRef) } catch {
                    throw CredentialFailure(
                        rule: CredentialRules.secretMissing.id,
                        message: "the secret \(passwordRef) (the .p12 password) is missing")
                }
                guard let data = FileManager.default.contents(atPath: resolve(file).path) else {
                    throw CredentialFailure(
                        rule: CredentialRules.certificateUnreadable.id, message: "file not found: \(file)")
                }
                let (chain, key) = try ClientIdentity.read([UInt8](data), password: password, shownAs: file)
                return .apnsCertificate(chain: chain, key: key, file: file)
            }
        case .android(let a):
            switch a.auth {
            case .serviceAccount(_, _, let keyFile):
                guard let data = FileManager.default.contents(atPath: resolve(keyFile).path) else {
                    throw CredentialFailure(
                        rule: CredentialRules.serviceAccountUnreadable.id, message: "file not found: \(keyFile)")
                }
                return .fcm(try GoogleServiceAccountKey(json: data, file: keyFile))
            case .serverKey:
                throw CredentialFailure(
                    rule: CredentialRules.fcmLegacyAPI.id, message: "the legacy FCM API is shut down")
            case nil:
                throw CredentialFailure(rule: ServiceRules.authMissing.id, message: "the app has no credentials")
            }
        }
    }
}

/// A TLS client identity: PKCS#12 read by swift-nio-ssl (BoringSSL), or a PEM file holding
/// the certificate and its key. One reader for sending and `credentials check`.
public enum ClientIdentity {
    public static func read(_ bytes: [UInt8], password: SecretValue, shownAs file: String) throws -> (
        [NIOSSLCertificate], NIOSSLPrivateKey
    ) {
        if CertificateFile.format(of: Data(bytes)) == .pem {
            do {
                let chain = try NIOSSLCertificate.fromPEMBytes(bytes)
                let key = try NIOSSLPrivateKey(bytes: bytes, format: .pem)
                guard !chain.isEmpty else {
                    throw CredentialFailure(rule: CredentialRules.certificateUnreadable.id, message: "")
                }
                return (chain, key)
            } catch {
                throw CredentialFailure(
                    rule: CredentialRules.certificateUnreadable.id,
                    message: "\(file): a PEM client identity needs a CERTIFICATE block and its PRIVATE KEY")
            }
        }
        do {
            let bundle = try NIOSSLPKCS12Bundle(buffer: bytes, passphrase: password.bytes)
            return (bundle.certificateChain, bundle.privateKey)
        } catch {
            // BoringSSL says PKCS8_R_INCORRECT_PASSWORD when the MAC check fails.
            if "\(error)".uppercased().contains("INCORRECT_PASSWORD") {
                throw CredentialFailure(
                    rule: CredentialRules.certificatePassword.id, message: "the password does not open \(file)")
            }
            throw CredentialFailure(
                rule: CredentialRules.certificateUnreadable.id, message: "\(file) is not a readable PKCS#12 bundle")
        }
    }
}
