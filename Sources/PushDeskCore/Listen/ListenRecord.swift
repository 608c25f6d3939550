import Foundation

/// One request `pushdesk listen` handled (docs/LISTEN.md): the line of `listen.jsonl`, the
/// `--json` object and the printed line are all made from it.
public struct ListenRecord: Sendable {
    public enum Kind: String, Sendable {
        case registration, tracking, other
    }
    public var time: Date
    public var remote: String
    public var kind: Kind
    public var path: String
    public var status: Int
    public var app: String?
    public var platform: Platform?
    /// The full token (the log shortens it).
    public var token: String?
    public var userKey: String?
    public var deviceName: String?
    /// The registration's `osLanguage` in canonical form (`en_US` → `en-US`); nil when it
    /// sent none or one that is no tag, and for tracking and other requests.
    public var locale: String?
    /// nil for tracking and other requests; empty when the registration sent none.
    public var params: [(name: String, value: String)]?
    public var messageId: String?
    public var deliveryId: String?
    public var event: TrackingHit.Event?
    public var delivery: String?
    public var device: String?
    public var findings: [Finding] = []
    /// Not logged: seconds from the matched send to this tracking request.
    public var delay: TimeInterval?
    /// Not logged: what `--profile` did (`added to profile ana`, or why nothing was saved).
    public var saved: String?
    public var saveFailed = false
    /// Not logged: the device a registration asks `--profile` to save.
    var pendingSave: Subscription?

    /// The test device an accepted registration names (its app, token, user key and device
    /// name as label): what `--profile` and the console's Listen view save; nil otherwise.
    /// The label is the device name without the characters the escape rule flags (ESC, C1,
    /// bidi and invisible controls): a phone's name is a label, not a reason to refuse it.
    public var registeredDevice: Subscription? {
        guard kind == .registration, status == 200, let app, let token, !token.isEmpty else { return nil }
        // An Android registration in the FID form is an installation ID (docs/SENDING.md).
        return Subscription(
            app: app, token: token, userKey: userKey.flatMap { $0.isEmpty ? nil : $0 },
            label: deviceName.map(Escape.removingFlagged).flatMap { $0.isEmpty ? nil : $0 },
            kind: platform == .android && ProfileRules.isFID(token) ? .fid : .device, locale: locale)
    }

    /// What saving says about the device name when the label had to leave characters out.
    var labelNote: String? {
        guard let deviceName, let device = registeredDevice,
            (device.label ?? "") != deviceName.trimmingCharacters(in: .whitespaces)
        else { return nil }
        guard let label = device.label else { return "(no device name saved: it held only control characters)" }
        return "(device name saved as \"\(Escape.inline(label, limit: 48))\": control and bidi characters left out)"
    }

    public init(time: Date, remote: String, kind: Kind, path: String, status: Int) {
        self.time = time
        self.remote = remote
        self.kind = kind
        self.path = path
        self.status = status
    }

    /// The pinned keys, in order.
    public static let keys = [
        "time", "remote", "kind", "path", "status", "app", "platform", "token", "userKey", "deviceName", "locale",
        "params", "messageId", "deliveryId", "event", "delivery", "device", "findings",
    ]

    /// The object of the log (`fullToken: false`: shortened as in the send log, docs/SENDING.md) or of `--json`.
    public func json(fullToken: Bool) -> JSONValue {
        func s(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        return .object([
            ("time", .string(ISOTime.string(time))), ("remote", .string(remote)), ("kind", .string(kind.rawValue)),
            ("path", .string(path)), ("status", .int(status)), ("app", s(app)), ("platform", s(platform?.rawValue)),
            ("token", s(fullToken ? token : token.map(Subscription.shortened))), ("userKey", s(userKey)),
            ("deviceName", s(deviceName)), ("locale", s(locale)),
            ("params", params.map { .object($0.map { ($0.name, JSONValue.string($0.value)) }) } ?? .null),
            ("messageId", s(messageId)), ("deliveryId", s(deliveryId)), ("event", s(event?.rawValue)),
            ("delivery", s(delivery)), ("device", s(device)), ("findings", .array(findings.map(\.json))),
        ])
    }

    /// The request's time of day in UTC (`10:02:03`), as the line starts.
    public var clockTime: String { String(ISOTime.string(time).dropFirst(11).dropLast()) }

    /// The printed line: time, kind, answer, app and device, what it matched or saved, then
    /// each finding (severity, rule id, message). Every text from the request is escaped.
    public var line: String {
        var parts = [clockTime, kind.rawValue, String(status)]
        switch kind {
        case .registration:
            parts.append(Escape.inline(app ?? "-", limit: 64))
            parts.append("\"" + Escape.inline(deviceName ?? "", limit: 48) + "\"")
            parts.append(locale ?? "-")  // canonical, so nothing to escape
            parts.append(Escape.inline(token.map(Subscription.shortened) ?? "-"))
            if let userKey, !userKey.isEmpty { parts.append("user " + Escape.inline(userKey, limit: 48)) }
            if let saved { parts.append(saved) }
        case .tracking:
            parts.append(event?.rawValue ?? "-")
            parts.append("_mId " + Escape.inline(messageId ?? "-", limit: 48))
            if let delivery {
                var match = "→ " + Escape.inline(delivery, limit: 64)
                if let app { match += " · " + Escape.inline(app, limit: 64) }
                if let device { match += " · \"" + Escape.inline(device, limit: 48) + "\"" }
                if let delay { match += " · " + Self.describe(delay) + " after the send" }
                parts.append(match)
            }
        case .other:
            parts.append(Escape.inline(path, limit: 80))
        }
        var text = parts.joined(separator: "  ")
        for f in findings {
            text += "  | \(f.severity.rawValue) \(f.rule): \(Escape.inline(f.message, limit: 400))"
        }
        return text
    }

    static func describe(_ seconds: TimeInterval) -> String {
        let s = max(0, Int(seconds.rounded()))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        if s < 86_400 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86_400) d \(s % 86_400 / 3600) h"
    }
}

