import Foundation

/// The `liveactivity.*` rules (docs/PAYLOADS.md, docs/RULES.md) for a delivery of type
/// `liveactivity`. Findings point at the `<liveActivity>` field (`liveActivity.event`,
/// `liveActivity.contentState`…); a JSON text's finding also says where inside the text
/// (`Finding.within`), so that positioning it gives the file's line:column.
extension DeliveryRules {
    // `liveactivity.json` is PushTypeRules' (`liveActivityJSON`): the type's own check.
    public static let liveActivityEvent = Rule(
        "liveactivity.event", .error, .target, "no or unknown Live Activity event, or an attribute it does not take")
    public static let liveActivityStartAlert = Rule(
        "liveactivity.start-alert", .error, .target, "a Live Activity start without title or body")
    public static let liveActivityStartAttributes = Rule(
        "liveactivity.start-attributes", .error, .target, "a Live Activity start without attributesType or attributes")
    public static let liveActivityStaleDate = Rule(
        "liveactivity.stale-date", .warning, .target, "a Live Activity stale date in the past")
    public static let liveActivityDismissalDate = Rule(
        "liveactivity.dismissal-date", .warning, .target, "a Live Activity dismissal date more than 4 hours ahead")
    public static let liveActivityDate = Rule(
        "liveactivity.date", .error, .target, "a Live Activity date not an ISO 8601 UTC time")
    public static let liveActivityAlertTitle = Rule(
        "liveactivity.alert-title", .warning, .target, "a Live Activity alert with a body or sound but no title")
    public static let liveActivityInputChannel = Rule(
        "liveactivity.input-channel", .warning, .target,
        "a Live Activity start subscribing to a channel the app's file does not list")
    public static let liveActivityBudget = Rule(
        "liveactivity.budget", .info, .target, "a Live Activity push at priority 10 counts against the update budget")
    public static let liveActivityContentState = Rule(
        "liveactivity.content-state", .error, .target, "a Live Activity without a content state, on any event")
}

/// One Live Activity delivery (personalized already) on one iOS app, as its rows see it.
struct LiveActivityTarget {
    let delivery: Delivery
    let la: LiveActivity
    /// `la.event` when it is one of the three.
    let event: LiveActivityEvent?
    /// The `apns-priority` the request carries.
    let priority: String
    let now: Date
    let file: String
    /// The iOS app of the target, when there is one (its channels).
    let app: IOSApp?

    func finding(_ rule: Rule, _ field: FieldPath, _ message: String, within: SourceMap.Position? = nil) -> Finding {
        rule.finding(message, file: file, field: field, within: within)
    }
}

/// The `liveactivity.*` checks: one row per rule, in the order of their findings
/// (`RuleCatalog.liveActivityChecks`). `findings` runs them for one target.
public enum LiveActivityRules {
    typealias R = DeliveryRules

    /// iOS removes an ended activity from the Lock Screen after at most four hours.
    public static let maxDismissalDelay: TimeInterval = 4 * 3600

    /// Every rule the Live Activity rows report (and `liveactivity.event` for a missing element).
    static var rules: [Rule] {
        var all = [R.liveActivityEvent]
        for rule in RuleCatalog.liveActivityChecks.flatMap(\.rules) where !all.contains(rule) { all.append(rule) }
        return all
    }

    /// `delivery` is personalized already; `priority` is the `apns-priority` the request
    /// carries (the delivery's, else the type's default); `app`, the iOS app of the target,
    /// when there is one (its channels are checked against `inputPushChannel`).
    public static func findings(
        _ delivery: Delivery, priority: String, now: Date, file: String, app: IOSApp? = nil
    ) -> [Finding] {
        guard let la = delivery.liveActivity else {
            return [
                R.liveActivityEvent.finding(
                    "a Live Activity delivery needs a <liveActivity event=\"start|update|end\"> element with its <contentState>; add it after <ios>",
                    file: file, field: "ios.type")
            ]
        }
        let target = LiveActivityTarget(
            delivery: delivery, la: la, event: la.knownEvent, priority: priority, now: now, file: file, app: app)
        var out: [Finding] = []
        for check in RuleCatalog.liveActivityChecks { check(target, into: &out) }
        return out
    }

