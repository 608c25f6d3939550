/// An iOS app: one of the sandbox/production pair created together.
public struct IOSApp: Equatable, Sendable {
    public var environment: IOSEnvironment
    public var label: String
    public var integrationKey: String
    public var bundleId: String
    public var connector: IOSConnector
    /// Path of the icon, relative to the store unless absolute; empty when not set.
    public var icon: String
    public var auth: IOSAuth?
    public var variables: [AppVariable]
    public var subscriptionParams: [SubscriptionParam]
    public var sounds: [Sound]
    /// Broadcast channels (SPEC §12.4), in file order.
    public var channels: [BroadcastChannel]

    /// `<iosApp>`'s attributes in the file's order; the console's Information tab shows
    /// the `.main` section first.
    public static let definitions: [FieldDefinition<IOSApp>] = [
        .choice("environment", "Environment", .ios, section: .connection, \.environment),
        .string("label", "Label", .ios, \.label),
        .string("integrationKey", "Integration key", note: "Ctrl-G new", .ios, \.integrationKey),
        .string("bundleId", "Bundle id", .ios, \.bundleId),
        .choice("connector", "Connector", .ios, section: .connection, default: IOSConnector.http2, \.connector),
        .string("icon", "Icon", note: "Enter: browse", .ios, path: true, omitEmpty: true, \.icon),
    ]

    public init(
        environment: IOSEnvironment, label: String, integrationKey: String, bundleId: String,
        connector: IOSConnector = .http2, icon: String = "", auth: IOSAuth? = nil,
        variables: [AppVariable] = [], subscriptionParams: [SubscriptionParam] = [],
        sounds: [Sound] = [], channels: [BroadcastChannel] = []
    ) {
        self.environment = environment
        self.label = label
        self.integrationKey = integrationKey
        self.bundleId = bundleId
        self.connector = connector
        self.icon = icon
        self.auth = auth
        self.variables = variables
        self.subscriptionParams = subscriptionParams
        self.sounds = sounds
        self.channels = channels
    }
}

public enum IOSEnvironment: String, Sendable, CaseIterable {
    case sandbox, production
}

public enum IOSConnector: String, Sendable, CaseIterable {
    /// HTTP/2 APNs on port 443.
    case http2
    /// Legacy binary protocol (ports 2195/2196), retired by Apple on 2021-03-31.
    case binary
}

/// How an iOS app authenticates to APNs. Secrets are never held here, only references.
public enum IOSAuth: Equatable, Sendable {
    /// Token auth: a .p8 key, its 10-character Key ID and the 10-character Team ID.
    case token(keyId: String, teamId: String, keyFile: String)
    /// Certificate auth: a .p12/.pem file and the name of the secret holding its password.
    case certificate(certificateFile: String, passwordRef: String)

    public var mode: String {
        switch self {
        case .token: "token"
        case .certificate: "certificate"
        }
    }
}

extension IOSAuth {
    /// Each mode's `<auth>` attributes in the file's order (after `mode`) and the console's
    /// credential fields; `.secret` ones live in secrets/ under the reference beside them.
    public static let modes: [(mode: String, fields: [FieldDefinition<[String: String]>])] = [
        (
            "token",
            [
                .credential("keyId", "Key ID", note: "10 chars", .ios),
                .credential("teamId", "Team ID", note: "10 chars", .ios),
                .credential("keyFile", "Key file (.p8)", note: "Enter: browse", .ios, kind: .path),
            ]
        ),
        (
            "certificate",
            [
                .credential("certificateFile", "Certificate", note: "Enter: browse", .ios, kind: .path),
                .credential("passwordRef", "Password secret", note: "name, not the password", .ios, omitEmpty: true),
                .credential("password", "Password", .ios, kind: .secret),
            ]
        ),
    ]

    /// The mode's attribute values by name.
    public var values: [String: String] {
        switch self {
        case .token(let k, let t, let f): ["keyId": k, "teamId": t, "keyFile": f]
        case .certificate(let f, let r): ["certificateFile": f, "passwordRef": r]
        }
    }

    /// The auth of `mode` with `values` (absent ones empty); nil for an unknown mode.
    public init?(mode: String, values v: [String: String]) {
        switch mode {
        case "token": self = .token(keyId: v["keyId"] ?? "", teamId: v["teamId"] ?? "", keyFile: v["keyFile"] ?? "")
        case "certificate":
            self = .certificate(certificateFile: v["certificateFile"] ?? "", passwordRef: v["passwordRef"] ?? "")
        default: return nil
        }
    }
}
