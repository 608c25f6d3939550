/// The `<ios>` and `<android>` options of a delivery (docs/FORMATS.md), each defined once: a
/// stored property and a row of `definitions`. The rows' order is the file's attribute
/// order; the XML codec, recovery files, the schema's attribute lists and the console's
/// composer all walk them. What an option means to APNs or FCM is said by the payload
/// builders (`Payload/`) and the rules (`Rules/DeliveryRules.swift`).

/// Every attribute of `<ios>`; nil = not set.
public struct IOSOptions: Equatable, Sendable {
    public var type: PushType?
    public var sound: String?
    public var critical: Bool?
    public var volume: String?
    public var badge: String?
    public var category: String?
    public var mutableContent: Bool?
    public var contentAvailable: Bool?
    public var threadId: String?
    public var interruptionLevel: InterruptionLevel?
    public var relevanceScore: String?
    /// The Focus filter an app's extension matches (`aps.filter-criteria`).
    public var filterCriteria: String?
    public var targetContentId: String?
    public var launchImage: String?
    public var priority: APNsPriority?
    public var collapseId: String?
    /// ISO 8601 UTC, e.g. `2026-12-01T00:00:00Z`.
    public var expiration: String?

    public static let definitions: [FieldDefinition<IOSOptions>] = [
        // Which content and options each type sends is its row's (PushType.all), not these rows'.
        .choice("type", "Type", note: "what the push does (alert shows it)", .ios, default: PushType.alert, \.type),
        .text("sound", "Sound", .ios, \.sound),
        .bool("critical", "Critical sound", note: "needs Apple's entitlement", .ios, \.critical),
        .text("volume", "Critical volume", note: "0…1", .ios, \.volume),
        .text("badge", "Badge", note: "0 clears it", .ios, \.badge),
        .text("category", "Category", note: "e.g. image", .ios, \.category),
        .bool("mutableContent", "Mutable content", note: "rich: the service extension runs", .ios, \.mutableContent),
        .bool("contentAvailable", "Content available", note: "also wake the app", .ios, \.contentAvailable),
        .text("threadId", "Thread id", .ios, \.threadId),
        .choice("interruptionLevel", "Interruption", .ios, \.interruptionLevel),
        .text("relevanceScore", "Relevance", note: "0…1", .ios, \.relevanceScore),
        .text("filterCriteria", "Filter criteria", note: "Focus filter the app matches", .ios, \.filterCriteria),
        .text("targetContentId", "Target content id", .ios, \.targetContentId),
        .text("launchImage", "Launch image", .ios, \.launchImage),
        .choice("priority", "Priority", note: "10 now, 5 power-friendly", .ios, \.priority),
        .text("collapseId", "Collapse id", note: "≤ 64 bytes", .ios, \.collapseId),
        .text("expiration", "Expiration", note: "2026-12-01T00:00:00Z", .ios, \.expiration),
    ]

    public init(
        type: PushType? = nil, sound: String? = nil, critical: Bool? = nil,
        volume: String? = nil, badge: String? = nil, category: String? = nil,
        mutableContent: Bool? = nil, contentAvailable: Bool? = nil, threadId: String? = nil,
        interruptionLevel: InterruptionLevel? = nil, relevanceScore: String? = nil,
        filterCriteria: String? = nil, targetContentId: String? = nil, launchImage: String? = nil,
        priority: APNsPriority? = nil, collapseId: String? = nil, expiration: String? = nil
    ) {
        self.type = type
        self.sound = sound
        self.critical = critical
        self.volume = volume
        self.badge = badge
        self.category = category
        self.mutableContent = mutableContent
        self.contentAvailable = contentAvailable
        self.threadId = threadId
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.targetContentId = targetContentId
        self.launchImage = launchImage
        self.priority = priority
        self.collapseId = collapseId
        self.expiration = expiration
    }

    /// `type` with its default applied.
    public var effectiveType: PushType { type ?? .alert }
}

public enum InterruptionLevel: String, Sendable, CaseIterable {
    case passive, active
    case timeSensitive = "time-sensitive"
    case critical
}
public enum APNsPriority: String, Sendable, CaseIterable {
    case immediate = "10"
    case powerConsiderate = "5"
    case low = "1"
}

/// Every attribute of `<android>`; nil = not set.
public struct AndroidOptions: Equatable, Sendable {
    public var type: AndroidDeliveryType?
    public var priority: AndroidPriority?
    /// Seconds.
    public var ttl: String?
    public var collapseKey: String?
    /// Deliver before the device is unlocked (`android.direct_boot_ok`; FCM v1 only).
    public var directBootOk: Bool?
    /// May be delivered while the device's network is bandwidth-constrained
    /// (`android.bandwidth_constrained_ok`; FCM v1 only, 2025).
    public var bandwidthConstrainedOk: Bool?
    /// May be delivered over restricted satellite connectivity (`android.restricted_satellite_ok`).
    public var restrictedSatelliteOk: Bool?
    public var channelId: String?
    public var sound: String?
    public var icon: String?
    /// `#RRGGBB`.
    public var color: String?
    public var tag: String?
    public var clickAction: String?
    public var image: String?
    public var ticker: String?
    public var sticky: Bool?
    public var visibility: NotificationVisibility?
    public var notificationPriority: NotificationPriority?
    public var notificationCount: String?
    /// Whether the notification may be proxied (`android.notification.proxy`).
    public var proxy: NotificationProxy?
    /// `fcm_options.analytics_label`: groups the message in FCM's delivery data.
    public var analyticsLabel: String?

