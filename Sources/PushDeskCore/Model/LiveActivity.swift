/// The `<liveActivity>` element of a delivery of type `liveactivity` (docs/PAYLOADS.md): which
/// event, the dates, and the two JSON texts, kept as written. The texts are read by
/// `JSONReader` when a payload is built and by the rules (`liveactivity.json` at the text's
/// line:column), never at load time: a half-typed content state is a finding on its field,
/// not a file that no longer opens.
public struct LiveActivity: Equatable, Sendable {
    /// `start|update|end` as written; anything else is `liveactivity.event`.
    public var event: String?
    /// The app's `ActivityAttributes` type (start only).
    public var attributesType: String?
    /// ISO 8601 UTC.
    public var staleDate: String?
    /// ISO 8601 UTC (end only).
    public var dismissalDate: String?
    /// Ask for the activity's push token (start only).
    public var inputPushToken: Bool?
    /// Subscribe the activity to a broadcast channel (start only, docs/SENDING.md).
    public var inputPushChannel: String?
    /// `<contentState>`: one JSON object (required).
    public var contentState: String
    /// `<attributes>`: one JSON object (start only); nil = no element.
    public var attributes: String?

    public static let definitions: [FieldDefinition<LiveActivity>] = [
        .text("event", "Event", note: "start|update|end", .liveActivity, notificationOnly: false, \.event),
        .text(
            "attributesType", "Attributes type", note: "start: the ActivityAttributes type", .liveActivity,
            notificationOnly: false, \.attributesType),
        .text(
            "staleDate", "Stale date", note: "2026-12-01T18:00:00Z", .liveActivity, notificationOnly: false, \.staleDate
        ),
        .text(
            "dismissalDate", "Dismissal date", note: "end: ≤ 4 hours ahead", .liveActivity, notificationOnly: false,
            \.dismissalDate),
        .bool(
            "inputPushToken", "Input push token", note: "start: ask for a token", .liveActivity,
            notificationOnly: false,
            \.inputPushToken),
        .text(
            "inputPushChannel", "Input push channel", note: "start: a channel id", .liveActivity,
            notificationOnly: false,
            \.inputPushChannel),
    ]

    /// The child elements, in the file's order, with their fields' names.
    public static let texts: [(name: String, label: String, text: WritableKeyPath<LiveActivity, String?> & Sendable)] =
        [
            ("contentState", "Content state", \.contentStateText),
            ("attributes", "Attributes", \.attributes),
        ]

    public init(
        event: String? = nil, attributesType: String? = nil, staleDate: String? = nil, dismissalDate: String? = nil,
        inputPushToken: Bool? = nil, inputPushChannel: String? = nil, contentState: String = "{}",
        attributes: String? = nil
    ) {
        self.event = event
        self.attributesType = attributesType
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
        self.contentState = contentState
        self.attributes = attributes
    }

    /// `contentState` as an optional text, for the table of texts (empty = not set).
    public var contentStateText: String? {
        get { contentState }
        set { contentState = newValue ?? "" }
    }

    /// `event` when it is one of the three.
    public var knownEvent: LiveActivityEvent? { event.flatMap(LiveActivityEvent.init(rawValue:)) }
}

public enum LiveActivityEvent: String, Sendable, CaseIterable {
    case start, update, end
}
