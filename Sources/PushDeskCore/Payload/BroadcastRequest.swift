import Foundation

/// A Live Activity broadcast to one of an iOS app's channels (docs/SENDING.md): `POST
/// /4/broadcasts/apps/<bundle id>` with `apns-channel-id`, `apns-push-type: liveactivity`,
/// `apns-priority` and `apns-expiration`, no `apns-topic`, the Live Activity body (docs/PAYLOADS.md), limit 5120.
/// `preview --channel` shows it and `send --channel` sends it byte for byte.
public enum BroadcastRequest {
    public static let sizeLimit = 5120

    static let channelStart = Rule(
        "channel.start", .error, .target, "a Live Activity start broadcast to a channel")
    static let channelExpiration = Rule(
        "channel.expiration", .error, .target, "an expiration on a broadcast to a channel that stores no message")
    /// The broadcast's own rules (its `size.limit` is the delivery rule's, at 5120 bytes).
    static let rules = [channelStart, channelExpiration]

    public static func endpoint(environment: IOSEnvironment, bundleId: String) -> String {
        (environment == .sandbox ? APNsRequest.sandboxHost : APNsRequest.productionHost) + path(bundleId: bundleId)
    }

    static func path(bundleId: String) -> String {
        "/4/broadcasts/apps/" + (bundleId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? bundleId)
    }

    /// The channel of `app` named by its id or, failing that, its label.
    public static func channel(_ idOrLabel: String, of app: IOSApp) -> BroadcastChannel? {
        app.channels.first { $0.id == idOrLabel } ?? app.channels.first { $0.label == idOrLabel }
    }

    /// `apns-expiration`: `0` on a channel that stores nothing, else the delivery's, else `0`.
    static func expiration(_ delivery: Delivery, channel: BroadcastChannel) -> String {
        guard channel.storage == .mostRecent, let text = delivery.ios.expiration.nonEmpty,
            let seconds = OptionValues.expiration(text)
        else { return "0" }
        return String(seconds)
    }

    public static func headers(delivery: Delivery, channel: BroadcastChannel) -> [(name: String, value: String)] {
        [
            ("apns-channel-id", channel.id), ("apns-push-type", "liveactivity"),
            ("apns-priority", delivery.ios.priority?.rawValue ?? "10"),
            ("apns-expiration", expiration(delivery, channel: channel)),
        ]
    }

    /// The preview of the broadcast: one target, with the app's findings for this delivery
    /// (as `preview --app` reports them) and the channel rules; `at` is the Live Activity's
    /// `timestamp` (default: `now`).
    public static func preview(
        delivery: Delivery, service: Service, app: IOSApp, channel: BroadcastChannel, now: Date, at: Int? = nil,
        messageId: String? = nil
    ) -> Preview {
        var p = PreviewEngine.preview(
            delivery: delivery, service: service, profile: nil, appKey: app.integrationKey, token: nil, now: now,
            messageId: messageId)
        guard var t = p.targets.first else { return p }
        let file = Delivery.path(delivery.name)
        t.endpoint = endpoint(environment: app.environment, bundleId: app.bundleId)
        t.headers = headers(delivery: delivery, channel: channel)
        t.payload = LiveActivityPayload.payload(
            delivery: delivery, timestamp: at ?? Int(now.timeIntervalSince1970.rounded(.down)))
        t.bytes = t.payload.compactBytes.count
        t.limit = sizeLimit
        // The device request's size finding is against its own limit; a broadcast has 5120.
        t.diagnostics.removeAll { $0.rule == "size.limit" }
        t.diagnostics += findings(delivery, channel: channel, bytes: t.bytes, file: file)
        p.targets = [t]
        return p
    }

    /// `channel.start`, `channel.expiration`, and the 5120-byte `size.limit`.
    static func findings(_ d: Delivery, channel: BroadcastChannel, bytes: Int, file: String) -> [Finding] {
        var out: [Finding] = []
        let name = channel.label.isEmpty ? Escape.inline(channel.id) : "“\(Escape.inline(channel.label))”"
        if d.liveActivity?.knownEvent == .start {
            out.append(
                channelStart.finding(
                    "a Live Activity start is not broadcast: devices start it themselves and subscribe through inputPushChannel; broadcast an update or end to channel \(name)",
                    file: file, field: FieldPath("liveActivity", "event")))
        }
        if channel.storage == .none, let text = d.ios.expiration.nonEmpty,
            OptionValues.expiration(text).map({ $0 != 0 }) ?? true
        {
            out.append(
                channelExpiration.finding(
                    "channel \(name) stores no message (storage none), so Apple takes only apns-expiration 0; remove the delivery's expiration or use a channel with storage mostRecent",
                    file: file, field: FieldPath("ios", "expiration")))
        }
        if bytes > sizeLimit {
            out.append(
                DeliveryRules.payloadSize.finding(
                    "the broadcast payload is \(bytes) bytes, over the \(sizeLimit)-byte limit by \(bytes - sizeLimit); shorten the content state, attributes or alert",
                    file: file, field: "payload"))
        }
        return out
    }
}
