import Foundation

/// The credential rules (docs/RULES.md, "Credential rules"): pure checks on what the readers
/// found. `CredentialChecker` does the reading and calls these.
public enum CredentialRules {
    public static let expiringWithinDays = 30

    public static let certificateExpired = Rule(
        "certificate.expired", .error, .credential, "now is after the certificate's notAfter")
    public static let certificateExpiring = Rule(
        "certificate.expiring", .warning, .credential, "the certificate's notAfter is less than 30 days away")
    public static let certificateNotYetValid = Rule(
        "certificate.not-yet-valid", .error, .credential, "now is before the certificate's notBefore")
    public static let certificateTopic = Rule(
        "certificate.topic", .error, .credential, "the app's bundle id is not among the certificate's topics")
    public static let certificateEnvironment = Rule(
        "certificate.environment", .error, .credential,
        "the certificate is for the other APNs environment, or not for push")
    public static let certificateShared = Rule(
        "certificate.shared", .error, .credential, "the sandbox and production apps use the same certificate")
    public static let certificatePassword = Rule(
        "certificate.password", .error, .credential, "the password secret does not open the .p12")
    public static let certificateUnreadable = Rule(
        "certificate.unreadable", .error, .credential, "the certificate file is missing or holds no certificate")
    public static let tokenKeyId = Rule(
        "token.key-id", .error, .credential, "the Key ID is not 10 characters A-Z 0-9")
    public static let tokenTeamId = Rule(
        "token.team-id", .error, .credential, "the Team ID is not 10 characters A-Z 0-9")
    public static let tokenKey = Rule(
        "token.key", .error, .credential, "the .p8 key file is missing or not a P-256 PKCS#8 key")
    public static let serviceAccountUnreadable = Rule(
        "service-account.unreadable", .error, .credential, "the service-account file is missing or not a JSON object")
    public static let serviceAccountFields = Rule(
        "service-account.fields", .error, .credential,
        "a required field of the service-account file is missing or empty")
    public static let serviceAccountType = Rule(
        "service-account.type", .error, .credential, "the service-account file's type is not service_account")
    public static let serviceAccountProjectId = Rule(
        "service-account.project-id", .error, .credential, "the app's projectId differs from the file's project_id")
    public static let serviceAccountClientEmail = Rule(
        "service-account.client-email", .error, .credential,
        "the app's clientEmail differs from the file's client_email")
    public static let serviceAccountKey = Rule(
        "service-account.key", .error, .credential, "private_key is not an RSA key of 2048 bits or more")
    public static let secretMissing = Rule(
        "secret.missing", .error, .credential, "a secret the app names is absent")
    public static let secretPermissions = Rule(
        "secret.permissions", .warning, .credential, "a file holding a secret is open to group or others")
    public static let fcmLegacyAPI = Rule(
        "fcm.legacy-api", .warning, .credential, "the Android app authenticates with a legacy server key")

    /// Every credential rule, in the order of docs/RULES.md.
    public static let all: [Rule] = [
        certificateExpired, certificateExpiring, certificateNotYetValid, certificateTopic, certificateEnvironment,
        certificateShared, certificatePassword, certificateUnreadable, tokenKeyId, tokenTeamId, tokenKey,
        tokenEnvironment, tokenTopic,
        serviceAccountUnreadable, serviceAccountFields, serviceAccountType, serviceAccountProjectId,
        serviceAccountClientEmail, serviceAccountKey, secretMissing, secretPermissions, fcmLegacyAPI,
    ]

    /// Where a finding points: the service file and a field of the app.
    public struct Place: Sendable {
        public var file: String
        public var field: FieldPath
        public init(file: String, field: FieldPath) {
            self.file = file
            self.field = field
        }
        func finding(_ rule: Rule, _ message: String) -> Finding {
            rule.finding(message, file: file, field: field)
        }
    }

    /// Validity window: expired and not-yet-valid are errors, expiring within 30 days a warning.
    public static func validity(_ c: CertificateInfo, now: Date, at p: Place) -> [Finding] {
        let after = ISOTime.string(c.notValidAfter)
        let before = ISOTime.string(c.notValidBefore)
        if now > c.notValidAfter {
            return [
                p.finding(
                    certificateExpired,
                    "the certificate expired on \(after); APNs refuses it. Create a new push certificate for this app on Apple's developer site and replace the file"
                )
            ]
        }
        if now < c.notValidBefore {
            return [
                p.finding(
                    certificateNotYetValid,
                    "the certificate is not valid before \(before); check the server clock or use the current certificate"
                )
            ]
        }
        let remaining = c.notValidAfter.timeIntervalSince(now)
        if remaining < Double(expiringWithinDays) * 86400 {
            let days = Int((remaining / 86400).rounded(.up))
            return [
                p.finding(
                    certificateExpiring,
                    "the certificate expires on \(after) (in \(days) day\(days == 1 ? "" : "s")); renew it before then")
            ]
        }
        return []
    }

