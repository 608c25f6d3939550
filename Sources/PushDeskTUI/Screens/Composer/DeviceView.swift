import Foundation
import PushDeskCore

/// The notification drawn roughly as the device shows it, from the exact payload of a
/// preview target (so personalization, reserved keys and left-out options are as sent):
/// an iOS banner (app, bold title, subtitle, body cut to 4 lines, an image marker when the
/// service extension can attach media) or a collapsed Android notification (small icon,
/// app, channel, bold title, one line of body, a big-picture marker). Truncation and
/// emptiness are what the operator should see at a glance. Text is laid out by terminal
/// columns: a CJK character takes two, a line may break between two of them (not before
/// closing punctuation), and no wide character or combining mark is ever cut in half.
enum DeviceView {
    static let iosBodyLines = 4

    /// What the card shows, read from the payload.
    struct Card: Equatable {
        var header: String
        var title = ""
        var subtitle = ""
        var body = ""
        var bodyLines = 1
        var marker: String?
        var footer: [String] = []
        /// Shown instead of the texts (silent, data only, empty).
        var note: String?
    }

    static func card(_ t: PreviewTarget, appName: String) -> Card {
        func str(_ v: JSONValue?) -> String? { if case .string(let s)? = v, !s.isEmpty { s } else { nil } }
        switch t.api {
        case .apns:
            let aps = t.payload["aps"]
            if let event = str(aps?["event"]) { return liveActivity(aps, event: event, appName: appName) }
            var c = Card(header: appName, bodyLines: iosBodyLines)
            let type = PushType.sent(in: t)
            guard let alert = aps?["alert"] else {
                // What a push with nothing to show does is its type's (silent, widgets, voip, …).
                c.note =
                    type == .alert ? "Nothing is shown: the alert has no text." : "Nothing is shown: \(type.effect)."
                if type.payload == .customKeysOnly || type.payload == .contentChanged {
                    c.footer.append("topic " + (t.headers.first { $0.name == "apns-topic" }?.value ?? ""))
                }
                return c
            }
            c.title = str(alert["title"]) ?? ""
            c.subtitle = str(alert["subtitle"]) ?? ""
            c.body = str(alert["body"]) ?? ""
            if c.title.isEmpty && c.body.isEmpty { c.note = "(empty: an alert needs a title or a body)" }
            // Rich: the notification service extension runs and can attach the media.
            if aps?["mutable-content"] != nil { c.marker = t.payload["mediaUrl"] != nil ? "[image]" : "[rich]" }
            if case .object(let s)? = aps?["sound"] {
                c.footer.append("sound " + (str(s.first { $0.0 == "name" }?.1) ?? "default") + " (critical)")
            } else if let s = str(aps?["sound"]) {
                c.footer.append("sound " + s)
            }
            if case .number(let b)? = aps?["badge"] { c.footer.append("badge " + b) }
            if let cat = str(aps?["category"]) { c.footer.append("category " + cat) }
            return c
        case .httpv1, .legacy:
            let m = t.api == .httpv1 ? (t.payload["message"] ?? .null) : t.payload
            let n = m["notification"]
            let data = m["data"]
            let an = t.api == .httpv1 ? m["android"]?["notification"] : n
            // The small icon's resource name stands where the icon is drawn.
            var header = "(\(str(an?["icon"]) ?? "icon")) \(appName)"
            if let ch = str(an?["channel_id"]) { header += " · " + ch }
            var c = Card(header: header)
            if let n {
                c.title = str(n["title"]) ?? ""
                c.body = str(n["body"]) ?? ""
                if let img = str(n["image"]) {
                    c.marker = "[big picture] " + (img.split(separator: "/").last.map(String.init) ?? img)
                }
                if c.title.isEmpty && c.body.isEmpty { c.note = "(empty notification: no title, no body)" }
            } else {
                // Campaign's SDK draws a data message itself from `title` and `_msg`.
                c.title = str(data?["title"]) ?? ""
                c.body = str(data?["_msg"]) ?? ""
                c.footer.append("data message: the app draws it")
                if let media = str(data?["mediaUrl"]) {
                    c.marker = "[picture] " + (media.split(separator: "/").last.map(String.init) ?? media)
                }
                if c.title.isEmpty && c.body.isEmpty {
                    c.note = "Nothing is shown unless the app draws it: a data message with no title or text."
                }
            }
            if let s = str(an?["sound"]) { c.footer.append("sound " + s) }
            return c
        }
    }

    static let activityLines = 6

    /// A Live Activity: its alert's title (a start or an update that lights the screen),
    /// then the content state key by key (`gate: B12 · status: boarding`), wrapped: a narrow
    /// card still shows several keys.
    static func liveActivity(_ aps: JSONValue?, event: String, appName: String) -> Card {
        var c = Card(header: "\(appName) · Live Activity \(event)", bodyLines: activityLines)
        if case .string(let t)? = aps?["alert"]?["title"] { c.title = t }
        var lines: [String] = []
        if case .object(let members)? = aps?["content-state"] {
            for (key, value) in members {
                if case .string(let v) = value {
                    lines.append("\(key): \(v)")
                } else {
                    lines.append("\(key): \(value.compact)")
                }
            }
        }
        c.body = lines.joined(separator: " · ")
        if c.title.isEmpty && lines.isEmpty { c.note = "(no content state: the activity has nothing to show)" }
        if case .string(let s)? = aps?["alert"]?["sound"] { c.footer.append("sound " + s) }
        for (key, label) in [("stale-date", "stale at "), ("dismissal-date", "dismissed at ")] {
            if case .number(let d)? = aps?[key], let seconds = Double(d) {
                c.footer.append(label + ISOTime.string(Date(timeIntervalSince1970: seconds)))
            }
        }
        return c
    }