    /// The event and what it takes.
    static let event = RuleCheck<LiveActivityTarget>([R.liveActivityEvent]) { t, out in
        let la = t.la
        guard let event = t.event else {
            let written = la.event.nonEmpty.map { "is \"\(Escape.inline($0))\"" } ?? "is missing"
            out.append(
                t.finding(
                    R.liveActivityEvent, "liveActivity.event",
                    "the Live Activity event \(written); use start, update or end"))
            return
        }
        let takes: [(String, Bool, String)] = [
            ("attributesType", la.attributesType.nonEmpty != nil, "start"),
            ("attributes", la.attributes != nil, "start"),
            ("inputPushToken", la.inputPushToken != nil, "start"),
            ("inputPushChannel", la.inputPushChannel.nonEmpty != nil, "start"),
            ("dismissalDate", la.dismissalDate.nonEmpty != nil, "end"),
        ]
        for (name, isSet, only) in takes where isSet && event.rawValue != only {
            out.append(
                t.finding(
                    R.liveActivityEvent, FieldPath("liveActivity", name),
                    "`\(name)` is only for a Live Activity \(only), not \(event.rawValue); remove it or change the event"
                ))
        }
    }

    /// Every event carries a content state (docs/PAYLOADS.md): a missing or empty one is this
    /// finding, not a JSON error.
    static let contentState = RuleCheck<LiveActivityTarget>([R.liveActivityContentState]) { t, out in
        guard isBlank(t.la.contentState) else { return }
        let what = t.event.map { "a Live Activity \($0.rawValue)" } ?? "a Live Activity"
        out.append(
            t.finding(
                R.liveActivityContentState, "liveActivity.contentState",
                "\(what) needs a content state (every event carries one): write the ContentState as a JSON object, e.g. {\"status\":\"boarding\"}"
            ))
    }

    /// The JSON texts: each must be one JSON object (a blank content state is `contentState`'s).
    static let json = RuleCheck<LiveActivityTarget>([R.liveActivityJSON]) { t, out in
        if !isBlank(t.la.contentState), let e = jsonError(t.la.contentState) {
            out.append(
                t.finding(
                    R.liveActivityJSON, "liveActivity.contentState",
                    "line \(e.line), column \(e.column) of the content state: \(e.message) (it must be one JSON object)",
                    within: SourceMap.Position(line: e.line, column: e.column)))
        }
        if t.event == .start, let a = t.la.attributes, let e = jsonError(a) {
            out.append(
                t.finding(
                    R.liveActivityJSON, "liveActivity.attributes",
                    "line \(e.line), column \(e.column) of the attributes: \(e.message) (they must be one JSON object)",
                    within: SourceMap.Position(line: e.line, column: e.column)))
        }
    }

    static let startAlert = RuleCheck<LiveActivityTarget>([R.liveActivityStartAlert]) { t, out in
        let c = t.delivery.content
        guard t.event == .start, c.title.isEmpty || c.body.isEmpty else { return }
        out.append(
            t.finding(
                R.liveActivityStartAlert, c.title.isEmpty ? "content.title" : "content.body",
                "a push-to-start Live Activity needs an alert with a title and a body; write the \(c.title.isEmpty ? "title" : "body")"
            ))
    }

    static let startAttributes = RuleCheck<LiveActivityTarget>([R.liveActivityStartAttributes]) { t, out in
        guard t.event == .start else { return }
        if t.la.attributesType.nonEmpty == nil {
            out.append(
                t.finding(
                    R.liveActivityStartAttributes, "liveActivity.attributesType",
                    "a Live Activity start needs attributesType, the name of the app's ActivityAttributes type (e.g. TripAttributes)"
                ))
        }
        if t.la.attributes == nil {
            out.append(
                t.finding(
                    R.liveActivityStartAttributes, "liveActivity.attributes",
                    "a Live Activity start needs <attributes> with the ActivityAttributes values as a JSON object"))
        }
    }

