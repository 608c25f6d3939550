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
        let live = ios.effectiveType == .liveactivity
        var h: [(String, String)] = [
            ("apns-push-type", silent ? "background" : live ? "liveactivity" : "alert"),
            ("apns-priority", ios.priority?.rawValue ?? (silent ? "5" : "10")),
            ("apns-topic", app.bundleId + (live ? ".push-type.liveactivity" : "")),
        ]
        if let text = ios.expiration.nonEmpty, let seconds = OptionValues.expiration(text) {
            h.append(("apns-expiration", String(seconds)))
        }
        if let id = ios.collapseId.nonEmpty { h.append(("apns-collapse-id", id)) }
        return h
    }

    /// `{"aps":{…}, custom keys…}`; `delivery` is already personalized.
    /// `timestamp`: a Live Activity's `aps.timestamp` (SPEC §12.2).
    public static func payload(delivery: Delivery, app: IOSApp, tracking: Tracking, timestamp: Int64 = 0) -> JSONValue {
        payload(JSONTree.self, delivery: delivery, app: app, tracking: tracking, timestamp: timestamp)
    }

    /// UTF-8 bytes of the compact payload, without building it.
    static func payloadBytes(delivery: Delivery, app: IOSApp, tracking: Tracking, timestamp: Int64) -> Int {
        payload(JSONByteCount.self, delivery: delivery, app: app, tracking: tracking, timestamp: timestamp)
    }

    static func payload<J: JSONOutput>(
        _: J.Type, delivery: Delivery, app: IOSApp, tracking: Tracking, timestamp: Int64
    ) -> J.Value {
        let ios = delivery.ios
        if LiveActivityPayload.applies(to: delivery) {
            return LiveActivityPayload.payload(J.self, delivery: delivery, timestamp: timestamp)
        }
        var aps = J.emptyObject
        if ios.effectiveType == .silent {
            J.append("content-available", J.int(1), to: &aps)
        } else {
            let c = delivery.content
            var alert = J.emptyObject
            if let t = c.title.nonEmpty { J.append("title", J.string(t), to: &alert) }
            if let s = c.subtitle.nonEmpty { J.append("subtitle", J.string(s), to: &alert) }
            if let b = c.body.nonEmpty { J.append("body", J.string(b), to: &alert) }
            if let l = ios.launchImage.nonEmpty { J.append("launch-image", J.string(l), to: &alert) }
            if !J.isEmpty(alert) { J.append("alert", J.value(alert), to: &aps) }
            if let text = ios.badge.nonEmpty, let badge = OptionValues.badge(text) {
                J.append("badge", J.int(badge), to: &aps)
            }
            if ios.critical == true {
                // A critical alert's sound is a dictionary (Apple: "critical", "name", "volume").
                var sound = J.emptyObject
                J.append("critical", J.int(1), to: &sound)
                J.append("name", J.string(ios.sound.nonEmpty ?? "default"), to: &sound)
                if let text = ios.volume.nonEmpty, let v = OptionValues.unitInterval(text) {
                    J.append("volume", J.number(v), to: &sound)
                }
                J.append("sound", J.value(sound), to: &aps)
            } else if let sound = ios.sound.nonEmpty {
                J.append("sound", J.string(sound), to: &aps)
            }
            if let v = ios.threadId.nonEmpty { J.append("thread-id", J.string(v), to: &aps) }
            if let v = ios.category.nonEmpty { J.append("category", J.string(v), to: &aps) }
            if ios.contentAvailable == true { J.append("content-available", J.int(1), to: &aps) }
            if ios.mutableContent == true { J.append("mutable-content", J.int(1), to: &aps) }
            if let level = ios.interruptionLevel { J.append("interruption-level", J.string(level.rawValue), to: &aps) }
            if let text = ios.relevanceScore.nonEmpty, let v = OptionValues.unitInterval(text) {
                J.append("relevance-score", J.number(v), to: &aps)
            }
            if let v = ios.filterCriteria.nonEmpty { J.append("filter-criteria", J.string(v), to: &aps) }
            if let v = ios.targetContentId.nonEmpty { J.append("target-content-id", J.string(v), to: &aps) }
        }
        var top = J.emptyObject
        J.append("aps", J.value(aps), to: &top)
        CustomKeys.append(
            J.self, delivery: delivery, declared: app.variables, tracking: tracking,
            skip: DeliveryRules.isReservedVariable, to: &top)
        return J.value(top)
    }

    /// The whole request; `withPayload: false` counts the payload's bytes without building
    /// it (the rules need only the count) and leaves `payload` null.
    static func build(
        delivery: Delivery, app: IOSApp, tracking: Tracking, token: String, timestamp: Int64 = 0,
        withPayload: Bool = true
    ) -> BuiltRequest {
        let payload =
            withPayload ? payload(delivery: delivery, app: app, tracking: tracking, timestamp: timestamp) : .null
        return BuiltRequest(
            endpoint: endpoint(environment: app.environment, token: token),
            headers: headers(delivery: delivery, app: app),
            payload: payload,
            bytes: withPayload
                ? payload.compactByteCount
                : payloadBytes(delivery: delivery, app: app, tracking: tracking, timestamp: timestamp))
    }
}
