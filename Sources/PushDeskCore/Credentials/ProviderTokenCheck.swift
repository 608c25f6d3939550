import Crypto
import Foundation

/// `pushdesk credentials check-jwt` (docs/CREDENTIALS.md): an APNs provider token checked offline
/// against the store's token-auth apps, as Apple's console validator does when APNs answers
/// `InvalidProviderToken`. The token is a credential: no finding, header or claim printed
/// from here holds it or its signature.
public struct ProviderTokenCheck: Sendable {
    /// The decoded header and claims (nil when that part is no JSON object).
    public var header: JSONValue?
    public var claims: JSONValue?
    public var findings: [Finding] = []

    /// A token longer than this is refused unread (Apple's are about 200 bytes).
    public static let maxBytes = 16 * 1024
    /// Apple refuses a token older than an hour; PushDesk renews at 50 minutes.
    public static let maxAge = 3600
    public static let ageingAfter = 3000
    public static let futureSlack = 60

    public static let format = Rule(
        "jwt.format", .error, .credential, "not three base64url parts of JSON objects, or over 16 KB")
    public static let alg = Rule("jwt.alg", .error, .credential, "the header's alg is not ES256")
    public static let kid = Rule("jwt.kid", .error, .credential, "the header's kid is not 10 characters")
    public static let iss = Rule("jwt.iss", .error, .credential, "the claims' iss is not 10 characters")
    public static let future = Rule("jwt.future", .error, .credential, "iat is more than 60 s ahead of now")
    public static let expired = Rule(
        "jwt.expired", .error, .credential, "iat is older than 3600 s: Apple refuses the token")
    public static let team = Rule(
        "jwt.team", .error, .credential, "the app with the token's Key ID has another Team ID than iss")
    public static let signature = Rule(
        "jwt.signature", .error, .credential, "the signature does not verify with that app's .p8 key")
    public static let ageing = Rule(
        "jwt.ageing", .warning, .credential, "iat is older than 3000 s: renew the token before the hour")
    public static let unknownKey = Rule(
        "jwt.unknown-key", .warning, .credential, "no app of the store has the token's Key ID")

    public static let all: [Rule] = [format, alg, kid, iss, future, expired, team, signature, ageing, unknownKey]

    public var hasErrors: Bool { findings.hasErrors }

