import Foundation

/// The credential rules (docs/RULES.md, "Credential rules"): pure checks on what the readers
/// found. `CredentialChecker` does the reading and calls these.
public enum CredentialRules {
    public static let expiringWithinDays = 30

    public enum ID {
        public static let certificateExpired = "certificate.expired"
        public static let certificateExpiring = "certificate.expiring"
        public static let certificateNotYetValid = "certificate.not-yet-valid"
        public static let certificateTopic = "certificate.topic"
        public static let certificateEnvironment = "certificate.environment"
        public static let certificateShared = "certificate.shared"
        public static let certificatePassword = "certificate.password"
        public static let certificateUnreadable = "certificate.unreadable"
        public static let tokenKeyId = "token.key-id"
        public static let tokenTeamId = "token.team-id"
        public static let tokenKey = "token.key"
        public static let serviceAccountUnreadable = "service-account.unreadable"
        public static let serviceAccountFields = "service-account.fields"
        public static let serviceAccountType = "service-account.type"
        public static let serviceAccountProjectId = "service-account.project-id"
        public static let serviceAccountClientEmail = "service-account.client-email"
        public static let serviceAccountKey = "service-account.key"
        public static let secretMissing = "secret.missing"
        public static let secretPermissions = "secret.permissions"
        public static let fcmLegacyAPI = "fcm.legacy-api"
    }

    /// Where a finding points: the service file and a field of the app.
    public struct Place: Sendable {
        public var file: String
        public var field: FieldPath
        public init(file: String, field: FieldPath) {
            self.file = file
            self.field = field
        }
        func finding(_ s: Severity, _ rule: String, _ message: String) -> Finding {
            Finding(s, rule, message, file: file, field: field)
        }
    }

    /// Validity window: expired and not-yet-valid are errors, expiring within 30 days a warning.
    public static func validity(_ c: CertificateInfo, now: Date, at p: Place) -> [Finding] {
        let after = ISOTime.string(c.notValidAfter)
        let before = ISOTime.string(c.notValidBefore)
        if now > c.notValidAfter {
            return [
                p.finding(
                    .error, ID.certificateExpired,
                    "the certificate expired on \(after); APNs refuses it. Create a new push certificate for this app on Apple's developer site and replace the file"
                )
            ]
        }
        if now < c.notValidBefore {
            return [
                p.finding(
                    .error, ID.certificateNotYetValid,
                    "the certificate is not valid before \(before); check the server clock or use the current certificate"
                )
            ]
        }
        let remaining = c.notValidAfter.timeIntervalSince(now)
        if remaining < Double(expiringWithinDays) * 86400 {
            let days = Int((remaining / 86400).rounded(.up))
            return [
                p.finding(
                    .warning, ID.certificateExpiring,
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
                .error, ID.certificateTopic,
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
        return [p.finding(.error, ID.certificateEnvironment, message)]
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
                    .error, ID.tokenKeyId,
                    "Key ID \"\(Escape.inline(keyId, limit: .max))\" is not 10 characters A-Z 0-9; copy it from the key's page on Apple's developer site (it is also in the AuthKey_<KEYID>.p8 file name)"
                ))
        }
        if !isAppleID(teamId) {
            out.append(
                t.finding(
                    .error, ID.tokenTeamId,
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
                    .error, ID.serviceAccountFields,
                    "the service-account file lacks \(a.missingFields.joined(separator: ", ")); download a new key from the Firebase console (Project settings › Service accounts)"
                ))
        }
        if let type = a.type, type != "service_account" {
            out.append(
                p.finding(
                    .error, ID.serviceAccountType,
                    "the file's type is \"\(Escape.inline(type, limit: .max))\", not \"service_account\"; it is not a service-account key"
                ))
        }
        if let fileProject = a.projectId, fileProject != projectId {
            out.append(
                pp.finding(
                    .error, ID.serviceAccountProjectId,
                    "the app's projectId \"\(Escape.inline(projectId, limit: .max))\" differs from the service account's project_id \"\(Escape.inline(fileProject, limit: .max))\"; FCM sends to the project of the key"
                ))
        }
        if let fileEmail = a.clientEmail, !clientEmail.isEmpty, fileEmail != clientEmail {
            out.append(
                cp.finding(
                    .error, ID.serviceAccountClientEmail,
                    "the app's clientEmail \"\(Escape.inline(clientEmail, limit: .max))\" differs from the service account's client_email \"\(Escape.inline(fileEmail, limit: .max))\""
                ))
        }
        if a.hasPrivateKey && a.keyBits == nil {
            out.append(
                p.finding(
                    .error, ID.serviceAccountKey,
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
                .warning, ID.secretPermissions,
                "\(shown) is open to group or others (mode \(FileMode.octal(mode))) and holds a secret; run chmod \(shown.hasSuffix("/") ? "700" : "600") on it"
            )
        ]
    }
}
