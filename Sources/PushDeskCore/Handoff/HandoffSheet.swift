/// The developer integration sheet of a service: everything the app's developers need to wire
/// the Campaign SDK (Adobe Campaign's "Integrate Campaign SDKs with your app", "Declare integration
/// settings"), one section per app.
///
/// Built from the model only. It never holds a secret: for credentials it keeps the *kind*
/// (`token`, `certificate`, `serviceAccount`, `serverKey`), never a file name, key id, password
/// or secret reference.
public struct HandoffSheet: Equatable, Sendable {
    public var service: String
    public var label: String
    public var marketingUrl: String
    public var trackingUrl: String
    public var apps: [HandoffApp]
    /// "Test against PushDesk" with this listener, when given (`pushdesk handoff --listen`).
    public var listen: HandoffListen?
    /// The languages and localization keys of the service's deliveries, when any has one
    /// (`HandoffLocalization(service:deliveries:)`; `pushdesk handoff` reads the store's).
    public var localization: HandoffLocalization?

    /// The sheet for every app of `service`, or only for the app whose integration key is `appKey`.
    public init(service: Service, appKey: String? = nil) throws(HandoffError) {
        var selected = service.apps
        if let appKey {
            guard let app = service.app(integrationKey: appKey) else {
                throw .unknownApp(key: appKey, service: service.name, known: service.apps.map(\.integrationKey))
            }
            selected = [app]
        }
        self.service = service.name
        self.label = service.label
        self.marketingUrl = service.marketingUrl
        self.trackingUrl = service.trackingUrl
        self.apps = selected.map { HandoffApp(app: $0, service: service) }
    }
}

/// One app's part of the sheet.
public struct HandoffApp: Equatable, Sendable {
    public var label: String
    public var platform: Platform
    /// `sandbox` / `production` for iOS apps, nil for Android.
    public var environment: IOSEnvironment?
    public var integrationKey: String
    /// Bundle id (iOS) or package name (Android).
    public var appId: String
    /// `http2`/`binary` (iOS), `v1`/`v2` (Android).
    public var connector: String
    /// `httpv1`/`legacy` for Android, nil for iOS.
    public var api: AndroidAPI?
    /// `token`, `certificate`, `serviceAccount`, `serverKey`; nil when no credential is set.
    public var credentialKind: String?
    public var variables: [AppVariable]
    public var subscriptionParams: [SubscriptionParam]
    public var sounds: [Sound]
    public var snippets: [CodeSnippet]

    public init(app: MobileApp, service: Service) {
        label = app.label
        platform = app.platform
        integrationKey = app.integrationKey
        variables = app.variables
        subscriptionParams = app.subscriptionParams
        sounds = app.sounds
        switch app {
        case .ios(let a):
            environment = a.environment
            appId = a.bundleId
            connector = a.connector.rawValue
            api = nil
            credentialKind = a.auth?.mode
        case .android(let a):
            environment = nil
            appId = a.packageName
            connector = a.connector.rawValue
            api = a.api
            credentialKind = a.auth?.mode
        }
        snippets =
            app.platform == .ios
            ? IOSSnippets.make(app: app, service: service)
            : AndroidSnippets.make(app: app, service: service)
    }

    /// "Bundle id" or "Package name", as the sheet labels `appId`.
    public var appIdTitle: String { platform == .ios ? "Bundle id" : "Package name" }
}

/// A ready-to-paste source file for the app's developers.
public struct CodeSnippet: Equatable, Sendable {
    public enum Language: String, Sendable {
        case java
        case objectiveC = "objective-c"
    }
    public var language: Language
    /// Suggested file name (`CampaignPush.java`, `CampaignPush.m`).
    public var fileName: String
    public var title: String
    public var code: String
}

public enum HandoffError: Error, Equatable, CustomStringConvertible {
    case unknownApp(key: String, service: String, known: [String])

    public var description: String {
        switch self {
        case .unknownApp(let key, let service, let known):
            let list =
                known.isEmpty
                ? "it has no apps" : "its apps are " + known.map(HandoffText.visible).joined(separator: ", ")
            return
                "service \(HandoffText.visible(service)) has no app with integration key \(HandoffText.visible(key)); \(list)"
        }
    }
}
