/// The iOS push types (docs/PAYLOADS.md), each defined once: one row of `PushType.all`. The payload
/// builder (`APNsRequest`), the rules (`PushTypeRules`), the composer, `send`, the device view
/// and the hints read these rows, so a new type is a row (plus its payload shape when it is a
/// new one), the schema, docs and tests. `<ios type>` holds `name`.
public struct PushType: Hashable, Sendable, CustomStringConvertible {
    /// What `<ios type>` says (Campaign's names: `silent` is Apple's `background`).
    public let name: String
    /// The `apns-push-type` header.
    public let apnsPushType: String
    /// Appended to the app's bundle id in `apns-topic` (`.voip`, `.push-type.widgets`, …).
    public let topicSuffix: String
    /// The token kinds it is sent to (docs/FORMATS.md); `liveactivity` uses the first for a start and
    /// the second for an update or end (`tokenKind(for:)`).
    public let tokenKinds: [TokenKind]
    /// The `apns-priority` values Apple accepts for it, and the one sent when none is set.
    public let priorities: [APNsPriority]
    public let defaultPriority: APNsPriority
    /// Certificate auth cannot send it (`type.token-auth`).
    public let tokenAuthOnly: Bool
    /// Payload bytes Apple accepts (`size.limit`), and on a broadcast channel (docs/SENDING.md).
    public let sizeLimit: Int
    public let channelSizeLimit: Int?
    /// An `apns-expiration` Apple requires for the type (`0` for push-to-talk); it replaces
    /// the delivery's `expiration`.
    public let fixedExpiration: String?
    public let payload: PushPayloadShape
    /// `aps.content-available: 1` whatever the options say (a background update).
    public let contentAvailable: Bool
    /// The `<content>` fields it sends (`title`, `subtitle`, `body`).
    public let content: [String]
    /// The `<ios>` options it sends; the others are left out (`type.ignored-option`).
    public let options: [String]
    /// The delivery's variables, `_mId` and `_dId` beside (or instead of) `aps`.
    public let customKeys: Bool
    /// Android apps of the service get no request (`type.ios-only`).
    public let iosOnly: Bool
    /// What the device does with it (a sentence's subject and verb), for the device view.
    public let effect: String
    /// The composer's short hint beside the type.
    public let note: String

    public var description: String { name }

    /// A type is its name: rows are compared and hashed by it.
    public static func == (a: PushType, b: PushType) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }

    /// The topic `apns-topic` carries for an app with this bundle id.
    public func topic(bundleId: String) -> String { bundleId + topicSuffix }

    /// Whether the type sends the `<content>` field or `<ios>` option `name`.
    public func sends(content name: String) -> Bool { content.contains(name) }
    public func sends(option name: String) -> Bool { options.contains(name) }

    /// The token kind a delivery of this type is sent to.
    public func tokenKind(for delivery: Delivery) -> TokenKind {
        payload == .liveActivity ? LiveActivityPayload.tokenKind(delivery) : tokenKinds[0]
    }
}

/// How a type's payload is built (the last column of docs/PAYLOADS.md's push-type table).
public enum PushPayloadShape: String, Sendable {
    /// docs/PAYLOADS.md: `aps` from the content and options the type sends, then custom keys.
    case alert
    /// `{"aps":{"content-changed":true}}` (WidgetKit reloads).
    case contentChanged
    /// The custom keys alone, no `aps`.
    case customKeysOnly
    /// docs/PAYLOADS.md (`LiveActivityPayload`).
    case liveActivity
}

extension PushType {
    /// The `<ios>` options every type sends as headers (the priority it allows, the
    /// collapse id, the expiration unless the type fixes it).
    static let headerOptions = ["priority", "collapseId", "expiration"]
    /// What an alert sends in `aps` (docs/PAYLOADS.md).
    static let alertOptions = [
        "sound", "critical", "volume", "badge", "category", "mutableContent", "contentAvailable", "threadId",
        "interruptionLevel", "relevanceScore", "filterCriteria", "targetContentId", "launchImage",
    ]
    static let all3: [APNsPriority] = [.immediate, .powerConsiderate, .low]
    static let tenOrFive: [APNsPriority] = [.immediate, .powerConsiderate]