/// `STORE/.pushdesk/listen.jsonl`: one line per request handled, mode 0600, opened without
/// following links, never committed (docs/LISTEN.md).
public enum ListenLog {
    public static let relativePath = ".pushdesk/listen.jsonl"

    public static func append(_ record: ListenRecord, storeRoot: URL) throws {
        try SendLog.append(line(record), storeRoot: storeRoot, file: "listen.jsonl")
    }

    /// The record's compact JSON with C0/C1 controls, DEL, bidi and invisible characters
    /// as `\u` escapes (`Escape.json`): the same values for a JSON reader, and nothing raw
    /// for whoever runs `tail -f` on the log.
    static func line(_ record: ListenRecord) -> [UInt8] {
        Array((Escape.json(record.json(fullToken: false).compact) + "\n").utf8)
    }

    /// The log kept open by a running listener: one write per request.
    final class Writer: @unchecked Sendable {
        let storeRoot: URL
        private var fd: Int32 = -1
        init(storeRoot: URL) { self.storeRoot = storeRoot }
        deinit { if fd >= 0 { close(fd) } }

        func append(_ record: ListenRecord) throws {
            if fd < 0 { fd = try SendLog.openForAppend(storeRoot: storeRoot, file: "listen.jsonl") }
            do { try SendLog.writeAll(line(record), to: fd, file: "listen.jsonl") } catch {
                close(fd)  // opened again for the next request (a full disk may clear)
                fd = -1
                throw error
            }
        }
    }
}

extension ListenLog {
    /// What the app reported for one message: when it was first received and first clicked.
    public struct Tracked: Equatable, Sendable {
        public var received: Date?
        public var clicked: Date?

        /// When each came, and how long after the send logged at `sentTime` (ISO 8601).
        public func described(sentTime: String?) -> (received: String?, clicked: String?) {
            let sent = sentTime.flatMap(ISOTime.date)
            func after(_ d: Date?) -> String? {
                guard let d else { return nil }
                return ISOTime.string(d)
                    + (sent.map { " (\(ListenRecord.describe(d.timeIntervalSince($0))) after)" } ?? "")
            }
            return (after(received), after(clicked))
        }

        /// `rcv`, `click`, `rcv+clk`, or empty (a column of the Sends view).
        public var summary: String {
            switch (received, clicked) {
            case (.some, .some): "rcv+clk"
            case (.some, nil): "rcv"
            case (nil, .some): "click"
            case (nil, nil): ""
            }
        }
    }

    /// The tracking requests of the log by `messageId` (as tracking sends it: a UUID in
    /// lower case, a v7 id in hex), for the console's Sends view (docs/LISTEN.md).
    public static func tracking(storeRoot: URL) -> [String: Tracked] {
        guard let data = FileManager.default.contents(atPath: storeRoot.appendingPathComponent(relativePath).path)
        else { return [:] }
        var out: [String: Tracked] = [:]
        for line in data.split(separator: 0x0A) {
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
                o["kind"] as? String == "tracking", let id = (o["messageId"] as? String)?.lowercased(),
                let event = o["event"] as? String, let time = (o["time"] as? String).flatMap(ISOTime.date)
            else { continue }
            var t = out[id] ?? Tracked()
            if event == "received", t.received == nil { t.received = time }
            if event == "clicked", t.clicked == nil { t.clicked = time }
            out[id] = t
        }
        return out
    }

    /// The tracking of a send log entry's `messageId`.
    public static func tracked(_ messageId: String?, in tracking: [String: Tracked]) -> Tracked? {
        guard let messageId else { return nil }
        return tracking[TrackingHit.trackingForm(of: messageId)]
    }
}
