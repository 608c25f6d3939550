import Foundation

extension DeliveryRules {
    /// Everything about the `<android>` options for one Android app.
    static func androidFindings(_ delivery: Delivery, app: AndroidApp, file: String) -> [Finding] {
        var out: [Finding] = []
        let o = delivery.android
        func add(_ rule: Rule, _ field: FieldPath, _ message: String) {
            out.append(rule.finding(message, file: file, field: field))
        }
        if let text = o.ttl.nonEmpty, OptionValues.ttlSeconds(text) == nil {
            add(
                Self.ttlRange, "android.ttl",
                "ttl \"\(Escape.inline(text))\" is not a whole number of seconds in 0…\(OptionValues.maxTTLSeconds) (4 weeks); use e.g. 86400"
            )
        }
        if let text = o.color.nonEmpty, !OptionValues.isColor(text) {
            add(
                Self.colorFormat, "android.color",
                "color \"\(Escape.inline(text))\" is not #RRGGBB; write it like #FF6600")
        }
        if let text = o.image.nonEmpty, !OptionValues.isHTTPSURL(text) {
            out.append(imageURL(field: "android.image", file: file))
        }
        if let text = o.notificationCount.nonEmpty, OptionValues.notificationCount(text) == nil {
            add(
                Self.notificationCountRange, "android.notificationCount",
                "notification count \"\(Escape.inline(text))\" is not a whole number ≥ 0; use e.g. 1")
        }
        if let text = o.analyticsLabel.nonEmpty, !OptionValues.isAnalyticsLabel(text) {
            add(
                Self.androidAnalyticsLabel, "android.analyticsLabel",
                "analytics label \"\(Escape.inline(text))\" is not 1–50 characters of A-Z a-z 0-9 - _ . ~ %; FCM refuses the message (write e.g. summer-sale_2026)"
            )
        }
        if o.effectiveType == .notification, delivery.content.title.isEmpty, delivery.content.body.isEmpty {
            add(
                Self.notificationEmpty, "content.body",
                "a notification message with neither title nor body shows an empty notification; write one, or use type=\"data\""
            )
        }
        let isData = o.effectiveType == .data
        if isData {
            for d in AndroidOptions.definitions where d.notificationOnly && d.isSet(in: o) {
                add(
                    Self.androidIgnoredOption, d.field,
                    "not sent: a data message carries only data; set type=\"notification\" on <android> or remove it")
            }
        }
        if app.api == .legacy {
            // A notification-only option of a data message has its android.ignored-option already.
            for d in AndroidOptions.definitions where !d.legacy && d.isSet(in: o) && !(isData && d.notificationOnly) {
                add(
                    Self.legacyIgnoredOption, d.field,
                    "not sent: the FCM legacy API has no such key; move app \(Escape.inline(app.integrationKey)) to api=\"httpv1\""
                )
            }
        }
        return out
    }

    static func imageURL(field: FieldPath, file: String) -> Finding {
        Self.imageUrl.finding(
            "image must be an absolute https:// URL (devices refuse other schemes); write it like https://cdn.example.com/a.jpg",
            file: file, field: field)
    }
}
