import Foundation

/// One delivery (personalized already) sent to one iOS app: what the iOS target checks look
/// at, raised while the preview builds its payload.
struct IOSTarget {
    let delivery: Delivery
    let app: IOSApp
    /// The device token given (`--token`), nil for the placeholder.
    let token: String?
    let now: Date
    let file: String

    var ios: IOSOptions { delivery.ios }
    var type: PushType { delivery.ios.effectiveType }
    var content: DeliveryContent { delivery.content }

    func finding(_ rule: Rule, _ field: FieldPath, _ message: String) -> Finding {
        rule.finding(message, file: file, field: field)
    }
}

/// The checks of a delivery's `<ios>` options on one iOS app (docs/RULES.md, docs/PAYLOADS.md, docs/RULES.md):
/// one row per rule, tied to it as the service and app checks are (`RuleCheck`), listed in
/// the order of their findings in `RuleCatalog.iosTargetChecks`.
enum IOSTargetRules {
    typealias R = DeliveryRules

    static let silentContent = RuleCheck<IOSTarget>([R.silentContent]) { t, out in
        guard t.type == .silent else { return }
        let c = t.content
        let sent: [(FieldPath, Bool)] = [
            ("content.title", !c.title.isEmpty), ("content.subtitle", !c.subtitle.isEmpty),
            ("content.body", !c.body.isEmpty), ("ios.sound", t.ios.sound.nonEmpty != nil),
            ("ios.badge", t.ios.badge.nonEmpty != nil),
        ]
        for (field, isSet) in sent where isSet {
            out.append(
                t.finding(
                    R.silentContent, field,
                    "a silent (background) notification cannot show text, play a sound or change the badge; remove it or use type=\"alert\""
                ))
        }
    }

    static let alertEmpty = RuleCheck<IOSTarget>([R.alertEmpty]) { t, out in
        guard t.type == .alert, t.content.title.isEmpty, t.content.body.isEmpty else { return }
        out.append(
            t.finding(
                R.alertEmpty, "content.body",
                "an alert needs a title or a body; write one, or use type=\"silent\" for a background update"))
    }

    static let soundUnknown = RuleCheck<IOSTarget>([R.soundUnknown]) { t, out in
        guard let sound = t.ios.sound.nonEmpty, t.type.sends(option: "sound"), sound != "default",
            !t.app.sounds.contains(where: { $0.name == sound })
        else { return }
        let known = t.app.sounds.map(\.name)
        out.append(
            t.finding(
                R.soundUnknown, "ios.sound",
                "sound \"\(Escape.inline(sound))\" is neither \"default\" nor a sound of \(ServiceRules.appName(.ios(t.app))) (key \(Escape.inline(t.app.integrationKey))); use one of: "
                    + (["default"] + known).map { Escape.inline($0) }.joined(separator: ", ")))
    }

    static let badgeRange = RuleCheck<IOSTarget>([R.badgeRange]) { t, out in
        guard let text = t.ios.badge.nonEmpty, OptionValues.badge(text) == nil else { return }
        out.append(
            t.finding(
                R.badgeRange, "ios.badge",
                "badge \"\(Escape.inline(text))\" is not a whole number ≥ 0; use e.g. 0 (clears the badge) or 3"))
    }

    static let relevanceRange = RuleCheck<IOSTarget>([R.relevanceRange]) { t, out in
        guard let text = t.ios.relevanceScore.nonEmpty else { return }
        // A Live Activity's relevance score is any number (it orders the app's activities).
        if t.type.payload == .liveActivity {
            guard OptionValues.number(text) == nil else { return }
            out.append(
                t.finding(
                    R.relevanceRange, "ios.relevanceScore",
                    "relevance score \"\(Escape.inline(text))\" is not a number; use e.g. 75"))
        } else if OptionValues.unitInterval(text) == nil {
            out.append(
                t.finding(
                    R.relevanceRange, "ios.relevanceScore",
                    "relevance score \"\(Escape.inline(text))\" is not a number between 0 and 1; use e.g. 0.8"))
        }
    }

    static let volumeRange = RuleCheck<IOSTarget>([R.volumeRange]) { t, out in
        guard let text = t.ios.volume.nonEmpty, OptionValues.unitInterval(text) == nil else { return }
        out.append(
            t.finding(
                R.volumeRange, "ios.volume",
                "critical volume \"\(Escape.inline(text))\" is not a number between 0 and 1; use e.g. 1 (full volume)"))
    }

