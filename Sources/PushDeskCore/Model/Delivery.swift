/// One notification: content, platform options, app-variable values, tracking ids.
/// File: `deliveries/<name>.xml` (docs/FORMATS.md).
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
    /// `<variants>`, right after `<content>`: one per language, in file order.
    public var variants: [DeliveryVariant]
    public var tracking: Tracking?
    public var ios: IOSOptions
    public var android: AndroidOptions
    /// `<liveActivity>`, right after `<ios>` (docs/PAYLOADS.md); nil = no element.
    public var liveActivity: LiveActivity?
    /// Values of app variables, in file order; an empty text counts as not set.
    public var variables: [VariableValue]

    public init(
        name: String, label: String = "", service: String,
        content: DeliveryContent = DeliveryContent(), tracking: Tracking? = nil,
        ios: IOSOptions = IOSOptions(), android: AndroidOptions = AndroidOptions(),
        variables: [VariableValue] = [], liveActivity: LiveActivity? = nil, variants: [DeliveryVariant] = []
    ) {
        self.variants = variants
        self.name = name
        self.label = label
        self.service = service
        self.content = content
        self.tracking = tracking
        self.ios = ios
        self.android = android
        self.variables = variables
        self.liveActivity = liveActivity
    }

    /// The value given for a variable, nil when absent or empty.
    public func value(ofVariable name: String) -> String? {
        guard let v = variables.first(where: { $0.name == name }), !v.value.isEmpty else { return nil }
        return v.value
    }
}

/// Text fields; an empty string means "not set" (the element is not written). The default
/// variant: what a device gets when no variant matches its language.
public struct DeliveryContent: Equatable, Sendable, DeliveryTexts {
    public var title: String
    public var subtitle: String
    public var body: String
    /// `<localized>`, at the end of `<content>`; nil = no element.
    public var localized: LocalizedKeys?
    public init(title: String = "", subtitle: String = "", body: String = "", localized: LocalizedKeys? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.localized = localized
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
