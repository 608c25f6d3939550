/// Android app on `api="httpv1"` → FCM HTTP v1 request (docs/PAYLOADS.md).
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
    static func data<J: JSONOutput>(_: J.Type, delivery: Delivery, app: AndroidApp, tracking: Tracking) -> J.Value {
        let isData = delivery.android.effectiveType == .data
        var data = J.emptyObject
        if isData {
            if let t = delivery.content.title.nonEmpty { J.append("title", J.string(t), to: &data) }
            if let b = delivery.content.body.nonEmpty { J.append("_msg", J.string(b), to: &data) }
        }
        CustomKeys.append(
            J.self, delivery: delivery, declared: app.variables, tracking: tracking,
            skip: { name in
                DeliveryRules.isReservedVariable(name) || (isData && DeliveryRules.collidesWithDataTitle(name))
            }, to: &data)
        return J.value(data)
    }

    /// `notification` = {title, body, image}, only what is set; nil when empty.
    static func notification<J: JSONOutput>(_: J.Type, delivery: Delivery) -> J.Value? {
        var n = J.emptyObject
        if let t = delivery.content.title.nonEmpty { J.append("title", J.string(t), to: &n) }
        if let b = delivery.content.body.nonEmpty { J.append("body", J.string(b), to: &n) }
        if let i = delivery.android.image.nonEmpty { J.append("image", J.string(i), to: &n) }
        return J.isEmpty(n) ? nil : J.value(n)
    }

    /// `android.notification`: every AndroidNotification option that is set.
    static func androidNotification<J: JSONOutput>(_: J.Type, _ o: AndroidOptions, localized: LocalizedKeys?)
        -> J.Object
    {
        var n = J.emptyObject
        if let v = o.channelId.nonEmpty { J.append("channel_id", J.string(v), to: &n) }
        if let v = o.sound.nonEmpty { J.append("sound", J.string(v), to: &n) }
        if let v = o.icon.nonEmpty { J.append("icon", J.string(v), to: &n) }
        if let v = o.color.nonEmpty, OptionValues.isColor(v) { J.append("color", J.string(v), to: &n) }
        if let v = o.tag.nonEmpty { J.append("tag", J.string(v), to: &n) }
        if let v = o.clickAction.nonEmpty { J.append("click_action", J.string(v), to: &n) }
        if let v = o.ticker.nonEmpty { J.append("ticker", J.string(v), to: &n) }
        if let v = o.sticky { J.append("sticky", J.bool(v), to: &n) }
        if let v = o.visibility { J.append("visibility", J.string(v.rawValue.uppercased()), to: &n) }
        if let v = o.notificationPriority {
            J.append("notification_priority", J.string("PRIORITY_" + v.rawValue.uppercased()), to: &n)
        }
        if let text = o.notificationCount.nonEmpty, let v = OptionValues.notificationCount(text) {
            J.append("notification_count", J.int(v), to: &n)
        }
        if let v = o.proxy { J.append("proxy", J.string(v.fcm), to: &n) }
        // Localization keys at the end; FCM has no subtitle.
        if let keys = localized {
            for (key, args, name) in [(keys.titleKey, keys.titleArgs, "title"), (keys.bodyKey, keys.bodyArgs, "body")] {
                guard let key = key.nonEmpty else { continue }
                J.append(name + "_loc_key", J.string(key), to: &n)
                if !args.isEmpty { J.append(name + "_loc_args", J.strings(args), to: &n) }
            }
        }
        return n
    }

    /// `{"message":{token, notification, data, android, fcm_options}}`, only what is set; a
    /// Firebase installation ID (`fid`) in `token`'s place (docs/SENDING.md).
    public static func payload(
        delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String, fid: Bool = false
    ) -> JSONValue {
        var message = JSONTree.emptyObject
        JSONTree.append(fid ? "fid" : "token", .string(token), to: &message)
        members(JSONTree.self, delivery: delivery, app: app, tracking: tracking, to: &message)
        return .object([("message", .object(message))])
    }

    /// The bytes that count against the limit: the message without its target (docs/PAYLOADS.md).
    static func payloadBytes(delivery: Delivery, app: AndroidApp, tracking: Tracking) -> Int {
        var message = JSONByteCount.emptyObject
        members(JSONByteCount.self, delivery: delivery, app: app, tracking: tracking, to: &message)
        return JSONByteCount.value(message)
    }

    /// The message's members after `token`.
    static func members<J: JSONOutput>(
        _: J.Type, delivery: Delivery, app: AndroidApp, tracking: Tracking, to message: inout J.Object
    ) {
        let o = delivery.android
        if o.effectiveType == .notification, let n = notification(J.self, delivery: delivery) {
            J.append("notification", n, to: &message)
        }
        J.append("data", data(J.self, delivery: delivery, app: app, tracking: tracking), to: &message)
        var android = J.emptyObject
        if let p = o.priority { J.append("priority", J.string(p.rawValue.uppercased()), to: &android) }
        if let text = o.ttl.nonEmpty, let s = OptionValues.ttlSeconds(text) {
            J.append("ttl", J.string("\(s)s"), to: &android)
        }
        if let v = o.collapseKey.nonEmpty { J.append("collapse_key", J.string(v), to: &android) }
        if let v = o.directBootOk { J.append("direct_boot_ok", J.bool(v), to: &android) }
        if let v = o.bandwidthConstrainedOk { J.append("bandwidth_constrained_ok", J.bool(v), to: &android) }
        if let v = o.restrictedSatelliteOk { J.append("restricted_satellite_ok", J.bool(v), to: &android) }
        if o.effectiveType == .notification {
            let n = androidNotification(J.self, o, localized: delivery.content.localized)
            if !J.isEmpty(n) { J.append("notification", J.value(n), to: &android) }
        }
        if !J.isEmpty(android) { J.append("android", J.value(android), to: &message) }
        // Last in the message, as firebase-admin encodes it (docs/PAYLOADS.md); a malformed label
        // is `android.analytics-label` and not sent.
        if let v = o.analyticsLabel.nonEmpty, OptionValues.isAnalyticsLabel(v) {
            var options = J.emptyObject
            J.append("analytics_label", J.string(v), to: &options)
            J.append("fcm_options", J.value(options), to: &message)
        }
    }

    static func build(
        delivery: Delivery, app: AndroidApp, tracking: Tracking, token: String, fid: Bool = false,
        withPayload: Bool = true
    ) -> BuiltRequest {
        BuiltRequest(
            endpoint: endpoint(projectId: projectId(of: app)), headers: [],
            payload: withPayload
                ? payload(delivery: delivery, app: app, tracking: tracking, token: token, fid: fid) : .null,
            bytes: payloadBytes(delivery: delivery, app: app, tracking: tracking))
    }
}