    /// Checks `bytes` (as read; surrounding white space and a `bearer ` prefix are ignored)
    /// against `services`' token-auth apps, reading their `.p8` keys under `storeRoot`.
    public static func check(_ bytes: [UInt8], services: [Service], storeRoot: URL, now: Date) -> ProviderTokenCheck {
        var out = ProviderTokenCheck()
        func add(_ rule: Rule, _ field: FieldPath, _ message: String) {
            out.findings.append(rule.finding(message, field: field))
        }
        guard bytes.count <= maxBytes else {
            add(
                format, .none,
                "the token is over \(maxBytes / 1024) KB (an APNs provider token is about 200 bytes); paste the value of the authorization header after `bearer `"
            )
            return out
        }
        var text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.lowercased().hasPrefix("bearer ") {
            text = String(text.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            add(
                format, .none,
                "the token has \(parts.count) part\(parts.count == 1 ? "" : "s") separated by `.`; a JWT has three (header.claims.signature): paste it whole"
            )
            return out
        }
        func object(_ part: Substring, _ what: String) -> JSONValue? {
            guard let data = CredentialText.base64urlDecode(String(part)) else {
                add(format, FieldPath(what), "the \(what) part is not base64url; paste the token whole")
                return nil
            }
            guard let v = try? JSONReader.object([UInt8](data)), case .object = v else {
                add(format, FieldPath(what), "the \(what) part is not a JSON object; this is no APNs provider token")
                return nil
            }
            return v
        }
        out.header = object(parts[0], "header")
        out.claims = object(parts[1], "claims")
        guard let header = out.header, let claims = out.claims else { return out }
        guard let signatureBytes = CredentialText.base64urlDecode(String(parts[2])) else {
            add(format, "signature", "the signature part is not base64url; paste the token whole")
            return out
        }

        let algValue = header["alg"].flatMap(Self.string)
        if algValue != "ES256" {
            add(
                alg, FieldPath("header", "alg"),
                "alg is \(algValue.map { "\"\(Escape.inline($0))\"" } ?? "missing"); APNs takes ES256 tokens only (sign with the .p8 key, P-256)"
            )
        }
        let keyId = header["kid"].flatMap(Self.string) ?? ""
        if keyId.count != 10 {
            add(
                kid, FieldPath("header", "kid"),
                "kid \(keyId.isEmpty ? "is missing" : "\"\(Escape.inline(keyId))\" has \(keyId.count) characters"); it is the 10-character Key ID of the .p8 key (developer account, Keys)"
            )
        }
        let teamId = claims["iss"].flatMap(Self.string) ?? ""
        if teamId.count != 10 {
            add(
                iss, FieldPath("claims", "iss"),
                "iss \(teamId.isEmpty ? "is missing" : "\"\(Escape.inline(teamId))\" has \(teamId.count) characters"); it is the 10-character Team ID (developer account, Membership)"
            )
        }
        if case .number(let n)? = claims["iat"], let iat = Int(n) {
            let age = Int(now.timeIntervalSince1970.rounded(.down)) - iat
            if -age > futureSlack {
                add(
                    future, FieldPath("claims", "iat"),
                    "iat is \(-age) s ahead of this machine's clock: APNs refuses a token from the future; check the signing machine's clock (timedatectl)"
                )
            } else if age > maxAge {
                add(
                    expired, FieldPath("claims", "iat"),
                    "the token was signed \(age / 60) minutes ago: APNs refuses tokens older than an hour (ExpiredProviderToken); sign a new one at least every 50 minutes"
                )
            } else if age > ageingAfter {
                out.findings.append(
                    ageing.finding(
                        "the token was signed \(age / 60) minutes ago: it expires at 60; renew it (senders renew between 20 and 60 minutes)",
                        field: FieldPath("claims", "iat")))
            }
        } else {
            add(
                format, FieldPath("claims", "iat"),
                "iat is missing or not a whole number of UNIX seconds; an APNs token carries the second it was signed")
        }

        guard keyId.count == 10 else { return out }
        let apps = services.flatMap(\.iosApps).filter {
            if case .token(let k, _, _, _, _)? = $0.auth { return k == keyId }
            return false
        }
        guard let app = apps.first, case .token(_, let appTeam, let keyFile, _, _)? = app.auth else {
            out.findings.append(
                unknownKey.finding(
                    "no app of the store has Key ID \(Escape.inline(keyId)): the team and signature cannot be checked; give the app that sends with this key token auth with keyId=\"\(Escape.inline(keyId))\"",
                    field: FieldPath("header", "kid")))
            return out
        }
        let name = Escape.inline(app.integrationKey)
        if teamId.count == 10, teamId != appTeam {
            add(
                team, FieldPath("claims", "iss"),
                "iss \(Escape.inline(teamId)) is not the Team ID of \(name) (\(Escape.inline(appTeam))), whose key this is: APNs answers InvalidProviderToken; sign with the team that owns the key"
            )
        }
        let url = keyFile.hasPrefix("/") ? URL(fileURLWithPath: keyFile) : storeRoot.appendingPathComponent(keyFile)
        do {
            let key = try APNsAuthKey.load(file: url, shownAs: keyFile)
            let input = Data(parts[0].utf8) + Data(".".utf8) + Data(parts[1].utf8)
            let valid =
                signatureBytes.count == 64
                && (try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)).map {
                    key.publicKey.isValidSignature($0, for: input)
                } == true
            if !valid {
                add(
                    signature, "signature",
                    "the signature does not verify with the key of \(name) (\(Escape.inline(keyFile))): the token was signed with another key, or altered; APNs answers InvalidProviderToken — sign with that .p8"
                )
            }
        } catch let f as APNsAuthKey.Failure {
            out.findings.append(
                CredentialRules.tokenKey.finding(
                    "the signature cannot be checked: \(f.description)",
                    file: "", field: FieldPath("signature")))
        } catch {}
        return out
    }

    private static func string(_ v: JSONValue) -> String? {
        if case .string(let s) = v { return s }
        return nil
    }

    /// `{"header":{…},"claims":{…},"findings":[…]}` (docs/CREDENTIALS.md).
    public var json: JSONValue {
        .object([
            ("header", header ?? .null), ("claims", claims ?? .null),
            ("findings", .array(findings.map(\.json))),
        ])
    }
}