    /// The app's bundle id must be one of the certificate's topics.
    public static func topic(_ c: CertificateInfo, bundleId: String, at p: Place) -> [Finding] {
        guard !c.topics.contains(bundleId) else { return [] }
        let covered =
            c.topics.isEmpty ? "no topic" : c.topics.map { Escape.inline($0, limit: .max) }.joined(separator: ", ")
        return [
            p.finding(
                certificateTopic,
                "the certificate covers \(covered), not the app's bundle id \(Escape.inline(bundleId, limit: .max)); use the push certificate made for this bundle id"
            )
        ]
    }

    /// A development-only certificate on the production app, or the reverse.
    public static func environment(_ c: CertificateInfo, app env: IOSEnvironment, at p: Place) -> [Finding] {
        guard !c.environment.allows(env) else { return [] }
        let message: String
        switch c.environment {
        case .development:
            message =
                "a development (sandbox) push certificate on the production app: APNs production refuses it; use the production or universal (\"Apple Push Services\") certificate"
        case .production:
            message =
                "a production-only push certificate on the sandbox app: the sandbox APNs refuses it; use the development or universal (\"Apple Push Services\") certificate"
        default:
            message =
                "not an APNs push certificate (no Apple push extension 1.2.840.113635.100.6.3.1/.2 and no push subject); use the certificate Apple issued for push"
        }
        return [p.finding(certificateEnvironment, message)]
    }

    /// Key ID and Team ID: 10 characters A–Z 0–9, as Apple prints them.
    public static func isAppleID(_ s: String) -> Bool {
        s.utf8.count == 10 && s.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) }
    }

    public static func tokenIDs(keyId: String, teamId: String, keyIdAt k: Place, teamIdAt t: Place) -> [Finding] {
        var out: [Finding] = []
        if !isAppleID(keyId) {
            out.append(
                k.finding(
                    tokenKeyId,
                    "Key ID \"\(Escape.inline(keyId, limit: .max))\" is not 10 characters A-Z 0-9; copy it from the key's page on Apple's developer site (it is also in the AuthKey_<KEYID>.p8 file name)"
                ))
        }
        if !isAppleID(teamId) {
            out.append(
                t.finding(
                    tokenTeamId,
                    "Team ID \"\(Escape.inline(teamId, limit: .max))\" is not 10 characters A-Z 0-9; copy it from Membership details on Apple's developer site"
                ))
        }
        return out
    }

    /// The service-account file against the app's own projectId and clientEmail.
    public static func serviceAccount(
        _ a: ServiceAccount, projectId: String, clientEmail: String,
        at p: Place, projectIdAt pp: Place, clientEmailAt cp: Place
    ) -> [Finding] {
        var out: [Finding] = []
        if !a.missingFields.isEmpty {
            out.append(
                p.finding(
                    serviceAccountFields,
                    "the service-account file lacks \(a.missingFields.joined(separator: ", ")); download a new key from the Firebase console (Project settings › Service accounts)"
                ))
        }
        if let type = a.type, type != "service_account" {
            out.append(
                p.finding(
                    serviceAccountType,
                    "the file's type is \"\(Escape.inline(type, limit: .max))\", not \"service_account\"; it is not a service-account key"
                ))
        }
        if let fileProject = a.projectId, fileProject != projectId {
            out.append(
                pp.finding(
                    serviceAccountProjectId,
                    "the app's projectId \"\(Escape.inline(projectId, limit: .max))\" differs from the service account's project_id \"\(Escape.inline(fileProject, limit: .max))\"; FCM sends to the project of the key"
                ))
        }
        if let fileEmail = a.clientEmail, !clientEmail.isEmpty, fileEmail != clientEmail {
            out.append(
                cp.finding(
                    serviceAccountClientEmail,
                    "the app's clientEmail \"\(Escape.inline(clientEmail, limit: .max))\" differs from the service account's client_email \"\(Escape.inline(fileEmail, limit: .max))\""
                ))
        }
        if a.hasPrivateKey && a.keyBits == nil {
            out.append(
                p.finding(
                    serviceAccountKey,
                    "private_key does not load as an RSA private key (PEM, 2048 bits or more); download a new key from the Firebase console"
                ))
        }
        return out
    }

    /// Group or others may read a key file or the secrets store.
    public static func permissions(path shown: String, mode: UInt32, at p: Place) -> [Finding] {
        guard FileMode.isOpenToOthers(mode) else { return [] }
        return [
            p.finding(
                secretPermissions,
                "\(shown) is open to group or others (mode \(FileMode.octal(mode))) and holds a secret; run chmod \(shown.hasSuffix("/") ? "700" : "600") on it"
            )
        ]
    }
}
