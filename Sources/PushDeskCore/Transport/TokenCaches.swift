import Crypto
import Foundation
import _CryptoExtras

/// Provider tokens of one run (docs/SENDING.md): one per key, reused for up to 50 minutes, a new
/// one signed at most once per 20 minutes — except right after `ExpiredProviderToken`.
/// In memory only.
public final class APNsTokenCache: @unchecked Sendable {
    public static let reuseFor: TimeInterval = 50 * 60
    public static let minimumInterval: TimeInterval = 20 * 60
    private let lock = NSLock()
    private var tokens: [String: APNsProviderToken] = [:]
    /// How many tokens this cache signed (the send tests count them).
    public private(set) var signings = 0

    public init() {}

    /// The token for this key at `now`; `expired` is the token APNs just called expired.
    public func token(
        keyId: String, teamId: String, key: APNsAuthKey, now: Date, expired: APNsProviderToken? = nil
    ) throws -> APNsProviderToken {
        lock.lock()
        defer { lock.unlock() }
        let id = teamId + ":" + keyId
        if let t = tokens[id] {
            let age = now.timeIntervalSince(t.issuedAt)
            let renewAllowed = age >= Self.minimumInterval
            let forced = expired.map { $0.issuedAt == t.issuedAt } ?? false
            if !forced && (age < Self.reuseFor || !renewAllowed) { return t }
        }
        let t = try APNsProviderToken(keyId: keyId, teamId: teamId, key: key, issuedAt: now)
        signings += 1
        tokens[id] = t
        return t
    }
}

/// A Google OAuth 2.0 access token (FCM HTTP v1), redacted when printed.
public struct GoogleAccessToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String
    public let expires: Date
    public var description: String { "Bearer " + String(value.prefix(6)) + "…" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["token": description]) }
    /// Only for the code that sends.
    var authorizationHeaderValue: String { "Bearer " + value }
}

/// Access tokens of one run: one per service account, reused until 60 s before it expires.
public final class GoogleTokenCache: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String: GoogleAccessToken] = [:]
    /// How many grants were asked for.
    public private(set) var grants = 0

    public init() {}

    func cached(_ account: GoogleServiceAccountKey, now: Date) -> GoogleAccessToken? {
        lock.lock()
        defer { lock.unlock() }
        guard let t = tokens[account.clientEmail + account.tokenURI], now < t.expires.addingTimeInterval(-60) else {
            return nil
        }
        return t
    }

    func store(_ t: GoogleAccessToken, for account: GoogleServiceAccountKey) {
        lock.lock()
        defer { lock.unlock() }
        grants += 1
        tokens[account.clientEmail + account.tokenURI] = t
    }

    /// The RS256 assertion of the JWT bearer grant (RFC 7523), `exp` = `iat` + 3600.
    static func assertion(_ account: GoogleServiceAccountKey, now: Date) throws -> String {
        let iat = Int(now.timeIntervalSince1970)
        let header = JSONValue.object([("alg", .string("RS256")), ("typ", .string("JWT"))])
        let claims = JSONValue.object([
            ("iss", .string(account.clientEmail)),
            ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
            ("aud", .string(account.tokenURI)), ("iat", .int(iat)), ("exp", .int(iat + 3600)),
        ])
        let input =
            CredentialText.base64url(Array(header.compact.utf8)) + "."
            + CredentialText.base64url(Array(claims.compact.utf8))
        let signature = try account.privateKey.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + CredentialText.base64url(Array(signature.rawRepresentation))
    }
}