    /// Draws the card at the top of `rect`; returns the rows used.
    @discardableResult
    static func render(into buf: inout CellBuffer, _ rect: Rect, target: PreviewTarget, appName: String) -> Int {
        guard rect.width >= 20, rect.height >= 4 else { return 0 }
        let c = card(target, appName: appName)
        let w = min(rect.width, 48)
        let inner = w - 4
        // When rows are short the footer goes first, then body rows (still ending in "…").
        var footer =
            c.footer.isEmpty
            ? [] : [(TextWidth.truncate(c.footer.joined(separator: " · "), to: inner), Role.deviceMuted)]
        let marker = c.marker.map { [(TextWidth.truncate($0, to: inner), Role.deviceMuted)] } ?? []
        var texts: [(String, Role)] = []
        var body: [String] = []
        if let note = c.note {
            texts = TextWidth.wrap(note, to: inner, maxLines: 3).map { ($0, .deviceMuted) }
        } else {
            if !c.title.isEmpty { texts.append((TextWidth.truncate(oneLine(c.title), to: inner), .deviceTitle)) }
            if !c.subtitle.isEmpty { texts.append((TextWidth.truncate(oneLine(c.subtitle), to: inner), .device)) }
            if !c.body.isEmpty { body = bodyLines(c.body, width: inner, max: c.bodyLines) }
        }
        let room = rect.height - 2
        if 1 + texts.count + body.count + marker.count + footer.count > room { footer = [] }
        let bodyRoom = max(1, room - 1 - texts.count - marker.count)
        if body.count > bodyRoom { body = bodyLines(c.body, width: inner, max: bodyRoom) }
        // The header stops a space short of "now", so no glyph of it is overwritten.
        let lines =
            [(TextWidth.truncate(c.header, to: inner - 5), Role.deviceMuted)] + texts + body.map { ($0, Role.device) }
            + marker + footer
        let h = min(rect.height, lines.count + 2)
        let box = Rect(x: rect.x, y: rect.y, width: w, height: h)
        buf.fill(box, role: .device)
        buf.box(box, role: .device)
        for (i, (text, role)) in lines.prefix(h - 2).enumerated() {
            buf.put(text, x: box.x + 2, y: box.y + 1 + i, role: role, maxX: box.maxX - 2)
        }
        buf.put("now", x: box.maxX - 6, y: box.y + 1, role: .deviceMuted)
        return h
    }

    /// A device shows line breaks, not escapes: each line wraps; the last row allowed
    /// ends with "…" when text remains.
    static func bodyLines(_ text: String, width: Int, max: Int) -> [String] {
        var rows: [String] = []
        // Only the start can show: a row holds at most `width` characters (zero-width aside).
        for line in text.prefix((max + 1) * width * 2).split(separator: "\n", omittingEmptySubsequences: false) {
            rows += wrap(String(line), to: width)
            if rows.count > max { break }
        }
        guard rows.count > max else { return rows }
        var out = Array(rows.prefix(max))
        out[max - 1] = TextWidth.truncate(out[max - 1] + " …", to: width)
        return out
    }

    private static func oneLine(_ s: String) -> String { s.replacingOccurrences(of: "\n", with: " ") }

    /// Closing punctuation that never starts a line (a line breaks before the character it follows).
    static let noBreakBefore: Set<String> = ["。", "、", "，", "．", "！", "？", "：", "；", "）", "」", "』", "】", "〉", "》", "ー"]

    /// Lines of at most `columns` terminal columns: breaks at spaces and between wide
    /// (CJK) characters, a word longer than a line cut between glyphs. Glyphs are whole
    /// graphemes, so combining marks stay on their base character.
    static func wrap(_ text: String, to columns: Int) -> [String] {
        guard columns > 1 else { return [] }
        // Units a line may break between: a run of narrow glyphs (a word), or one wide glyph
        // with the closing punctuation after it; `space` says a space came before.
        var units: [(text: String, width: Int, space: Bool)] = []
        var space = false
        var word = ""
        var wordWidth = 0
        func flush() {
            guard !word.isEmpty else { return }
            units.append((word, wordWidth, space))
            space = false
            word = ""
            wordWidth = 0
        }
        for g in Sanitize.glyphs(text) {
            if g.text == " " {
                flush()
                space = true
            } else if noBreakBefore.contains(g.text), !space, !word.isEmpty || !units.isEmpty {
                if word.isEmpty {
                    units[units.count - 1].text += g.text
                    units[units.count - 1].width += g.width
                } else {
                    word += g.text
                    wordWidth += g.width
                }
            } else if g.width == 2 {
                flush()
                units.append((g.text, 2, space))
                space = false
            } else {
                word += g.text
                wordWidth += g.width
            }
        }
        flush()
        var lines: [String] = []
        var line = ""
        var used = 0
        for u in units {
            let gap = u.space && used > 0 ? 1 : 0
            if used > 0, used + gap + u.width > columns {
                lines.append(line)
                line = ""
                used = 0
            }
            if used > 0, u.space {
                line += " "
                used += 1
            }
            guard u.width > columns - used else {
                line += u.text
                used += u.width
                continue
            }
            // Longer than a line: cut between glyphs where the columns end.
            for g in Sanitize.glyphs(u.text) {
                if used + g.width > columns {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                line += g.text
                used += g.width
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}

extension PushType {
    /// The type a preview target's request is, from its `apns-push-type` header.
    static func sent(in t: PreviewTarget) -> PushType {
        let header = t.headers.first { $0.name == "apns-push-type" }?.value
        return PushType.all.first { $0.apnsPushType == header } ?? .alert
    }
}
