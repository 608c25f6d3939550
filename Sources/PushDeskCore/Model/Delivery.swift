/// One notification: content, platform options, app-variable values, tracking ids.
/// File: `deliveries/<name>.xml` (SPEC §3.2).
///
/// Numeric options (badge, ttl, volume, …) are kept as the text written in the file so
/// that an out-of-range or malformed value reaches the rules (`badge.range`, …) and is
/// reported with its field instead of being lost at load time. Enumerations and booleans
/// are checked at load time: a bad value there is a positioned file error.
public struct Delivery: Equatable, Sendable {
    public var name: String
    public var label: String
    /// Name of the service whose apps receive it.
    public var service: String
    public var content: DeliveryContent
    public var tracking: Tracking?
    public var ios: IOSOptions
    public var android: AndroidOptions
    /// Values of app variables, in file order; an empty text counts as not set.
    public var variables: [VariableValue]

    public init(
        name: String, label: String = "", service: String,
        content: DeliveryContent = DeliveryContent(), tracking: Tracking? = nil,
        ios: IOSOptions = IOSOptions(), android: AndroidOptions = AndroidOptions(),
        variables: [VariableValue] = []
    ) {
        self.name = name
        self.label = label
        self.service = service
        self.content = content
        self.tracking = tracking
        self.ios = ios
        self.android = android
        self.variables = variables
    }

    /// The value given for a variable, nil when absent or empty.
    public func value(ofVariable name: String) -> String? {
        guard let v = variables.first(where: { $0.name == name }), !v.value.isEmpty else { return nil }
        return v.value
    }
}

/// Text fields; an empty string means "not set" (the element is not written).
public struct DeliveryContent: Equatable, Sendable {
    public var title: String
    public var subtitle: String
    public var body: String
    public init(title: String = "", subtitle: String = "", body: String = "") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }
}

/// `_mId` (message / broadlog id) and `_dId` (delivery id).
public struct Tracking: Equatable, Sendable {
    public var messageId: String
    public var deliveryId: String
    public init(messageId: String, deliveryId: String) {
        self.messageId = messageId
        self.deliveryId = deliveryId
    }
    /// Used by previews when the delivery has none, so that sizes are realistic.
    public static let placeholder = Tracking(
        messageId: "00000000-0000-0000-0000-000000000000",
        deliveryId: "00000000")
}

public struct VariableValue: Equatable, Sendable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Every attribute of `<ios>`; nil = not set. Declaration order = XML attribute order.
public struct IOSOptions: Equatable, Sendable {
    public var type: IOSDeliveryType?
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
    public var targetContentId: String?
    public var launchImage: String?
    public var priority: APNsPriority?
    public var collapseId: String?
    /// ISO 8601 UTC, e.g. `2026-12-01T00:00:00Z`.
    public var expiration: String?

    public init(
        type: IOSDeliveryType? = nil, sound: String? = nil, critical: Bool? = nil,
        volume: String? = nil, badge: String? = nil, category: String? = nil,
        mutableContent: Bool? = nil, contentAvailable: Bool? = nil, threadId: String? = nil,
        interruptionLevel: InterruptionLevel? = nil, relevanceScore: String? = nil,
        targetContentId: String? = nil, launchImage: String? = nil,
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
        self.targetContentId = targetContentId
        self.launchImage = launchImage
        self.priority = priority
        self.collapseId = collapseId
        self.expiration = expiration
    }

    /// `type` with its default applied.
    public var effectiveType: IOSDeliveryType { type ?? .alert }
}

public enum IOSDeliveryType: String, Sendable, CaseIterable { case alert, silent }
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

/// Every attribute of `<android>`; nil = not set. Declaration order = XML attribute order.
public struct AndroidOptions: Equatable, Sendable {
    public var type: AndroidDeliveryType?
    public var priority: AndroidPriority?
    /// Seconds.
    public var ttl: String?
    public var collapseKey: String?
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

    public init(
        type: AndroidDeliveryType? = nil, priority: AndroidPriority? = nil, ttl: String? = nil,
        collapseKey: String? = nil, channelId: String? = nil, sound: String? = nil,
        icon: String? = nil, color: String? = nil, tag: String? = nil,
        clickAction: String? = nil, image: String? = nil, ticker: String? = nil,
        sticky: Bool? = nil, visibility: NotificationVisibility? = nil,
        notificationPriority: NotificationPriority? = nil, notificationCount: String? = nil
    ) {
        self.type = type
        self.priority = priority
        self.ttl = ttl
        self.collapseKey = collapseKey
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
    }

    /// `type` with its default applied (Campaign Classic sends data messages).
    public var effectiveType: AndroidDeliveryType { type ?? .data }
}

public enum AndroidDeliveryType: String, Sendable, CaseIterable { case data, notification }
public enum AndroidPriority: String, Sendable, CaseIterable { case high, normal }
public enum NotificationVisibility: String, Sendable, CaseIterable { case `public`, `private`, secret }
public enum NotificationPriority: String, Sendable, CaseIterable { case min, low, `default`, high, max }
