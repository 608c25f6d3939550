/// Android app on `api="legacy"` → FCM legacy HTTP request (SPEC §4.3). Google shut the
/// legacy API down in 2024, so every such target also carries the `fcm.legacy-api` warning.
///
/// The legacy `notification` object only knows `title`, `body`, `icon`, `sound`, `tag`,
/// `color` and `click_action` under the names v1 uses; the other Android options have no
/// legacy key here and are reported by `legacy.ignored-option` instead of being sent.
public enum FCMLegacyMessage {
    public static let endpoint = "https://fcm.googleapis.com/fcm/send"

    /// `{to, priority, time_to_live, collapse_key, data, notification}`, only what is set.
    public static func payload(delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String) -> JSONValue {
        payloadAndBytes(delivery: delivery, app: app, tracking: tracking, token: token).0
    }

    static func payloadAndBytes(delivery: Delivery, app: AndroidApp, tracking: Tracking,
                                token: String) -> (JSONValue, Int) {
        let o = delivery.android
        var body: [(String, JSONValue)] = []
        if let p = o.priority { body.append(("priority", .string(p.rawValue))) }
        if let text = o.ttl.nonEmpty, let s = OptionValues.ttlSeconds(text) { body.append(("time_to_live", .int(s))) }
        if let v = o.collapseKey.nonEmpty { body.append(("collapse_key", .string(v))) }
        body.append(("data", .object(FCMv1Message.data(delivery: delivery, app: app, tracking: tracking))))
        if o.effectiveType == .notification {
            var n: [(String, JSONValue)] = []
            if let t = delivery.content.title.nonEmpty { n.append(("title", .string(t))) }
            if let b = delivery.content.body.nonEmpty { n.append(("body", .string(b))) }
            if let v = o.icon.nonEmpty { n.append(("icon", .string(v))) }
            if let v = o.sound.nonEmpty { n.append(("sound", .string(v))) }
            if let v = o.tag.nonEmpty { n.append(("tag", .string(v))) }
            if let v = o.color.nonEmpty, OptionValues.isColor(v) { n.append(("color", .string(v))) }
            if let v = o.clickAction.nonEmpty { n.append(("click_action", .string(v))) }
            if !n.isEmpty { body.append(("notification", .object(n))) }
        }
        let bytes = JSONValue.object(body).compactByteCount
        body.insert(("to", .string(token)), at: 0)
        return (.object(body), bytes)
    }

    static func build(delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String) -> BuiltRequest {
        let (payload, bytes) = payloadAndBytes(delivery: delivery, app: app, tracking: tracking, token: token)
        return BuiltRequest(endpoint: endpoint, headers: [], payload: payload, bytes: bytes)
    }
}
