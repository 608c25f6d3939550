/// iOS → APNs request (docs/PAYLOADS.md): endpoint, headers and JSON payload.
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
    /// `apns-collapse-id` when set; all as the delivery's push type says (docs/PAYLOADS.md).
    public static func headers(delivery: Delivery, app: IOSApp) -> [(String, String)] {
        let ios = delivery.ios
        let type = ios.effectiveType
        var h: [(String, String)] = [
            ("apns-push-type", type.apnsPushType),
            ("apns-priority", (ios.priority ?? type.defaultPriority).rawValue),
            ("apns-topic", type.topic(bundleId: app.bundleId)),
        ]
        if let fixed = type.fixedExpiration {
            h.append(("apns-expiration", fixed))
        } else if let text = ios.expiration.nonEmpty, let seconds = OptionValues.expiration(text) {
            h.append(("apns-expiration", String(seconds)))
        }
        if let id = ios.collapseId.nonEmpty { h.append(("apns-collapse-id", id)) }
        return h
    }

    /// The payload of the type's shape (docs/PAYLOADS.md); `delivery` is already
    /// personalized; `timestamp` is the UNIX second a Live Activity's `aps.timestamp` takes.
    public static func payload(delivery: Delivery, app: IOSApp, tracking: Tracking, timestamp: Int) -> JSONValue {
        payload(JSONTree.self, delivery: delivery, app: app, tracking: tracking, timestamp: timestamp)
    }

    /// UTF-8 bytes of the compact payload, without building it.
    static func payloadBytes(delivery: Delivery, app: IOSApp, tracking: Tracking, timestamp: Int) -> Int {
        payload(JSONByteCount.self, delivery: delivery, app: app, tracking: tracking, timestamp: timestamp)
    }

    static func payload<J: JSONOutput>(
        _: J.Type, delivery: Delivery, app: IOSApp, tracking: Tracking, timestamp: Int
    ) -> J.Value {
        let type = delivery.ios.effectiveType
        var top = J.emptyObject
        switch type.payload {
        case .alert: J.append("aps", J.value(alertAPS(J.self, delivery: delivery, type: type)), to: &top)
        case .contentChanged:
            var aps = J.emptyObject
            J.append("content-changed", J.bool(true), to: &aps)
            J.append("aps", J.value(aps), to: &top)
        case .customKeysOnly: break
        case .liveActivity:
            let aps = LiveActivityPayload.aps(J.self, delivery: delivery, timestamp: timestamp)
            J.append("aps", J.value(aps), to: &top)
        }
        if type.customKeys {
            CustomKeys.append(
                J.self, delivery: delivery, declared: app.variables, tracking: tracking,
                skip: DeliveryRules.isReservedVariable, to: &top)
        }
        return J.value(top)
    }

    /// The `aps` of docs/PAYLOADS.md, each key only when set and sent by the type (a silent push sends
    /// `content-available` alone).
    static func alertAPS<J: JSONOutput>(_: J.Type, delivery: Delivery, type: PushType) -> J.Object {
        let ios = delivery.ios
        let c = delivery.content
        var aps = J.emptyObject
        func has(_ option: String) -> Bool { type.sends(option: option) }
        var alert = J.emptyObject
        if let t = c.title.nonEmpty, type.sends(content: "title") { J.append("title", J.string(t), to: &alert) }
        if let s = c.subtitle.nonEmpty, type.sends(content: "subtitle") {
            J.append("subtitle", J.string(s), to: &alert)
        }
        if let b = c.body.nonEmpty, type.sends(content: "body") { J.append("body", J.string(b), to: &alert) }
        if let l = ios.launchImage.nonEmpty, has("launchImage") { J.append("launch-image", J.string(l), to: &alert) }
        // Localization keys: an alert's only (`localized.type`).
        if type == .alert, let keys = c.localized {
            for (key, args, name) in [
                (keys.titleKey, keys.titleArgs, "title"), (keys.subtitleKey, keys.subtitleArgs, "subtitle"),
                (keys.bodyKey, keys.bodyArgs, nil),
            ] {
                guard let key = key.nonEmpty else { continue }
                let prefix = name.map { $0 + "-" } ?? ""
                J.append(prefix + "loc-key", J.string(key), to: &alert)
                if !args.isEmpty { J.append(prefix + "loc-args", J.strings(args), to: &alert) }
            }
        }
        if !J.isEmpty(alert) { J.append("alert", J.value(alert), to: &aps) }
        if let text = ios.badge.nonEmpty, has("badge"), let badge = OptionValues.badge(text) {
            J.append("badge", J.int(badge), to: &aps)
        }
        // The types that send a sound send the critical form too (their rows list both).
        if has("sound"), let sound = APNsSound.value(J.self, ios) { J.append("sound", sound, to: &aps) }
        if let v = ios.threadId.nonEmpty, has("threadId") { J.append("thread-id", J.string(v), to: &aps) }
        if let v = ios.category.nonEmpty, has("category") { J.append("category", J.string(v), to: &aps) }
        if type.contentAvailable || (ios.contentAvailable == true && has("contentAvailable")) {
            J.append("content-available", J.int(1), to: &aps)
        }
        if ios.mutableContent == true, has("mutableContent") { J.append("mutable-content", J.int(1), to: &aps) }
        if let level = ios.interruptionLevel, has("interruptionLevel") {
            J.append("interruption-level", J.string(level.rawValue), to: &aps)
        }
        if let text = ios.relevanceScore.nonEmpty, has("relevanceScore"), let v = OptionValues.unitInterval(text) {
            J.append("relevance-score", J.number(v), to: &aps)
        }
        if let v = ios.filterCriteria.nonEmpty, has("filterCriteria") {
            J.append("filter-criteria", J.string(v), to: &aps)
        }
        if let v = ios.targetContentId.nonEmpty, has("targetContentId") {
            J.append("target-content-id", J.string(v), to: &aps)
        }
        return aps
    }

    /// The whole request; `withPayload: false` counts the payload's bytes without building
    /// it (the rules need only the count) and leaves `payload` null.
    static func build(
        delivery: Delivery, app: IOSApp, tracking: Tracking, token: String, timestamp: Int, withPayload: Bool = true
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
