/// Android app on `api="httpv1"` → FCM HTTP v1 request (SPEC §4.2).
///
/// Enum spellings follow Firebase's v1 reference: `AndroidConfig.priority` `HIGH|NORMAL`,
/// `ttl` a Duration string (`"86400s"`), `AndroidNotification.visibility`
/// `PUBLIC|PRIVATE|SECRET`, `notification_priority` `PRIORITY_MIN…PRIORITY_MAX`.
public enum FCMv1Message {
    /// Shown in the endpoint when the app has no service-account project id (a rule reports it).
    public static let projectPlaceholder = "PROJECT_ID"

    public static func endpoint(projectId: String?) -> String {
        "https://fcm.googleapis.com/v1/projects/\(projectId.nonEmpty ?? projectPlaceholder)/messages:send"
    }

    /// The project id of the app's service account, nil when it has none.
    public static func projectId(of app: AndroidApp) -> String? {
        if case .serviceAccount(let projectId, _, _) = app.auth { return projectId.nonEmpty }
        return nil
    }

    /// The `data` object shared with the legacy API: for data messages `title`, `_msg` (the
    /// body) then custom keys; for notification messages custom keys only. All strings.
    static func data(delivery: Delivery, app: AndroidApp, tracking: Tracking) -> [(String, JSONValue)] {
        let isData = delivery.android.effectiveType == .data
        var data: [(String, JSONValue)] = []
        if isData {
            if let t = delivery.content.title.nonEmpty { data.append(("title", .string(t))) }
            if let b = delivery.content.body.nonEmpty { data.append(("_msg", .string(b))) }
        }
        data += CustomKeys.members(delivery: delivery, declared: app.variables, tracking: tracking) { name in
            DeliveryRules.isReservedVariable(name) || (isData && DeliveryRules.collidesWithDataTitle(name))
        }
        return data
    }

    /// `notification` = {title, body, image}, only what is set; nil when empty.
    static func notification(delivery: Delivery) -> JSONValue? {
        var n: [(String, JSONValue)] = []
        if let t = delivery.content.title.nonEmpty { n.append(("title", .string(t))) }
        if let b = delivery.content.body.nonEmpty { n.append(("body", .string(b))) }
        if let i = delivery.android.image.nonEmpty { n.append(("image", .string(i))) }
        return n.isEmpty ? nil : .object(n)
    }

    /// `android.notification`: every AndroidNotification option that is set.
    static func androidNotification(_ o: AndroidOptions) -> [(String, JSONValue)] {
        var n: [(String, JSONValue)] = []
        if let v = o.channelId.nonEmpty { n.append(("channel_id", .string(v))) }
        if let v = o.sound.nonEmpty { n.append(("sound", .string(v))) }
        if let v = o.icon.nonEmpty { n.append(("icon", .string(v))) }
        if let v = o.color.nonEmpty, OptionValues.isColor(v) { n.append(("color", .string(v))) }
        if let v = o.tag.nonEmpty { n.append(("tag", .string(v))) }
        if let v = o.clickAction.nonEmpty { n.append(("click_action", .string(v))) }
        if let v = o.ticker.nonEmpty { n.append(("ticker", .string(v))) }
        if let v = o.sticky { n.append(("sticky", .bool(v))) }
        if let v = o.visibility { n.append(("visibility", .string(v.rawValue.uppercased()))) }
        if let v = o.notificationPriority { n.append(("notification_priority", .string("PRIORITY_" + v.rawValue.uppercased()))) }
        if let text = o.notificationCount.nonEmpty, let v = OptionValues.notificationCount(text) {
            n.append(("notification_count", .int(v)))
        }
        return n
    }

    /// `{"message":{token, notification, data, android}}`, only what is set.
    public static func payload(delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String) -> JSONValue {
        let (payload, _) = payloadAndBytes(delivery: delivery, app: app, tracking: tracking, token: token)
        return payload
    }

    static func payloadAndBytes(delivery: Delivery, app: AndroidApp, tracking: Tracking,
                                token: String) -> (JSONValue, Int) {
        let o = delivery.android
        var message: [(String, JSONValue)] = []
        if o.effectiveType == .notification, let n = notification(delivery: delivery) {
            message.append(("notification", n))
        }
        message.append(("data", .object(data(delivery: delivery, app: app, tracking: tracking))))
        var android: [(String, JSONValue)] = []
        if let p = o.priority { android.append(("priority", .string(p.rawValue.uppercased()))) }
        if let text = o.ttl.nonEmpty, let s = OptionValues.ttlSeconds(text) { android.append(("ttl", .string("\(s)s"))) }
        if let v = o.collapseKey.nonEmpty { android.append(("collapse_key", .string(v))) }
        if o.effectiveType == .notification {
            let n = androidNotification(o)
            if !n.isEmpty { android.append(("notification", .object(n))) }
        }
        if !android.isEmpty { message.append(("android", .object(android))) }
        // The limit counts the message without its target (SPEC §4.5).
        let bytes = JSONValue.object(message).compactByteCount
        message.insert(("token", .string(token)), at: 0)
        return (.object([("message", .object(message))]), bytes)
    }

    static func build(delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String) -> BuiltRequest {
        let (payload, bytes) = payloadAndBytes(delivery: delivery, app: app, tracking: tracking, token: token)
        return BuiltRequest(endpoint: endpoint(projectId: projectId(of: app)), headers: [],
                            payload: payload, bytes: bytes)
    }
}
