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

    public init(
        environment: IOSEnvironment, label: String, integrationKey: String, bundleId: String,
        connector: IOSConnector = .http2, icon: String = "", auth: IOSAuth? = nil,
        variables: [AppVariable] = [], subscriptionParams: [SubscriptionParam] = [],
        sounds: [Sound] = []
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