    static let alertTitle = RuleCheck<LiveActivityTarget>([R.liveActivityAlertTitle]) { t, out in
        let c = t.delivery.content
        guard t.event != .start, c.title.isEmpty, !c.body.isEmpty || t.delivery.ios.sound.nonEmpty != nil else {
            return
        }
        out.append(
            t.finding(
                R.liveActivityAlertTitle, "content.title",
                "ActivityKit ignores an alert without a title; write a title, or remove the body and sound"))
    }

    /// `liveactivity.date` when the stale date does not read, else `liveactivity.stale-date`.
    static let staleDate = RuleCheck<LiveActivityTarget>([R.liveActivityStaleDate, R.liveActivityDate]) { t, out in
        guard let text = t.la.staleDate.nonEmpty else { return }
        guard let s = OptionValues.expiration(text) else {
            out.append(
                t.finding(
                    R.liveActivityDate, "liveActivity.staleDate",
                    "stale date \"\(Escape.inline(text))\" is not an ISO 8601 UTC time; write e.g. 2026-12-01T18:00:00Z"
                ))
            return
        }
        if Double(s) < t.now.timeIntervalSince1970 {
            out.append(
                t.finding(
                    R.liveActivityStaleDate, "liveActivity.staleDate",
                    "the stale date \(Escape.inline(text)) is in the past: the activity shows as stale at once; use a later date"
                ))
        }
    }

    /// `liveactivity.date` when an end's dismissal date does not read, else
    /// `liveactivity.dismissal-date`.
    static let dismissalDate = RuleCheck<LiveActivityTarget>([R.liveActivityDismissalDate, R.liveActivityDate]) {
        t, out in
        guard t.event == .end, let text = t.la.dismissalDate.nonEmpty else { return }
        guard let s = OptionValues.expiration(text) else {
            out.append(
                t.finding(
                    R.liveActivityDate, "liveActivity.dismissalDate",
                    "dismissal date \"\(Escape.inline(text))\" is not an ISO 8601 UTC time; write e.g. 2026-12-01T18:00:00Z"
                ))
            return
        }
        if Double(s) > t.now.timeIntervalSince1970 + maxDismissalDelay {
            out.append(
                t.finding(
                    R.liveActivityDismissalDate, "liveActivity.dismissalDate",
                    "the dismissal date \(Escape.inline(text)) is more than 4 hours ahead; iOS removes an ended activity sooner"
                ))
        }
    }

    /// A start that subscribes to a channel this app does not have (docs/SENDING.md: the app's
    /// channels are in its file) is one no broadcast of this app reaches.
    static let inputChannel = RuleCheck<LiveActivityTarget>([R.liveActivityInputChannel]) { t, out in
        guard let app = t.app, t.event == .start, let channel = t.la.inputPushChannel.nonEmpty,
            !app.channels.contains(where: { $0.id == channel })
        else { return }
        let known = app.channels.map { "\(Escape.inline($0.id)) (\(Escape.inline($0.label)))" }
        let key = Escape.inline(app.integrationKey)
        out.append(
            t.finding(
                R.liveActivityInputChannel, "liveActivity.inputPushChannel",
                "channel \"\(Escape.inline(channel))\" is not a channel of \(ServiceRules.appName(.ios(app))) (key \(key)); "
                    + (known.isEmpty
                        ? "create one with `pushdesk channels create --app \(key) --label L`"
                        : "use one of: " + known.joined(separator: ", "))))
    }

    static let budget = RuleCheck<LiveActivityTarget>([R.liveActivityBudget]) { t, out in
        guard t.priority == "10" else { return }
        out.append(
            t.finding(
                R.liveActivityBudget, "ios.priority",
                "priority 10 counts against the app's hourly Live Activity update budget; use 5 for updates that can wait"
            ))
    }

    /// A text with nothing but white space in it: no content state at all.
    static func isBlank(_ text: String) -> Bool { text.allSatisfy(\.isWhitespace) }

    /// Why `text` is no JSON object, nil when it is one.
    static func jsonError(_ text: String) -> JSONReadError? {
        do {
            _ = try JSONReader.object(text)
            return nil
        } catch {
            return error
        }
    }
}
