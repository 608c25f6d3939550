/// A delivery in several languages (docs/FORMATS.md, "Languages"): `<variants>` holds one
/// `<variant locale>` per language, each with its own texts and values, and `<content>` may
/// end with `<localized>`, the localization keys the app looks up in its own strings.

/// The text elements of `<content>` and of a `<variant>`, in the file's order. A variant's
/// texts replace the default's as a set: one it leaves out is not sent in that variant.
public protocol DeliveryTexts {
    var title: String { get set }
    var subtitle: String { get set }
    var body: String { get set }
}

public enum DeliveryText: String, CaseIterable, Sendable {
    case title, subtitle, body

    /// Where the text lives in `<content>` or a variant.
    public func value(in t: some DeliveryTexts) -> String {
        switch self {
        case .title: t.title
        case .subtitle: t.subtitle
        case .body: t.body
        }
    }

    public func set(_ value: String, in t: inout some DeliveryTexts) {
        switch self {
        case .title: t.title = value
        case .subtitle: t.subtitle = value
        case .body: t.body = value
        }
    }
}

extension DeliveryTexts {
    /// No title, subtitle or body.
    public var hasNoText: Bool { title.isEmpty && subtitle.isEmpty && body.isEmpty }
}

/// One `<variant locale="TAG">`: the texts and values a device of that language gets.
public struct DeliveryVariant: Equatable, Sendable, DeliveryTexts {
    /// As written; the writer puts a valid tag in its canonical form and the rules report
    /// one that is no tag (`variant.locale`), as numeric options are kept for their rules.
    public var locale: String
    public var title: String
    public var subtitle: String
    public var body: String
    /// Values that override the delivery's of the same name; the others are inherited.
    public var variables: [VariableValue]

    public init(
        locale: String, title: String = "", subtitle: String = "", body: String = "",
        variables: [VariableValue] = []
    ) {
        self.locale = locale
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.variables = variables
    }

    /// The locale as a tag; nil when it is none.
    public var tag: LocaleTag? { LocaleTag(locale) }

    /// The path of its findings and merge conflicts: `variant[de]`.
    public var field: FieldPath { FieldPath([.name("variant"), .key(tag?.description ?? locale)]) }

    /// At most this many variants per delivery (`variant.count`).
    public static let maxCount = 200
}

/// `<localized titleKey subtitleKey bodyKey>` with its `<titleArg>`, `<subtitleArg>` and
/// `<bodyArg>` children: localization keys and their arguments, for every variant.
public struct LocalizedKeys: Equatable, Sendable {
    public var titleKey: String?
    public var subtitleKey: String?
    public var bodyKey: String?
    public var titleArgs: [String]
    public var subtitleArgs: [String]
    public var bodyArgs: [String]

    public init(
        titleKey: String? = nil, subtitleKey: String? = nil, bodyKey: String? = nil,
        titleArgs: [String] = [], subtitleArgs: [String] = [], bodyArgs: [String] = []
    ) {
        self.titleKey = titleKey
        self.subtitleKey = subtitleKey
        self.bodyKey = bodyKey
        self.titleArgs = titleArgs
        self.subtitleArgs = subtitleArgs
        self.bodyArgs = bodyArgs
    }

    /// The attributes, in the file's order.
    public static let definitions: [FieldDefinition<LocalizedKeys>] = [
        .text("titleKey", "Title key", note: "the app's string for the title", .localized, \.titleKey),
        .text("subtitleKey", "Subtitle key", note: "iOS only", .localized, \.subtitleKey),
        .text("bodyKey", "Body key", note: "the app's string for the body", .localized, \.bodyKey),
    ]

    /// Each kind of argument: its element, the key it needs and where it lives, in the file's order.
    public static let arguments:
        [(element: String, key: String, args: WritableKeyPath<LocalizedKeys, [String]> & Sendable)] = [
            ("titleArg", "titleKey", \.titleArgs),
            ("subtitleArg", "subtitleKey", \.subtitleArgs),
            ("bodyArg", "bodyKey", \.bodyArgs),
        ]

    /// Nothing set: no key and no argument.
    public var isEmpty: Bool { self == LocalizedKeys() }
}
