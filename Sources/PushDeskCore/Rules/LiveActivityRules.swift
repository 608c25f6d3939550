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
}

public enum LiveActivityRules {
    /// iOS removes an ended activity from the Lock Screen after at most four hours.
    public static let maxDismissalDelay: TimeInterval = 4 * 3600

    /// `delivery` is personalized already; `priority` is the `apns-priority` the request
    /// carries (the delivery's, else the type's default); `app`, the iOS app of the target,
    /// when there is one (its channels are checked against `inputPushChannel`).
    public static func findings(
        _ delivery: Delivery, priority: String, now: Date, file: String, app: IOSApp? = nil
    ) -> [Finding] {
        var out: [Finding] = []
        func add(_ rule: Rule, _ field: FieldPath, _ message: String, within: SourceMap.Position? = nil) {
            out.append(rule.finding(message, file: file, field: field, within: within))
        }
        guard let la = delivery.liveActivity else {
            add(
                DeliveryRules.liveActivityEvent, "ios.type",
                "a Live Activity delivery needs a <liveActivity event=\"start|update|end\"> element with its <contentState>; add it after <ios>"
            )
            return out
        }
        let event = la.knownEvent
        // The event and what it takes.
        if event == nil {
            let written = la.event.nonEmpty.map { "is \"\(Escape.inline($0))\"" } ?? "is missing"
            add(
                DeliveryRules.liveActivityEvent, "liveActivity.event",
                "the Live Activity event \(written); use start, update or end")
        }
        if let event {
            let takes: [(String, Bool, String)] = [
                ("attributesType", la.attributesType.nonEmpty != nil, "start"),
                ("attributes", la.attributes != nil, "start"),
                ("inputPushToken", la.inputPushToken != nil, "start"),
                ("inputPushChannel", la.inputPushChannel.nonEmpty != nil, "start"),
                ("dismissalDate", la.dismissalDate.nonEmpty != nil, "end"),
            ]
            for (name, isSet, only) in takes where isSet && event.rawValue != only {
                add(
                    DeliveryRules.liveActivityEvent, FieldPath("liveActivity", name),
                    "`\(name)` is only for a Live Activity \(only), not \(event.rawValue); remove it or change the event"
                )
            }
        }
        // The JSON texts.
        if let e = jsonError(la.contentState) {
            add(
                DeliveryRules.liveActivityJSON, "liveActivity.contentState",
                "line \(e.line), column \(e.column) of the content state: \(e.message) (it must be one JSON object)",
                within: SourceMap.Position(line: e.line, column: e.column))
        }
        if event == .start, let a = la.attributes, let e = jsonError(a) {
            add(
                DeliveryRules.liveActivityJSON, "liveActivity.attributes",
                "line \(e.line), column \(e.column) of the attributes: \(e.message) (they must be one JSON object)",
                within: SourceMap.Position(line: e.line, column: e.column))
        }
        // A start.
        let c = delivery.content
        if event == .start {
            if c.title.isEmpty || c.body.isEmpty {
                add(
                    DeliveryRules.liveActivityStartAlert, c.title.isEmpty ? "content.title" : "content.body",
                    "a push-to-start Live Activity needs an alert with a title and a body; write the \(c.title.isEmpty ? "title" : "body")"
                )
            }
            if la.attributesType.nonEmpty == nil {
                add(
                    DeliveryRules.liveActivityStartAttributes, "liveActivity.attributesType",
                    "a Live Activity start needs attributesType, the name of the app's ActivityAttributes type (e.g. TripAttributes)"
                )
            }
            if la.attributes == nil {
                add(
                    DeliveryRules.liveActivityStartAttributes, "liveActivity.attributes",
                    "a Live Activity start needs <attributes> with the ActivityAttributes values as a JSON object")
            }
        } else if c.title.isEmpty && (!c.body.isEmpty || delivery.ios.sound.nonEmpty != nil) {
            add(
                DeliveryRules.liveActivityAlertTitle, "content.title",
                "ActivityKit ignores an alert without a title; write a title, or remove the body and sound")
        }
        // The dates.
        if let text = la.staleDate.nonEmpty {
            if let s = OptionValues.expiration(text) {
                if Double(s) < now.timeIntervalSince1970 {
                    add(
                        DeliveryRules.liveActivityStaleDate, "liveActivity.staleDate",
                        "the stale date \(Escape.inline(text)) is in the past: the activity shows as stale at once; use a later date"
                    )
                }
            } else {
                add(
                    DeliveryRules.liveActivityDate, "liveActivity.staleDate",
                    "stale date \"\(Escape.inline(text))\" is not an ISO 8601 UTC time; write e.g. 2026-12-01T18:00:00Z"
                )
            }
        }
        if event == .end, let text = la.dismissalDate.nonEmpty {
            if let s = OptionValues.expiration(text) {
                if Double(s) > now.timeIntervalSince1970 + maxDismissalDelay {
                    add(
                        DeliveryRules.liveActivityDismissalDate, "liveActivity.dismissalDate",
                        "the dismissal date \(Escape.inline(text)) is more than 4 hours ahead; iOS removes an ended activity sooner"
                    )
                }
            } else {
                add(
                    DeliveryRules.liveActivityDate, "liveActivity.dismissalDate",
                    "dismissal date \"\(Escape.inline(text))\" is not an ISO 8601 UTC time; write e.g. 2026-12-01T18:00:00Z"
                )
            }
        }
        // A start that subscribes to a channel this app does not have (docs/SENDING.md: the app's
        // channels are in its file) is one no broadcast of this app reaches.
        if let app, event == .start, let channel = la.inputPushChannel.nonEmpty,
            !app.channels.contains(where: { $0.id == channel })
        {
            let known = app.channels.map { "\(Escape.inline($0.id)) (\(Escape.inline($0.label)))" }
            add(
                DeliveryRules.liveActivityInputChannel, "liveActivity.inputPushChannel",
                "channel \"\(Escape.inline(channel))\" is not a channel of \(ServiceRules.appName(.ios(app))) (key \(Escape.inline(app.integrationKey))); "
                    + (known.isEmpty
                        ? "create one with `pushdesk channels create --app \(Escape.inline(app.integrationKey)) --label L`"
                        : "use one of: " + known.joined(separator: ", ")))
        }
        if priority == "10" {
            add(
                DeliveryRules.liveActivityBudget, "ios.priority",
                "priority 10 counts against the app's hourly Live Activity update budget; use 5 for updates that can wait"
            )
        }
        return out
    }

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
