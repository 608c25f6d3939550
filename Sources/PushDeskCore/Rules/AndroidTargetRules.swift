import Foundation

/// One delivery (personalized already) sent to one Android app.
struct AndroidTarget {
    let delivery: Delivery
    let app: AndroidApp
    let file: String

    var options: AndroidOptions { delivery.android }

    func finding(_ rule: Rule, _ field: FieldPath, _ message: String) -> Finding {
        rule.finding(message, file: file, field: field)
    }
}

/// The checks of a delivery's `<android>` options on one Android app: one row per rule, in
/// the order of their findings (`RuleCatalog.androidTargetChecks`).
enum AndroidTargetRules {
    typealias R = DeliveryRules

    static let ttlRange = RuleCheck<AndroidTarget>([R.ttlRange]) { t, out in
        guard let text = t.options.ttl.nonEmpty, OptionValues.ttlSeconds(text) == nil else { return }
        out.append(
            t.finding(
                R.ttlRange, "android.ttl",
                "ttl \"\(Escape.inline(text))\" is not a whole number of seconds in 0…\(OptionValues.maxTTLSeconds) (4 weeks); use e.g. 86400"
            ))
    }

    static let colorFormat = RuleCheck<AndroidTarget>([R.colorFormat]) { t, out in
        guard let text = t.options.color.nonEmpty, !OptionValues.isColor(text) else { return }
        out.append(
            t.finding(
                R.colorFormat, "android.color", "color \"\(Escape.inline(text))\" is not #RRGGBB; write it like #FF6600"
            ))
    }

    static let imageUrl = RuleCheck<AndroidTarget>([R.imageUrl]) { t, out in
        guard let text = t.options.image.nonEmpty, !OptionValues.isHTTPSURL(text) else { return }
        out.append(R.imageURL(field: "android.image", file: t.file))
    }

    static let notificationCountRange = RuleCheck<AndroidTarget>([R.notificationCountRange]) { t, out in
        guard let text = t.options.notificationCount.nonEmpty, OptionValues.notificationCount(text) == nil else {
            return
        }
        out.append(
            t.finding(
                R.notificationCountRange, "android.notificationCount",
                "notification count \"\(Escape.inline(text))\" is not a whole number ≥ 0; use e.g. 1"))
    }

    static let analyticsLabel = RuleCheck<AndroidTarget>([R.androidAnalyticsLabel]) { t, out in
        guard let text = t.options.analyticsLabel.nonEmpty, !OptionValues.isAnalyticsLabel(text) else { return }
        out.append(
            t.finding(
                R.androidAnalyticsLabel, "android.analyticsLabel",
                "analytics label \"\(Escape.inline(text))\" is not 1–50 characters of A-Z a-z 0-9 - _ . ~ %; FCM refuses the message (write e.g. summer-sale_2026)"
            ))
    }

    static let notificationEmpty = RuleCheck<AndroidTarget>([R.notificationEmpty]) { t, out in
        let c = t.delivery.content
        guard t.options.effectiveType == .notification, c.title.isEmpty, c.body.isEmpty else { return }
        out.append(
            t.finding(
                R.notificationEmpty, "content.body",
                "a notification message with neither title nor body shows an empty notification; write one, or use type=\"data\""
            ))
    }

    static let ignoredOption = RuleCheck<AndroidTarget>([R.androidIgnoredOption]) { t, out in
        guard t.options.effectiveType == .data else { return }
        for d in AndroidOptions.definitions where d.notificationOnly && d.isSet(in: t.options) {
            out.append(
                t.finding(
                    R.androidIgnoredOption, d.field,
                    "not sent: a data message carries only data; set type=\"notification\" on <android> or remove it"))
        }
    }

    static let legacyIgnoredOption = RuleCheck<AndroidTarget>([R.legacyIgnoredOption]) { t, out in
        guard t.app.api == .legacy else { return }
        let isData = t.options.effectiveType == .data
        // A notification-only option of a data message has its android.ignored-option already.
        for d in AndroidOptions.definitions where !d.legacy && d.isSet(in: t.options) && !(isData && d.notificationOnly)
        {
            out.append(
                t.finding(
                    R.legacyIgnoredOption, d.field,
                    "not sent: the FCM legacy API has no such key; move app \(Escape.inline(t.app.integrationKey)) to api=\"httpv1\""
                ))
        }
    }
}

extension DeliveryRules {
    /// Everything about the `<android>` options for one Android app: the rows of
    /// `RuleCatalog.androidTargetChecks`, in order.
    static func androidFindings(_ delivery: Delivery, app: AndroidApp, file: String) -> [Finding] {
        let target = AndroidTarget(delivery: delivery, app: app, file: file)
        var out: [Finding] = []
        for check in RuleCatalog.androidTargetChecks { check(target, into: &out) }
        return out
    }

    static func imageURL(field: FieldPath, file: String) -> Finding {
        Self.imageUrl.finding(
            "image must be an absolute https:// URL (devices refuse other schemes); write it like https://cdn.example.com/a.jpg",
            file: file, field: field)
    }
}
