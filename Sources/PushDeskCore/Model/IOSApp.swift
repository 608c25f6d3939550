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
    /// Token auth: a .p8 key, its 10-character Key ID and the 10-character Team ID; since
    /// February 2025 a key may be limited to one environment and to some topics (docs/CREDENTIALS.md).
    /// `keyEnvironment` and `keyTopics` hold the attributes' text, empty when absent (a key for
    /// both environments, a team key for every topic).
    case token(keyId: String, teamId: String, keyFile: String, keyEnvironment: String = "", keyTopics: String = "")
    /// Certificate auth: a .p12/.pem file and the name of the secret holding its password.
    case certificate(certificateFile: String, passwordRef: String)

    public var mode: String {
        switch self {
        case .token: "token"
        case .certificate: "certificate"
        }
    }

    /// The environment a token-auth key is limited to; `.both` when not set (or not token auth).
    public var keyScope: APNsKeyEnvironment {
        guard case .token(_, _, _, let env, _) = self else { return .both }
        return APNsKeyEnvironment(rawValue: env) ?? .both
    }

    /// The topics of a topic-specific key (`keyTopics`, space-separated); empty = every topic.
    public var keyTopicList: [String] {
        guard case .token(_, _, _, _, let topics) = self else { return [] }
        return topics.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }
}

/// Which APNs environment a token-auth key may be used in (`<auth keyEnvironment>`).
public enum APNsKeyEnvironment: String, Sendable, CaseIterable {
    case sandbox, production, both
}

extension IOSAuth {
    /// Each mode's `<auth>` attributes in the file's order (after `mode`) and the console's
    /// credential fields; `.secret` ones live in secrets/ under the reference beside them.
    public static let modes: AuthModeTable = [
        AuthMode(
            "token", subject: "token auth",
            [
                .credential("keyId", "Key ID", note: "10 chars", .ios, required: "the Key ID (10 characters)"),
                .credential("teamId", "Team ID", note: "10 chars", .ios, required: "the Team ID (10 characters)"),
                .credential(
                    "keyEnvironment", "Key scope", note: "environments the key may push to", .ios,
                    kind: .choice(
                        APNsKeyEnvironment.allCases.map(\.rawValue), default: APNsKeyEnvironment.both.rawValue)),
                .credential(
                    "keyTopics", "Key topics", note: "bundle ids; empty = team key", .ios, omitEmpty: true),
                .credential(
                    "keyFile", "Key file (.p8)", note: "Enter: browse", .ios, kind: .path, required: "the .p8 key file"),
            ]
        ),
        AuthMode(
            "certificate", subject: "certificate auth",
            [
                .credential(
                    "certificateFile", "Certificate", note: "Enter: browse", .ios, kind: .path,
                    required: "the .p12/.pem file"),
                .credential("passwordRef", "Password secret", note: "name, not the password", .ios, omitEmpty: true),
                .credential("password", "Password", .ios, kind: .secret),
            ]
        ),
    ]

    /// The mode's attribute values by name (the table's names; nothing by position). A key
    /// scope left at its default is absent, as in the file.
    public var values: [String: String] {
        switch self {
        case .token(let keyId, let teamId, let keyFile, let env, let topics):
            var v = ["keyId": keyId, "teamId": teamId, "keyFile": keyFile]
            if !env.isEmpty { v["keyEnvironment"] = env }
            if !topics.isEmpty { v["keyTopics"] = topics }
            return v
        case .certificate(let file, let ref): return ["certificateFile": file, "passwordRef": ref]
        }
    }

    /// The auth of `mode` with `values` by name (absent ones empty or their default); nil for
    /// an unknown mode.
    public init?(mode: String, values: [String: String]) {
        let v = Self.modes.reader(mode, values)
        switch mode {
        case "token":
            self = .token(
                keyId: v("keyId"), teamId: v("teamId"), keyFile: v("keyFile"),
                // `both` is the default: held as absent, as a save writes it.
                keyEnvironment: v("keyEnvironment") == APNsKeyEnvironment.both.rawValue ? "" : v("keyEnvironment"),
                keyTopics: v("keyTopics"))
        case "certificate": self = .certificate(certificateFile: v("certificateFile"), passwordRef: v("passwordRef"))
        default: return nil
        }
    }
}

/// One auth mode of an app (`IOSAuth.modes`, `AndroidAuth.modes`): its attributes in the
/// file's order, the `.secret` ones kept in secrets/ and the others in the file. The model,
/// the service file, the Campaign package, the console's form and the required-field rule
/// all read this one row.
public struct AuthMode: Sendable {
    public let mode: String
    /// How a finding names the credential: "token auth of APP needs …".
    public let subject: String
    public let fields: [FieldDefinition<[String: String]>]

    public init(_ mode: String, subject: String, _ fields: [FieldDefinition<[String: String]>]) {
        self.mode = mode
        self.subject = subject
        self.fields = fields
    }

    /// The attributes the file holds (no secret), in order.
    public var stored: [FieldDefinition<[String: String]>] { fields.filter { $0.kind != .secret } }
}

public typealias AuthModeTable = [AuthMode]

extension Array where Element == AuthMode {
    public subscript(mode mode: String) -> AuthMode? { first { $0.mode == mode } }

    /// The names of a mode's attributes in the file (no secret), in the table's order.
    public func stored(_ mode: String) -> [String] { (self[mode: mode]?.stored ?? []).names() }

    /// A reader of `values` by name for a mode's constructor: a stored attribute's value, empty
    /// when absent. A name outside the mode's row reads as empty too: the mode tables' tests
    /// give every attribute a distinct value and compare what comes back.
    func reader(_ mode: String, _ values: [String: String]) -> (String) -> String {
        let names = Set(stored(mode))
        return { name in names.contains(name) ? values[name] ?? "" : "" }
    }
}
