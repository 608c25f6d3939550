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
    /// Broadcast channels (docs/SENDING.md), in file order.
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

    /// The mode and its reference attributes' values in the order of its row in `modes`
    /// (the one place the associated values meet the table).
    var parts: (mode: String, values: [String]) {
        switch self {
        case .token(let k, let t, let f): ("token", [k, t, f])
        case .certificate(let f, let r): ("certificate", [f, r])
        }
    }

    public var mode: String { parts.mode }
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
    public var values: [String: String] { Self.modes.values(parts.mode, parts.values) }

    /// The auth of `mode` with `values` (absent ones empty); nil for an unknown mode.
    public init?(mode: String, values: [String: String]) {
        let v = Self.modes.ordered(mode, values)
        switch mode {
        case "token": self = .token(keyId: v[0], teamId: v[1], keyFile: v[2])
        case "certificate": self = .certificate(certificateFile: v[0], passwordRef: v[1])
        default: return nil
        }
    }
}

/// An app's auth modes (`IOSAuth.modes`, `AndroidAuth.modes`): each mode's attributes, the
/// `.secret` ones kept in secrets/ and the others in the file.
public typealias AuthModeTable = [(mode: String, fields: [FieldDefinition<[String: String]>])]

extension Array where Element == (mode: String, fields: [FieldDefinition<[String: String]>]) {
    /// The names of a mode's attributes in the file (no secret), in the table's order.
    public func stored(_ mode: String) -> [String] {
        (first { $0.mode == mode }?.fields ?? []).filter { $0.kind != .secret }.names()
    }

    /// Values in the table's order, by name.
    func values(_ mode: String, _ ordered: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: zip(stored(mode), ordered))
    }

    /// Values by name in the table's order (absent ones empty; as many as the mode has).
    func ordered(_ mode: String, _ values: [String: String]) -> [String] {
        stored(mode).map { values[$0] ?? "" }
    }
}