    static let interruptionCritical = RuleCheck<IOSTarget>([R.interruptionCritical]) { t, out in
        if t.ios.interruptionLevel == .critical, t.type.sends(option: "interruptionLevel") {
            out.append(
                t.finding(
                    R.interruptionCritical, "ios.interruptionLevel",
                    "critical alerts need Apple's critical-alerts entitlement in the app; without it iOS shows a normal alert"
                ))
        }
        if t.ios.critical == true, t.type.sends(option: "critical") {
            out.append(
                t.finding(
                    R.interruptionCritical, "ios.critical",
                    "a critical sound needs Apple's critical-alerts entitlement in the app; without it iOS plays a normal sound"
                ))
        }
    }

    static let mutableNoAlert = RuleCheck<IOSTarget>([R.mutableNoAlert]) { t, out in
        let c = t.content
        guard t.ios.mutableContent == true,
            t.type == .silent || (t.type == .alert && c.title.isEmpty && c.subtitle.isEmpty && c.body.isEmpty)
        else { return }
        out.append(
            t.finding(
                R.mutableNoAlert, "ios.mutableContent",
                "the notification service extension only runs for notifications with an alert; add a title or body"))
    }

    static let richBinaryConnector = RuleCheck<IOSTarget>([R.richBinaryConnector]) { t, out in
        guard t.app.connector == .binary else { return }
        let key = Escape.inline(t.app.integrationKey)
        if t.ios.mutableContent == true && t.type.sends(option: "mutableContent") {
            out.append(
                t.finding(
                    R.richBinaryConnector, "ios.mutableContent",
                    "app \(key) uses the binary connector, which cannot send rich notifications; switch the app to connector=\"http2\""
                ))
        }
        if !t.content.subtitle.isEmpty && t.type.sends(content: "subtitle") {
            out.append(
                t.finding(
                    R.richBinaryConnector, "content.subtitle",
                    "app \(key) uses the binary connector, which cannot send a subtitle; switch the app to connector=\"http2\""
                ))
        }
    }

    static let collapseIdLength = RuleCheck<IOSTarget>([R.collapseIdLength]) { t, out in
        guard let id = t.ios.collapseId.nonEmpty, id.utf8.count > OptionValues.maxCollapseIdBytes else { return }
        out.append(
            t.finding(
                R.collapseIdLength, "ios.collapseId",
                "collapse id is \(id.utf8.count) bytes; APNs accepts at most \(OptionValues.maxCollapseIdBytes)"))
    }

    /// `expiration.format` when it does not read, else `expiration.past` when it is over.
    static let expiration = RuleCheck<IOSTarget>([R.expirationPast, R.expirationFormat]) { t, out in
        guard let text = t.ios.expiration.nonEmpty else { return }
        guard let seconds = OptionValues.expiration(text) else {
            out.append(
                t.finding(
                    R.expirationFormat, "ios.expiration",
                    "expiration \"\(Escape.inline(text))\" is not an ISO 8601 UTC date-time; write it like 2026-12-01T00:00:00Z"
                ))
            return
        }
        if Double(seconds) < t.now.timeIntervalSince1970 {
            out.append(
                t.finding(
                    R.expirationPast, "ios.expiration",
                    "expiration \(Escape.inline(text)) is in the past: APNs will not store the notification or retry delivery; move it later"
                ))
        }
    }

    /// A Live Activity's own rows (`RuleCatalog.liveActivityChecks`), on its request's priority.
    static let liveActivity = RuleCheck<IOSTarget>(LiveActivityRules.rules) { t, out in
        guard t.type.payload == .liveActivity else { return }
        let priority = (t.ios.priority ?? t.type.defaultPriority).rawValue
        out += LiveActivityRules.findings(t.delivery, priority: priority, now: t.now, file: t.file, app: t.app)
    }

    static let tokenFormat = RuleCheck<IOSTarget>([R.tokenFormat]) { t, out in
        guard let token = t.token, !OptionValues.isHexToken(token) else { return }
        out.append(t.finding(R.tokenFormat, "token", "APNs device tokens are hexadecimal; check the --token value"))
    }
}

extension DeliveryRules {
    /// Everything about the `<ios>` options for one iOS app: the rows of
    /// `RuleCatalog.iosTargetChecks`, in order.
    static func iosFindings(_ delivery: Delivery, app: IOSApp, token: String?, now: Date, file: String) -> [Finding] {
        let target = IOSTarget(delivery: delivery, app: app, token: token, now: now, file: file)
        var out: [Finding] = []
        for check in RuleCatalog.iosTargetChecks { check(target, into: &out) }
        return out
    }
}