    /// `notificationOnly`: a data message leaves it out (`android.ignored-option`); `legacy: false`:
    /// the FCM legacy body has no key for it here (`legacy.ignored-option`).
    public static let definitions: [FieldDefinition<AndroidOptions>] = [
        .choice(
            "type", "Type", note: "data: the app draws it", .android, default: AndroidDeliveryType.data, \.type),
        .choice("priority", "Priority", .android, \.priority),
        .text("ttl", "TTL (seconds)", note: "0…2419200", .android, \.ttl),
        .text("collapseKey", "Collapse key", .android, \.collapseKey),
        .bool(
            "directBootOk", "Direct boot OK", note: "before unlock", .android, legacy: false,
            \.directBootOk),
        .bool(
            "bandwidthConstrainedOk", "Bandwidth-constrained OK", note: "slow networks", .android, legacy: false,
            \.bandwidthConstrainedOk),
        .bool(
            "restrictedSatelliteOk", "Satellite OK", note: "restricted satellite", .android, legacy: false,
            \.restrictedSatelliteOk),
        .text("channelId", "Channel id", .android, notificationOnly: true, legacy: false, \.channelId),
        .text("sound", "Sound", .android, notificationOnly: true, \.sound),
        .text("icon", "Icon", note: "small icon resource", .android, notificationOnly: true, \.icon),
        .text("color", "Colour", note: "#RRGGBB", .android, notificationOnly: true, \.color),
        .text("tag", "Tag", .android, notificationOnly: true, \.tag),
        .text("clickAction", "Click action", .android, notificationOnly: true, \.clickAction),
        .text("image", "Image", note: "https:// URL", .android, notificationOnly: true, legacy: false, \.image),
        .text("ticker", "Ticker", .android, notificationOnly: true, legacy: false, \.ticker),
        .bool("sticky", "Sticky", .android, notificationOnly: true, legacy: false, \.sticky),
        .choice("visibility", "Visibility", .android, notificationOnly: true, legacy: false, \.visibility),
        .choice(
            "notificationPriority", "Notif. priority", .android, notificationOnly: true, legacy: false,
            \.notificationPriority),
        .text(
            "notificationCount", "Notif. count", .android, notificationOnly: true, legacy: false, \.notificationCount),
        .choice(
            "proxy", "Proxy", note: "proxy through Play services", .android, notificationOnly: true, legacy: false,
            \.proxy),
        .text("analyticsLabel", "Analytics label", note: "fcm_options", .android, legacy: false, \.analyticsLabel),
    ]

    public init(
        type: AndroidDeliveryType? = nil, priority: AndroidPriority? = nil, ttl: String? = nil,
        collapseKey: String? = nil, directBootOk: Bool? = nil, channelId: String? = nil, sound: String? = nil,
        icon: String? = nil, color: String? = nil, tag: String? = nil,
        clickAction: String? = nil, image: String? = nil, ticker: String? = nil,
        sticky: Bool? = nil, visibility: NotificationVisibility? = nil,
        notificationPriority: NotificationPriority? = nil, notificationCount: String? = nil,
        bandwidthConstrainedOk: Bool? = nil, restrictedSatelliteOk: Bool? = nil, proxy: NotificationProxy? = nil,
        analyticsLabel: String? = nil
    ) {
        self.type = type
        self.priority = priority
        self.ttl = ttl
        self.collapseKey = collapseKey
        self.directBootOk = directBootOk
        self.channelId = channelId
        self.sound = sound
        self.icon = icon
        self.color = color
        self.tag = tag
        self.clickAction = clickAction
        self.image = image
        self.ticker = ticker
        self.sticky = sticky
        self.visibility = visibility
        self.notificationPriority = notificationPriority
        self.notificationCount = notificationCount
        self.bandwidthConstrainedOk = bandwidthConstrainedOk
        self.restrictedSatelliteOk = restrictedSatelliteOk
        self.proxy = proxy
        self.analyticsLabel = analyticsLabel
    }

    /// `type` with its default applied (Campaign Classic sends data messages).
    public var effectiveType: AndroidDeliveryType { type ?? .data }
}

public enum AndroidDeliveryType: String, Sendable, CaseIterable { case data, notification }
public enum AndroidPriority: String, Sendable, CaseIterable { case high, normal }

/// `android.notification.proxy` (FCM v1: `ALLOW|DENY|IF_PRIORITY_LOWERED`).
public enum NotificationProxy: String, Sendable, CaseIterable {
    case allow, deny, ifPriorityLowered

    /// FCM's spelling.
    public var fcm: String {
        switch self {
        case .allow: "ALLOW"
        case .deny: "DENY"
        case .ifPriorityLowered: "IF_PRIORITY_LOWERED"
        }
    }
}
public enum NotificationVisibility: String, Sendable, CaseIterable { case `public`, `private`, secret }
public enum NotificationPriority: String, Sendable, CaseIterable { case min, low, `default`, high, max }
