/// A sample recipient used to personalize previews and, through its subscriptions, the test
/// devices a delivery is sent to (docs/FORMATS.md): `profiles/<name>.xml`,
/// `<recipient firstName="Ana" …><subscription app="…" token="…"/></recipient>`.
public struct Profile: Equatable, Sendable {
    public var name: String
    /// Field name → value, in file order.
    public var fields: [(name: String, value: String)]
    /// The recipient's devices, in file order.
    public var subscriptions: [Subscription]

    public init(name: String, fields: [(name: String, value: String)] = [], subscriptions: [Subscription] = []) {
        self.name = name
        self.fields = fields
        self.subscriptions = subscriptions
    }

    public func value(of field: String) -> String? {
        fields.first { $0.name == field }?.value
    }

    /// The language a subscription's device gets its variant by: its own `locale`, else
    /// the recipient's `locale` field; nil when neither is a tag.
    public func language(of s: Subscription) -> LocaleTag? {
        if let own = s.locale.nonEmpty { return LocaleTag(own) }
        return value(of: "locale").nonEmpty.flatMap(LocaleTag.init)
    }

    public static func == (a: Profile, b: Profile) -> Bool {
        a.name == b.name && a.subscriptions == b.subscriptions
            && a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// One device of a recipient registered with one app, as Campaign records it at subscription
/// collection (`nms:appSubscriptionRcp`): the app's integration key and the APNs device token
/// or FCM registration token.
public struct Subscription: Equatable, Hashable, Sendable {
    /// The app's integration key.
    public var app: String
    public var token: String
    public var userKey: String?
    public var label: String?
    /// Which push token it is (docs/FORMATS.md): the push types that use it are those whose row
    /// names this kind. Written only when it is not `device`.
    public var kind: TokenKind
    /// The device's language, a locale tag (docs/FORMATS.md, "Languages"), after `kind`:
    /// the delivery's variant it gets. Kept as written; one that is no tag is
    /// `subscription.locale`. nil: the recipient's `locale` field, else the default.
    public var locale: String?

    public init(
        app: String, token: String, userKey: String? = nil, label: String? = nil, kind: TokenKind = .device,
        locale: String? = nil
    ) {
        self.app = app
        self.token = token
        self.userKey = userKey
        self.label = label
        self.kind = kind
        self.locale = locale
    }

    /// The token as lists and the send log show it (docs/FORMATS.md, docs/SENDING.md).
    public var shortToken: String { Self.shortened(token) }

    /// First 6 characters, `…`, last 4; a token too short to shorten is shown whole. Tokens
    /// are identifiers, not secrets: this keeps lists readable and logs smaller.
    public static func shortened(_ token: String) -> String {
        guard token.count > 10 else { return token }
        return String(token.prefix(6)) + "\u{2026}" + String(token.suffix(4))
    }
}
