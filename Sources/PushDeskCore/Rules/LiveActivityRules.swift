import Foundation

/// The `liveactivity.*` rules (SPEC §12.2, docs/RULES.md) for a delivery of type
/// `liveactivity`. Findings point at the `<liveActivity>` field (`liveActivity.event`,
/// `liveActivity.contentState`…); a JSON text's finding also says where inside the text
/// (`Finding.within`), so that positioning it gives the file's line:column.
public enum LiveActivityRules {
    /// iOS removes an ended activity from the Lock Screen after at most four hours.
    public static let maxDismissalDelay: TimeInterval = 4 * 3600

    /// `delivery` is personalized already; `priority` is the `apns-priority` the request
    /// carries (the delivery's, else the type's default).
    public static func findings(_ delivery: Delivery, priority: String, now: Date, file: String) -> [Finding] {
        var out: [Finding] = []
        func add(
            _ s: Severity, _ rule: String, _ field: FieldPath, _ message: String, within: SourceMap.Position? = nil
        ) {
            out.append(Finding(s, rule, message, file: file, field: field, within: within))
        }
        guard let la = delivery.liveActivity else {
            add(
                .error, "liveactivity.event", "ios.type",
                "a Live Activity delivery needs a <liveActivity event=\"start|update|end\"> element with its <contentState>; add it after <ios>"
            )
            return out
        }
        let event = la.knownEvent
        // The event and what it takes.
        if event == nil {
            let written = la.event.nonEmpty.map { "is \"\(Escape.inline($0))\"" } ?? "is missing"
            add(
                .error, "liveactivity.event", "liveActivity.event",
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
                    .error, "liveactivity.event", FieldPath("liveActivity", name),
                    "`\(name)` is only for a Live Activity \(only), not \(event.rawValue); remove it or change the event"
                )
            }
        }
        // The JSON texts.
        if let e = jsonError(la.contentState) {
            add(
                .error, "liveactivity.json", "liveActivity.contentState",
                "the content state is no JSON object (its line \(e.line), column \(e.column)): \(e.message)",
                within: SourceMap.Position(line: e.line, column: e.column))
        }
        if event == .start, let a = la.attributes, let e = jsonError(a) {
            add(
                .error, "liveactivity.json", "liveActivity.attributes",
                "the attributes are no JSON object (their line \(e.line), column \(e.column)): \(e.message)",
                within: SourceMap.Position(line: e.line, column: e.column))
        }
        // A start.
        let c = delivery.content
        if event == .start {
            if c.title.isEmpty || c.body.isEmpty {
                add(
                    .error, "liveactivity.start-alert", c.title.isEmpty ? "content.title" : "content.body",
                    "a push-to-start Live Activity needs an alert with a title and a body; write the \(c.title.isEmpty ? "title" : "body")"
                )
            }
            if la.attributesType.nonEmpty == nil {
                add(
                    .error, "liveactivity.start-attributes", "liveActivity.attributesType",
                    "a Live Activity start needs attributesType, the name of the app's ActivityAttributes type (e.g. TripAttributes)"
                )
            }
            if la.attributes == nil {
                add(
                    .error, "liveactivity.start-attributes", "liveActivity.attributes",
                    "a Live Activity start needs <attributes> with the ActivityAttributes values as a JSON object")
            }
        } else if c.title.isEmpty && (!c.body.isEmpty || delivery.ios.sound.nonEmpty != nil) {
            add(
                .warning, "liveactivity.alert-title", "content.title",
                "ActivityKit ignores an alert without a title; write a title, or remove the body and sound")
        }
        // The dates.
        if let text = la.staleDate.nonEmpty {
            if let s = OptionValues.expiration(text) {
                if Double(s) < now.timeIntervalSince1970 {
                    add(
                        .warning, "liveactivity.stale-date", "liveActivity.staleDate",
                        "the stale date \(Escape.inline(text)) is in the past: the activity shows as stale at once; use a later date"
                    )
                }
            } else {
                add(
                    .error, "liveactivity.date", "liveActivity.staleDate",
                    "stale date \"\(Escape.inline(text))\" is not an ISO 8601 UTC time; write e.g. 2026-12-01T18:00:00Z"
                )
            }
        }
        if event == .end, let text = la.dismissalDate.nonEmpty {
            if let s = OptionValues.expiration(text) {
                if Double(s) > now.timeIntervalSince1970 + maxDismissalDelay {
                    add(
                        .warning, "liveactivity.dismissal-date", "liveActivity.dismissalDate",
                        "the dismissal date \(Escape.inline(text)) is more than 4 hours ahead; iOS removes an ended activity sooner"
                    )
                }
            } else {
                add(
                    .error, "liveactivity.date", "liveActivity.dismissalDate",
                    "dismissal date \"\(Escape.inline(text))\" is not an ISO 8601 UTC time; write e.g. 2026-12-01T18:00:00Z"
                )
            }
        }
        if priority == "10" {
            add(
                .info, "liveactivity.budget", "ios.priority",
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
