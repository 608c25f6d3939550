/// iOS → APNs request (SPEC §4.1): endpoint, headers and JSON payload.
///
/// Values that do not parse (a badge of `-1`, a volume of `2`) are left out of the
/// payload; DeliveryRules reports them on their field, so the preview never shows a
/// payload APNs would reject for a malformed key.
public enum APNsRequest {
    public static let sandboxHost = "https://api.sandbox.push.apple.com"
    public static let productionHost = "https://api.push.apple.com"

    public static func endpoint(environment: IOSEnvironment, token: String) -> String {
        (environment == .sandbox ? sandboxHost : productionHost) + "/3/device/" + token
    }

    /// `apns-push-type`, `apns-priority`, `apns-topic`, then `apns-expiration` and
    /// `apns-collapse-id` when set.
    public static func headers(delivery: Delivery, app: IOSApp) -> [(String, String)] {
        let ios = delivery.ios
        let silent = ios.effectiveType == .silent
        var h: [(String, String)] = [
            ("apns-push-type", silent ? "background" : "alert"),
            ("apns-priority", ios.priority?.rawValue ?? (silent ? "5" : "10")),
            ("apns-topic", app.bundleId),
        ]
        if let text = ios.expiration.nonEmpty, let seconds = OptionValues.expiration(text) {
            h.append(("apns-expiration", String(seconds)))
        }
        if let id = ios.collapseId.nonEmpty { h.append(("apns-collapse-id", id)) }
        return h
    }

    /// `{"aps":{…}, custom keys…}`; `delivery` is already personalized.
    public static func payload(delivery: Delivery, app: IOSApp, tracking: Tracking) -> JSONValue {
        let ios = delivery.ios
        var aps: [(String, JSONValue)] = []
        if ios.effectiveType == .silent {
            aps.append(("content-available", .int(1)))
        } else {
            let c = delivery.content
            var alert: [(String, JSONValue)] = []
            if let t = c.title.nonEmpty { alert.append(("title", .string(t))) }
            if let s = c.subtitle.nonEmpty { alert.append(("subtitle", .string(s))) }
            if let b = c.body.nonEmpty { alert.append(("body", .string(b))) }
            if let l = ios.launchImage.nonEmpty { alert.append(("launch-image", .string(l))) }
            if !alert.isEmpty { aps.append(("alert", .object(alert))) }
            if let text = ios.badge.nonEmpty, let badge = OptionValues.badge(text) { aps.append(("badge", .int(badge))) }
            if ios.critical == true {
                // A critical alert's sound is a dictionary (Apple: "critical", "name", "volume").
                var sound: [(String, JSONValue)] = [("critical", .int(1)), ("name", .string(ios.sound.nonEmpty ?? "default"))]
                if let text = ios.volume.nonEmpty, let v = OptionValues.unitInterval(text) { sound.append(("volume", .number(v))) }
                aps.append(("sound", .object(sound)))
            } else if let sound = ios.sound.nonEmpty {
                aps.append(("sound", .string(sound)))
            }
            if let v = ios.threadId.nonEmpty { aps.append(("thread-id", .string(v))) }
            if let v = ios.category.nonEmpty { aps.append(("category", .string(v))) }
            if ios.contentAvailable == true { aps.append(("content-available", .int(1))) }
            if ios.mutableContent == true { aps.append(("mutable-content", .int(1))) }
            if let level = ios.interruptionLevel { aps.append(("interruption-level", .string(level.rawValue))) }
            if let text = ios.relevanceScore.nonEmpty, let v = OptionValues.unitInterval(text) {
                aps.append(("relevance-score", .number(v)))
            }
            if let v = ios.targetContentId.nonEmpty { aps.append(("target-content-id", .string(v))) }
        }
        var top: [(String, JSONValue)] = [("aps", .object(aps))]
        top += CustomKeys.members(delivery: delivery, declared: app.variables, tracking: tracking,
                                  skip: DeliveryRules.isReservedVariable)
        return .object(top)
    }

    static func build(delivery: Delivery, app: IOSApp, tracking: Tracking, token: String) -> BuiltRequest {
        let payload = payload(delivery: delivery, app: app, tracking: tracking)
        return BuiltRequest(endpoint: endpoint(environment: app.environment, token: token),
                            headers: headers(delivery: delivery, app: app),
                            payload: payload, bytes: payload.compactByteCount)
    }
}
