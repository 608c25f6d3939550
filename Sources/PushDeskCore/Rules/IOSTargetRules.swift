import Foundation

extension DeliveryRules {
    /// Everything about the `<ios>` options for one iOS app.
    static func iosFindings(_ delivery: Delivery, app: IOSApp, token: String?, now: Date, file: String) -> [Finding] {
        var out: [Finding] = []
        let ios = delivery.ios
        let c = delivery.content
        let type = ios.effectiveType
        let silent = type == .silent
        func add(_ rule: Rule, _ field: FieldPath, _ message: String) {
            out.append(rule.finding(message, file: file, field: field))
        }
        if silent {
            let sent: [(FieldPath, Bool)] = [
                ("content.title", !c.title.isEmpty), ("content.subtitle", !c.subtitle.isEmpty),
                ("content.body", !c.body.isEmpty), ("ios.sound", ios.sound.nonEmpty != nil),
                ("ios.badge", ios.badge.nonEmpty != nil),
            ]
            for (field, isSet) in sent where isSet {
                add(
                    Self.silentContent, field,
                    "a silent (background) notification cannot show text, play a sound or change the badge; remove it or use type=\"alert\""
                )
            }
        }
        out += typeFindings(delivery, app: app, file: file)
        if type == .alert && c.title.isEmpty && c.body.isEmpty {
            add(
                Self.alertEmpty, "content.body",
                "an alert needs a title or a body; write one, or use type=\"silent\" for a background update")
        }
        if let sound = ios.sound.nonEmpty, type.sends(option: "sound"), sound != "default",
            !app.sounds.contains(where: { $0.name == sound })
        {
            let known = app.sounds.map(\.name)
            add(
                Self.soundUnknown, "ios.sound",
                "sound \"\(Escape.inline(sound))\" is neither \"default\" nor a sound of \(ServiceRules.appName(.ios(app))) (key \(Escape.inline(app.integrationKey))); use one of: "
                    + (["default"] + known).map { Escape.inline($0) }.joined(separator: ", "))
        }
        if let text = ios.badge.nonEmpty, OptionValues.badge(text) == nil {
            add(
                Self.badgeRange, "ios.badge",
                "badge \"\(Escape.inline(text))\" is not a whole number ≥ 0; use e.g. 0 (clears the badge) or 3")
        }
        // A Live Activity's relevance score is any number (it orders the app's activities).
        if type.payload == .liveActivity {
            if let text = ios.relevanceScore.nonEmpty, OptionValues.number(text) == nil {
                add(
                    Self.relevanceRange, "ios.relevanceScore",
                    "relevance score \"\(Escape.inline(text))\" is not a number; use e.g. 75")
            }
        } else if let text = ios.relevanceScore.nonEmpty, OptionValues.unitInterval(text) == nil {
            add(
                Self.relevanceRange, "ios.relevanceScore",
                "relevance score \"\(Escape.inline(text))\" is not a number between 0 and 1; use e.g. 0.8")
        }
        if let text = ios.volume.nonEmpty, OptionValues.unitInterval(text) == nil {
            add(
                Self.volumeRange, "ios.volume",
                "critical volume \"\(Escape.inline(text))\" is not a number between 0 and 1; use e.g. 1 (full volume)")
        }
        if ios.interruptionLevel == .critical, type.sends(option: "interruptionLevel") {
            add(
                Self.interruptionCritical, "ios.interruptionLevel",
                "critical alerts need Apple's critical-alerts entitlement in the app; without it iOS shows a normal alert"
            )
        }
        if ios.critical == true, type.sends(option: "critical") {
            add(
                Self.interruptionCritical, "ios.critical",
                "a critical sound needs Apple's critical-alerts entitlement in the app; without it iOS plays a normal sound"
            )
        }
        if ios.mutableContent == true
            && (silent || (type == .alert && c.title.isEmpty && c.subtitle.isEmpty && c.body.isEmpty))
        {
            add(
                Self.mutableNoAlert, "ios.mutableContent",
                "the notification service extension only runs for notifications with an alert; add a title or body")
        }
        if app.connector == .binary {
            if ios.mutableContent == true && type.sends(option: "mutableContent") {
                add(
                    Self.richBinaryConnector, "ios.mutableContent",
                    "app \(Escape.inline(app.integrationKey)) uses the binary connector, which cannot send rich notifications; switch the app to connector=\"http2\""
                )
            }
            if !c.subtitle.isEmpty && type.sends(content: "subtitle") {
                add(
                    Self.richBinaryConnector, "content.subtitle",
                    "app \(Escape.inline(app.integrationKey)) uses the binary connector, which cannot send a subtitle; switch the app to connector=\"http2\""
                )
            }
        }
        if let id = ios.collapseId.nonEmpty, id.utf8.count > OptionValues.maxCollapseIdBytes {
            add(
                Self.collapseIdLength, "ios.collapseId",
                "collapse id is \(id.utf8.count) bytes; APNs accepts at most \(OptionValues.maxCollapseIdBytes)")
        }
        if let text = ios.expiration.nonEmpty {
            if let seconds = OptionValues.expiration(text) {
                if Double(seconds) < now.timeIntervalSince1970 {
                    add(
                        Self.expirationPast, "ios.expiration",
                        "expiration \(Escape.inline(text)) is in the past: APNs will not store the notification or retry delivery; move it later"
                    )
                }
            } else {
                add(
                    Self.expirationFormat, "ios.expiration",
                    "expiration \"\(Escape.inline(text))\" is not an ISO 8601 UTC date-time; write it like 2026-12-01T00:00:00Z"
                )
            }
        }
        if type.payload == .liveActivity {
            let priority = (ios.priority ?? type.defaultPriority).rawValue
            out += LiveActivityRules.findings(delivery, priority: priority, now: now, file: file, app: app)
        }
        if let token, !OptionValues.isHexToken(token) {
            add(Self.tokenFormat, "token", "APNs device tokens are hexadecimal; check the --token value")
        }
        return out
    }
}
