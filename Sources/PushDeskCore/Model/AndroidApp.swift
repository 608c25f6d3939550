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
