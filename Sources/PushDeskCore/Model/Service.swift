/// A "Mobile application" information service: the iOS and Android versions of one app.
/// File: `services/<name>.xml` (docs/FORMATS.md).
public struct Service: Equatable, Sendable {
    public static let defaultTargetMapping = "nms:appSubscriptionRcp"

    public var name: String
    public var label: String
    public var targetMapping: String
    public var marketingUrl: String
    public var trackingUrl: String
    /// In file order: iOS apps and Android apps may interleave, and the order is kept.
    public var apps: [MobileApp]

    /// `<service>`'s attributes after `format`, in the file's order: the codecs (service file,
    /// Campaign package), recovery's character cleaning and the console's service form.
    public static let definitions: [FieldDefinition<Service>] = [
        .string("name", "Name", note: "file name", .service, \.name),
        .string("label", "Label", .service, \.label),
        .string("targetMapping", "Target mapping", .service, \.targetMapping),
        .string("marketingUrl", "Marketing URL", .service, \.marketingUrl),
        .string("trackingUrl", "Tracking URL", .service, \.trackingUrl),
    ]

    public init(
        name: String, label: String, targetMapping: String = Service.defaultTargetMapping,
        marketingUrl: String = "", trackingUrl: String = "", apps: [MobileApp] = []
    ) {
        self.name = name
        self.label = label
        self.targetMapping = targetMapping
        self.marketingUrl = marketingUrl
        self.trackingUrl = trackingUrl
        self.apps = apps
    }

    public var iosApps: [IOSApp] { apps.compactMap { if case .ios(let a) = $0 { a } else { nil } } }
    public var androidApps: [AndroidApp] { apps.compactMap { if case .android(let a) = $0 { a } else { nil } } }

    /// The app with this integration key, if the service has one.
    public func app(integrationKey: String) -> MobileApp? {
        apps.first { $0.integrationKey == integrationKey }
    }
}

extension Sequence<Service> {
    /// The store's app with this integration key: the first one when a key repeats, as
    /// `ProfileRules.appsByKey` resolves it (`integration-key.duplicate` reports the repeat).
    public func app(integrationKey: String) -> MobileApp? {
        lazy.compactMap { $0.app(integrationKey: integrationKey) }.first
    }
}

/// One platform version of the app inside a service.
public enum MobileApp: Equatable, Sendable {
    case ios(IOSApp)
    case android(AndroidApp)

    public var platform: Platform {
        switch self {
        case .ios: .ios
        case .android: .android
        }
    }
    public var label: String {
        get {
            switch self {
            case .ios(let a): a.label
            case .android(let a): a.label
            }
        }
        set {
            switch self {
            case .ios(var a):
                a.label = newValue
                self = .ios(a)
            case .android(var a):
                a.label = newValue
                self = .android(a)
            }
        }
    }
    public var integrationKey: String {
        get {
            switch self {
            case .ios(let a): a.integrationKey
            case .android(let a): a.integrationKey
            }
        }
        set {
            switch self {
            case .ios(var a):
                a.integrationKey = newValue
                self = .ios(a)
            case .android(var a):
                a.integrationKey = newValue
                self = .android(a)
            }
        }
    }
    public var variables: [AppVariable] {
        get {
            switch self {
            case .ios(let a): a.variables
            case .android(let a): a.variables
            }
        }
        set {
            switch self {
            case .ios(var a):
                a.variables = newValue
                self = .ios(a)
            case .android(var a):
                a.variables = newValue
                self = .android(a)
            }
        }
    }
    public var subscriptionParams: [SubscriptionParam] {
        get {
            switch self {
            case .ios(let a): a.subscriptionParams
            case .android(let a): a.subscriptionParams
            }
        }
        set {
            switch self {
            case .ios(var a):
                a.subscriptionParams = newValue
                self = .ios(a)
            case .android(var a):
                a.subscriptionParams = newValue
                self = .android(a)
            }
        }
    }
    /// Sounds exist on iOS apps only.
    public var sounds: [Sound] {
        if case .ios(let a) = self { return a.sounds }
        return []
    }
    /// XML element name, used in findings (`iosApp`, `androidApp`).
    public var elementName: String { platform == .ios ? "iosApp" : "androidApp" }
}

public enum Platform: String, Sendable, CaseIterable {
    case ios, android
}

/// A named value sent with a notification (e.g. `mediaUrl`, `VAR`).
public struct AppVariable: Equatable, Sendable {
    public var name: String
    public var label: String
    public init(name: String, label: String = "") {
        self.name = name
        self.label = label
    }
}

/// Extra data collected at registration: config name (as in app code) → schema field.
public struct SubscriptionParam: Equatable, Sendable {
    public var name: String
    public var label: String
    public var field: String
    public init(name: String, label: String = "", field: String) {
        self.name = name
        self.label = label
        self.field = field
    }
}

/// iOS sound: internal name (file in the app bundle, or a system sound) and its label.
public struct Sound: Equatable, Sendable {
    public var name: String
    public var label: String
    public init(name: String, label: String = "") {
        self.name = name
        self.label = label
    }
}
