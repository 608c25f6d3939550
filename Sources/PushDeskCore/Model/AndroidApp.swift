/// The Android version of the app.
public struct AndroidApp: Equatable, Sendable {
    public static let defaultMaxConnectPerChild = 8

    public var label: String
    public var integrationKey: String
    public var packageName: String
    public var api: AndroidAPI
    public var connector: AndroidConnector
    /// Parallel connections per MTA child (connector v2); nil = not set (default 8).
    public var maxConnectPerChild: Int?
    public var icon: String
    public var auth: AndroidAuth?
    public var variables: [AppVariable]
    public var subscriptionParams: [SubscriptionParam]

    /// `<androidApp>`'s attributes in the file's order; the console's Information tab shows
    /// the `.main` section first.
    public static let definitions: [FieldDefinition<AndroidApp>] = [
        .string("label", "Label", .android, \.label),
        .string("integrationKey", "Integration key", note: "Ctrl-G new", .android, \.integrationKey),
        .string("packageName", "Package name", .android, \.packageName),
        .choice("api", "API", .android, section: .connection, default: AndroidAPI.httpv1, \.api),
        .choice("connector", "Connector", .android, section: .connection, default: AndroidConnector.v2, \.connector),
        .number(
            "maxConnectPerChild", "Max connections", note: "per MTA child, empty = 8", .android, section: .connection,
            min: 1, default: defaultMaxConnectPerChild, \.maxConnectPerChild),
        .string("icon", "Icon", note: "Enter: browse", .android, path: true, omitEmpty: true, \.icon),
    ]

    public init(
        label: String, integrationKey: String, packageName: String,
        api: AndroidAPI = .httpv1, connector: AndroidConnector = .v2,
        maxConnectPerChild: Int? = nil, icon: String = "", auth: AndroidAuth? = nil,
        variables: [AppVariable] = [], subscriptionParams: [SubscriptionParam] = []
    ) {
        self.label = label
        self.integrationKey = integrationKey
        self.packageName = packageName
        self.api = api
        self.connector = connector
        self.maxConnectPerChild = maxConnectPerChild
        self.icon = icon
        self.auth = auth
        self.variables = variables
        self.subscriptionParams = subscriptionParams
    }
}

public enum AndroidAPI: String, Sendable, CaseIterable {
    /// FCM HTTP v1.
    case httpv1
    /// FCM legacy HTTP API (shut down by Google in 2024).
    case legacy
}

public enum AndroidConnector: String, Sendable, CaseIterable {
    /// One connection per MTA child.
    case v1
    /// Parallel connections (`maxConnectPerChild`); needed by FCM HTTP v1.
    case v2
}

/// How an Android app authenticates to FCM. Secrets are never held here, only references.
public enum AndroidAuth: Equatable, Sendable {
    /// FCM HTTP v1: a Firebase service-account JSON file.
    case serviceAccount(projectId: String, clientEmail: String, keyFile: String)
    /// Legacy HTTP API: the name of the secret holding the server key.
    case serverKey(serverKeyRef: String)

    public var mode: String {
        switch self {
        case .serviceAccount: "serviceAccount"
        case .serverKey: "serverKey"
        }
    }
}

extension AndroidAuth {
    /// Each mode's `<auth>` attributes in the file's order (after `mode`) and the console's
    /// credential fields; `.secret` ones live in secrets/ under the reference beside them.
    public static let modes: AuthModeTable = [
        AuthMode(
            "serviceAccount", subject: "the service account",
            [
                .credential("projectId", "Project id", .android, required: "the Firebase project id"),
                .credential("clientEmail", "Client email", .android, required: "its client e-mail"),
                .credential(
                    "keyFile", "Key file (.json)", note: "Enter: browse", .android, kind: .path,
                    required: "its JSON key file"),
            ]
        ),
        AuthMode(
            "serverKey", subject: "the server key",
            [
                .credential("serverKeyRef", "Server key secret", note: "name, not the key", .android),
                .credential("serverKey", "Server key", .android, kind: .secret),
            ]
        ),
    ]

    /// The mode's attribute values by name (the table's names; nothing by position).
    public var values: [String: String] {
        switch self {
        case .serviceAccount(let p, let e, let f): ["projectId": p, "clientEmail": e, "keyFile": f]
        case .serverKey(let r): ["serverKeyRef": r]
        }
    }

    /// The auth of `mode` with `values` by name (absent ones empty); nil for an unknown mode.
    public init?(mode: String, values: [String: String]) {
        let v = Self.modes.reader(mode, values)
        switch mode {
        case "serviceAccount":
            self = .serviceAccount(projectId: v("projectId"), clientEmail: v("clientEmail"), keyFile: v("keyFile"))
        case "serverKey": self = .serverKey(serverKeyRef: v("serverKeyRef"))
        default: return nil
        }
    }
}
