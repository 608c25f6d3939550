/// Android app on `api="legacy"` → FCM legacy HTTP request (docs/PAYLOADS.md). Google shut the
/// legacy API down in 2024, so every such target also carries the `fcm.legacy-api` warning.
///
/// The legacy `notification` object only knows `title`, `body`, `icon`, `sound`, `tag`,
/// `color` and `click_action` under the names v1 uses; the other Android options have no
/// legacy key here and are reported by `legacy.ignored-option` instead of being sent.
public enum FCMLegacyMessage {
    public static let endpoint = "https://fcm.googleapis.com/fcm/send"

    /// `{to, priority, time_to_live, collapse_key, data, notification}`, only what is set.
    public static func payload(delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String) -> JSONValue {
        var body = JSONTree.emptyObject
        JSONTree.append("to", .string(token), to: &body)
        members(JSONTree.self, delivery: delivery, app: app, tracking: tracking, to: &body)
        return .object(body)
    }

    /// The bytes that count against the limit: the body without `to` (docs/PAYLOADS.md).
    static func payloadBytes(delivery: Delivery, app: AndroidApp, tracking: Tracking) -> Int {
        var body = JSONByteCount.emptyObject
        members(JSONByteCount.self, delivery: delivery, app: app, tracking: tracking, to: &body)
        return JSONByteCount.value(body)
    }

    /// The body's members after `to`.
    static func members<J: JSONOutput>(
        _: J.Type, delivery: Delivery, app: AndroidApp, tracking: Tracking, to body: inout J.Object
    ) {
        let o = delivery.android
        if let p = o.priority { J.append("priority", J.string(p.rawValue), to: &body) }
        if let text = o.ttl.nonEmpty, let s = OptionValues.ttlSeconds(text) {
            J.append("time_to_live", J.int(s), to: &body)
        }
        if let v = o.collapseKey.nonEmpty { J.append("collapse_key", J.string(v), to: &body) }
        J.append("data", FCMv1Message.data(J.self, delivery: delivery, app: app, tracking: tracking), to: &body)
        if o.effectiveType == .notification {
            var n = J.emptyObject
            if let t = delivery.content.title.nonEmpty { J.append("title", J.string(t), to: &n) }
            if let b = delivery.content.body.nonEmpty { J.append("body", J.string(b), to: &n) }
            if let v = o.icon.nonEmpty { J.append("icon", J.string(v), to: &n) }
            if let v = o.sound.nonEmpty { J.append("sound", J.string(v), to: &n) }
            if let v = o.tag.nonEmpty { J.append("tag", J.string(v), to: &n) }
            if let v = o.color.nonEmpty, OptionValues.isColor(v) { J.append("color", J.string(v), to: &n) }
            if let v = o.clickAction.nonEmpty { J.append("click_action", J.string(v), to: &n) }
            if !J.isEmpty(n) { J.append("notification", J.value(n), to: &body) }
        }
    }

    static func build(delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String, withPayload: Bool = true)
        -> BuiltRequest
    {
        BuiltRequest(
            endpoint: endpoint, headers: [],
            payload: withPayload ? payload(delivery: delivery, app: app, tracking: tracking, token: token) : .null,
            bytes: payloadBytes(delivery: delivery, app: app, tracking: tracking))
    }
}