    public static let alert = PushType(
        name: "alert", apnsPushType: "alert", topicSuffix: "", tokenKinds: [.device], priorities: all3,
        defaultPriority: .immediate, tokenAuthOnly: false, sizeLimit: 4096, channelSizeLimit: nil,
        fixedExpiration: nil, payload: .alert, contentAvailable: false, content: ["title", "subtitle", "body"],
        options: alertOptions + headerOptions, customKeys: true, iosOnly: false,
        effect: "an alert shows a notification", note: "shows a notification")
    public static let silent = PushType(
        name: "silent", apnsPushType: "background", topicSuffix: "", tokenKinds: [.device],
        priorities: [.powerConsiderate], defaultPriority: .powerConsiderate, tokenAuthOnly: false, sizeLimit: 4096,
        channelSizeLimit: nil, fixedExpiration: nil, payload: .alert, contentAvailable: true, content: [],
        options: headerOptions, customKeys: true, iosOnly: false,
        effect: "a silent notification wakes the app in the background", note: "a background update, no alert")
    public static let liveactivity = PushType(
        name: "liveactivity", apnsPushType: "liveactivity", topicSuffix: ".push-type.liveactivity",
        tokenKinds: [.pushToStart, .activity], priorities: tenOrFive, defaultPriority: .immediate,
        tokenAuthOnly: true, sizeLimit: 4096, channelSizeLimit: 5120, fixedExpiration: nil, payload: .liveActivity,
        contentAvailable: false, content: ["title", "body"],
        options: ["sound", "critical", "volume", "relevanceScore"] + headerOptions,
        customKeys: false, iosOnly: true, effect: "a Live Activity push starts, updates or ends an activity",
        note: "starts, updates, ends an activity")
    public static let widgets = PushType(
        name: "widgets", apnsPushType: "widgets", topicSuffix: ".push-type.widgets", tokenKinds: [.widgets],
        priorities: tenOrFive, defaultPriority: .immediate, tokenAuthOnly: false, sizeLimit: 4096,
        channelSizeLimit: nil, fixedExpiration: nil, payload: .contentChanged, contentAvailable: false, content: [],
        options: headerOptions, customKeys: false, iosOnly: true,
        effect: "a widgets push reloads the app's widgets", note: "reloads widgets, shows nothing")
    public static let controls = PushType(
        name: "controls", apnsPushType: "controls", topicSuffix: ".push-type.controls", tokenKinds: [.controls],
        priorities: tenOrFive, defaultPriority: .immediate, tokenAuthOnly: false, sizeLimit: 4096,
        channelSizeLimit: nil, fixedExpiration: nil, payload: .contentChanged, contentAvailable: false, content: [],
        options: headerOptions, customKeys: false, iosOnly: true,
        effect: "a controls push reloads the app's controls", note: "reloads controls, shows nothing")
    public static let voip = PushType(
        name: "voip", apnsPushType: "voip", topicSuffix: ".voip", tokenKinds: [.voip], priorities: tenOrFive,
        defaultPriority: .immediate, tokenAuthOnly: false, sizeLimit: 5120, channelSizeLimit: nil,
        fixedExpiration: nil, payload: .customKeysOnly, contentAvailable: false, content: [],
        options: headerOptions, customKeys: true, iosOnly: true,
        effect: "a VoIP push wakes the app, which reports an incoming call to CallKit",
        note: "an incoming call (CallKit)")
    public static let location = PushType(
        name: "location", apnsPushType: "location", topicSuffix: ".location-query", tokenKinds: [.location],
        priorities: tenOrFive, defaultPriority: .immediate, tokenAuthOnly: true, sizeLimit: 4096,
        channelSizeLimit: nil, fixedExpiration: nil, payload: .customKeysOnly, contentAvailable: false, content: [],
        options: headerOptions, customKeys: true, iosOnly: true,
        effect: "a location push wakes the app's location extension", note: "a location query, shows nothing")

    public static let pushtotalk = PushType(
        name: "pushtotalk", apnsPushType: "pushtotalk", topicSuffix: ".voip-ptt", tokenKinds: [.pushToTalk],
        priorities: [.immediate], defaultPriority: .immediate, tokenAuthOnly: false, sizeLimit: 4096,
        channelSizeLimit: nil, fixedExpiration: "0", payload: .customKeysOnly, contentAvailable: false, content: [],
        options: ["priority", "collapseId"], customKeys: true, iosOnly: true,
        effect: "a push-to-talk push wakes the app to play a channel's audio", note: "push to talk, plays audio")

    /// Every type, in the order the composer offers them.
    public static let all: [PushType] = [alert, silent, liveactivity, widgets, controls, voip, location, pushtotalk]
}

extension PushType: RawRepresentable, CaseIterable {
    public init?(rawValue: String) {
        guard let t = Self.all.first(where: { $0.name == rawValue }) else { return nil }
        self = t
    }
    public var rawValue: String { name }
    public static var allCases: [PushType] { all }
}

/// Which push token a subscription holds (docs/FORMATS.md); `device` when `kind` is absent.
public enum TokenKind: String, Sendable, CaseIterable {
    case device, pushToStart, activity, voip, widgets, controls, location, pushToTalk
    /// A Firebase installation ID (docs/SENDING.md): Android only, sent as `message.fid`.
    case fid

    /// `device` exists on both platforms (APNs device token, FCM registration token), `fid`
    /// on Android only; every other kind on iOS only.
    public var iosOnly: Bool { self != .device && self != .fid }
    public var androidOnly: Bool { self == .fid }

    /// Whether an app of `platform` can hold a token of this kind.
    public func fits(_ platform: Platform) -> Bool { platform == .ios ? !androidOnly : !iosOnly }
}
