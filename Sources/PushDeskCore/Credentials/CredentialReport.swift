import Foundation

public enum CredentialKind: String, Sendable, CaseIterable {
    case certificate, token, serviceAccount, serverKey, none
}

/// One line of what the console's Credentials tab and `credentials check` show.
public struct CredentialDetail: Sendable, Equatable {
    /// Stable key, used in `--json` (`subject`, `sha256`, `notAfter`, …).
    public var key: String
    /// What people read (`Subject`, `SHA-256`, `Not after`, …).
    public var label: String
    /// Control characters already escaped (text from credential files is untrusted).
    public var value: String

    public init(_ key: String, _ label: String, _ value: String) {
        self.key = key
        self.label = label
        self.value = Escape.inline(value, limit: .max)
    }
}

/// The credentials of one app of a service: what they are, what they hold, what is wrong.
/// Never holds a secret: passwords, private keys and server keys are read, used and dropped.
public struct CredentialReport: Sendable, Equatable {
    public var service: String
    /// The app's integration key.
    public var app: String
    public var label: String
    public var platform: Platform
    /// iOS apps only.
    public var environment: IOSEnvironment?
    public var kind: CredentialKind
    public var details: [CredentialDetail]
    public var findings: [Finding]
    /// The certificate read, for certificate auth when it could be read.
    public var certificate: CertificateInfo?
    /// Position of the app in `service.apps` (findings' fields are `apps[index].…`).
    public var index: Int

    public init(
        service: String, app: String, label: String, platform: Platform,
        environment: IOSEnvironment?, kind: CredentialKind, index: Int, details: [CredentialDetail] = [],
        findings: [Finding] = [], certificate: CertificateInfo? = nil
    ) {
        self.service = service
        self.app = app
        self.label = label
        self.platform = platform
        self.environment = environment
        self.kind = kind
        self.index = index
        self.details = details
        self.findings = findings
        self.certificate = certificate
    }

    public func detail(_ key: String) -> String? { details.first { $0.key == key }?.value }

    /// One report of `credentials check --json` (docs/CREDENTIALS.md).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("service", .string(service)), ("app", .string(app)), ("label", .string(label)),
            ("platform", .string(platform.rawValue)),
        ]
        if let environment { members.append(("environment", .string(environment.rawValue))) }
        members.append(("kind", .string(kind.rawValue)))
        members.append(("details", .object(details.map { ($0.key, .string($0.value)) })))
        members.append(("findings", .array(findings.map(\.json))))
        return .object(members)
    }
}
