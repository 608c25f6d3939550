import Foundation
import PushDeskCore

/// The composer's live preview: a tab per target app, the size meter, the request
/// (endpoint, headers, syntax-coloured pretty JSON), the device view and the findings.
/// It draws a `Preview` made by the core's `PreviewEngine` — the one `pushdesk preview`
/// prints — and never computes a payload itself.
struct PreviewPane {
    /// Index of the shown target.
    var target = 0
    /// First row of the request shown (PgUp / PgDn).
    var scroll = 0
    /// Selected finding (↑ / ↓, Enter jumps to its field).
    var selected = 0
    /// On narrow screens the device view takes the request's place (`v`).
    var showDevice = false
    /// Rows of the request area at the last render, for paging.
    private(set) var page = 5
    /// Where the findings rows were drawn (mouse clicks).
    private(set) var findingsRect = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The target tabs' row (mouse clicks).
    private(set) var tabsRect = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The first target whose tab is drawn, and the labels drawn (mouse clicks).
    private(set) var tabsFirst = 0
    private(set) var tabLabels: [String] = []
    /// The request's wrapped rows, kept while the preview, the target and the width stay.
    private var rowsCache: (key: [Int], rows: [[Span]])?

    /// One row of the findings list: a finding and the apps whose preview reported it
    /// (empty for the delivery as a whole).
    struct Entry: Equatable {
        var finding: Finding
        var apps: [String]
    }

    /// The findings listed, most severe first: top-level ones, then each target's, the
    /// same finding on several apps once (with its apps).
    static func findings(_ p: Preview) -> [Entry] {
        var out: [Entry] = p.diagnostics.map { Entry(finding: $0, apps: []) }
        for t in p.targets {
            for f in t.diagnostics {
                if let i = out.firstIndex(where: { $0.finding == f }) {
                    if !out[i].apps.isEmpty, !out[i].apps.contains(t.app) { out[i].apps.append(t.app) }
                } else {
                    out.append(Entry(finding: f, apps: [t.app]))
                }
            }
        }
        return out.enumerated().sorted {
            ($0.element.finding.severity, $1.offset) > ($1.element.finding.severity, $0.offset)
        }.map(\.element)
    }

    /// The API a tab names after the app (and so its platform).
    static func apiName(_ api: PreviewAPI) -> String {
        switch api {
        case .apns: "APNs"
        case .httpv1: "FCM v1"
        case .legacy: "FCM legacy"
        }
    }

    /// What a tab calls its app: the label operators know (integration keys are often
    /// UUIDs), else the key shortened.
    static func appName(_ t: PreviewTarget) -> String {
        t.label.trimmingCharacters(in: .whitespaces).isEmpty ? TextWidth.truncate(t.app, to: 13) : t.label
    }

    /// The tabs' labels for `width` columns: whole when they fit, else the app names
    /// shortened with "…" (the longest first, down to 6 columns) so that every tab keeps its
    /// API; what still does not fit scrolls (`render`).
    static func fittedTabLabels(_ targets: [PreviewTarget], width: Int) -> [String] {
        let names = targets.map(appName)
        let suffixes = targets.map { " " + apiName($0.api) }
        var widths = names.map { TextWidth.width(of: $0) }
        let fixed = suffixes.reduce(0) { $0 + TextWidth.width(of: $1) + 3 }
        while fixed + widths.reduce(0, +) > width, let i = widths.indices.max(by: { widths[$0] < widths[$1] }),
            widths[i] > 6
        {
            widths[i] -= 1
        }
        return names.indices.map { shorten(names[$0], to: widths[$0]) + suffixes[$0] }
    }

    /// `text` in `columns`, the middle given up for "…": labels of one service often share
    /// their start (`Neotrips iOS (sandbox)`, `Neotrips iOS`) and differ at the end.
    static func shorten(_ text: String, to columns: Int) -> String {
        guard TextWidth.width(of: text) > columns, columns > 2 else { return TextWidth.truncate(text, to: columns) }
        let head = TextWidth.truncate(text, to: (columns + 1) / 2)
        var tail = ""
        var used = TextWidth.width(of: head)
        for c in Sanitize.glyphs(text).reversed() {
            if used + c.width > columns { break }
            tail = c.text + tail
            used += c.width
        }
        return head + tail
    }

    /// The meter's text and role: under 90 % of the limit, from 90 %, over it.
    static func meter(bytes: Int, limit: Int) -> (text: String, role: Role) {
        let role: Role = bytes > limit ? .meterOver : bytes * 10 >= limit * 9 ? .meterNear : .meterOK
        var text = "\(bytes) / \(limit) bytes"
        if bytes > limit {
            text += " — over by \(bytes - limit)"
        } else {
            text += " (\(bytes * 100 / max(1, limit)) %)"
        }
        return (text, role)
    }

    /// Why the meter and a copied payload differ, for FCM: the body sent (and copied out)
    /// holds the device's `token` (v1) or `to` (legacy), which docs/PAYLOADS.md does not count.
    /// Nil when the two sizes are the same (APNs).
    static func sizeNote(_ t: PreviewTarget) -> (field: String, bodyBytes: Int)? {
        let body = t.payload.compactByteCount
        guard body != t.bytes else { return nil }
        return (t.api == .legacy ? "to" : "token", body)
    }

    /// `stamp` changes whenever `preview` does (the composer counts its recomputations).
    mutating func render(
        into buf: inout CellBuffer, _ rect: Rect, preview: Preview?, stamp: Int, empty: String, appName: String,
        focused: Bool
    ) {
        buf.box(rect, role: focused ? .borderFocus : .border, title: "Preview (the payload engine of pushdesk preview)")
        let inner = rect.inset(1)
        guard !inner.isEmpty else { return }
        guard let preview, !preview.targets.isEmpty else {
            let text = preview.flatMap { Self.findings($0).first?.finding.message } ?? empty
            for (i, l) in TextWidth.wrap(text, to: inner.width - 2, maxLines: inner.height).enumerated() {
                buf.put(l, x: inner.x + 1, y: inner.y + i, role: .muted, maxX: inner.maxX)
            }
            return
        }
        target = max(0, min(target, preview.targets.count - 1))
        let t = preview.targets[target]
        let findings = Self.findings(preview)
        selected = max(0, min(selected, findings.count - 1))

        var y = inner.y
        // The shown app's tab always in view: full labels, else keys only, else from the shown one.
        let labels = Self.fittedTabLabels(preview.targets, width: inner.width)
        func fits(_ l: ArraySlice<String>) -> Bool { l.reduce(0) { $0 + TextWidth.width(of: $1) + 3 } <= inner.width }
        tabsFirst = 0
        while tabsFirst < target, !fits(labels[tabsFirst...target]) { tabsFirst += 1 }
        tabsRect = Rect(x: inner.x, y: y, width: inner.width, height: 1)
        TabBar.render(into: &buf, tabsRect, tabs: Array(labels[tabsFirst...]), active: target - tabsFirst)
        tabLabels = labels
        y += 1
        // The size meter: a bar and the numbers, in the role of how close to the limit.
        let (meterText, role) = Self.meter(bytes: t.bytes, limit: t.limit)
        var text = meterText
        if let n = Self.sizeNote(t) { text += ", without \"\(n.field)\" (the body: \(n.bodyBytes))" }
        let barW = max(0, min(20, inner.width - TextWidth.width(of: text) - 12))
        var x = buf.put("Size ", x: inner.x + 1, y: y, role: .muted)
        if barW > 0 {
            let filled = min(barW, (t.bytes * barW + t.limit - 1) / max(1, t.limit))
            x = buf.put(String(repeating: "█", count: filled), x: x, y: y, role: role)
            x = buf.put(String(repeating: "░", count: barW - filled), x: x, y: y, role: .muted) + 1
        }
        buf.put(" \(text) ", x: x, y: y, role: role, maxX: inner.maxX)
        y += 1

        // Findings at the bottom: a third of the pane at most, at least the header.
        let listRows = findings.isEmpty ? 0 : min(findings.count, max(2, (inner.maxY - y) / 3))
        let findingsTop = inner.maxY - listRows - 1
        let body = Rect(x: inner.x, y: y, width: inner.width, height: findingsTop - y)
        renderRequest(into: &buf, body, preview: preview, stamp: stamp, appName: appName)
        renderFindings(
            into: &buf, Rect(x: inner.x, y: findingsTop, width: inner.width, height: listRows + 1),
            findings, focused: focused)
    }

    /// Endpoint, headers and the JSON, scrolled; beside it (or, narrow, instead of it) the device view.
    private mutating func renderRequest(
        into buf: inout CellBuffer, _ rect: Rect, preview: Preview, stamp: Int, appName: String
    ) {
        guard !rect.isEmpty else { return }
        let t = preview.targets[target]
        let deviceW = 48
        let wide = rect.width >= deviceW + 50
        if !wide && showDevice {
            DeviceView.render(
                into: &buf, Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: rect.height), target: t,
                appName: appName)
            return
        }
        let jsonRect = wide ? Rect(x: rect.x, y: rect.y, width: rect.width - deviceW - 2, height: rect.height) : rect
        if wide {
            let side = Rect(x: rect.maxX - deviceW - 1, y: rect.y, width: deviceW, height: rect.height)
            let h = DeviceView.render(into: &buf, side, target: t, appName: appName)
            Self.renderSizes(
                into: &buf, Rect(x: side.x, y: side.y + h + 1, width: side.width, height: side.height - h - 1), preview)
        }
        let w = jsonRect.width - 2
        let key = [stamp, target, w, jsonRect.height >= 20 ? 1 : 0]
        let wrapped: [[Span]]
        if let c = rowsCache, c.key == key {
            wrapped = c.rows
        } else {
            wrapped = JSONLines.wrap(Self.requestLines(t, tall: jsonRect.height >= 20), width: w)
            rowsCache = (key, wrapped)
        }
        page = max(1, jsonRect.height - 1)
        scroll = max(0, min(scroll, wrapped.count - jsonRect.height))
        for (i, row) in wrapped.dropFirst(scroll).prefix(jsonRect.height).enumerated() {
            var x = jsonRect.x + 1
            for span in row { x = buf.put(span.text, x: x, y: jsonRect.y + i, role: span.role, maxX: jsonRect.maxX) }
        }
        if scroll > 0 { buf.put("↑", x: jsonRect.maxX - 1, y: jsonRect.y, role: .muted) }
        if scroll + jsonRect.height < wrapped.count {
            buf.put("↓ PgDn", x: jsonRect.maxX - 6, y: jsonRect.maxY - 1, role: .muted)
        }
    }

    /// `POST` endpoint, headers (one per line when `tall`, else sharing one line so the
    /// payload shows sooner), then the pretty JSON.
    static func requestLines(_ t: PreviewTarget, tall: Bool) -> [[Span]] {
        var rows: [[Span]] = [[Span(text: "POST ", role: .jsonPunctuation), Span(text: t.endpoint, role: .muted)]]
        let headers = t.headers.map {
            [
                Span(text: $0.name, role: .jsonKey), Span(text: ": ", role: .jsonPunctuation),
                Span(text: $0.value, role: .jsonString),
            ]
        }
        if tall {
            rows += headers
            rows.append([])
        } else if !headers.isEmpty {
            rows.append(
                headers.enumerated().flatMap { i, h in (i > 0 ? [Span(text: "  ", role: .jsonPunctuation)] : []) + h })
        }
        return rows + JSONLines.lines(t.payload)
    }

    /// Every app's size at once (under the device view when there is room): which app's
    /// payload is the one that does not fit.
    static func renderSizes(into buf: inout CellBuffer, _ rect: Rect, _ p: Preview) {
        guard rect.height >= 2, p.targets.count > 1 else { return }
        buf.put("Every app", x: rect.x, y: rect.y, role: .header)
        let keyW = min(22, p.targets.map { TextWidth.width(of: $0.app) }.max() ?? 10)
        for (i, t) in p.targets.prefix(rect.height - 1).enumerated() {
            let y = rect.y + 1 + i
            buf.put(TextWidth.pad(t.app, to: keyW), x: rect.x, y: y, role: .muted)
            let (text, role) = meter(bytes: t.bytes, limit: t.limit)
            buf.put(text, x: rect.x + keyW + 1, y: y, role: role, maxX: rect.maxX)
        }
    }

    private mutating func renderFindings(into buf: inout CellBuffer, _ rect: Rect, _ entries: [Entry], focused: Bool) {
        guard !rect.isEmpty else { return }
        buf.hline(x: rect.x, y: rect.y, width: rect.width, role: .border)
        let findings = entries.map(\.finding)
        let e = findings.filter { $0.severity == .error }.count
        let w = findings.filter { $0.severity == .warning }.count
        let head =
            findings.isEmpty
            ? " No findings "
            : " Findings: \(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s")"
                + (focused ? " — Enter jumps to the field " : " — Ctrl-V, then Enter jumps to the field ")
        buf.put(
            head, x: rect.x + 1, y: rect.y, role: findings.isEmpty ? .muted : e > 0 ? .findingError : .findingWarning,
            maxX: rect.maxX)
        let rows = rect.height - 1
        findingsRect = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rows)
        guard rows > 0, !findings.isEmpty else { return }
        let top = max(0, min(selected - rows + 1, findings.count - rows))
        for (i, entry) in entries.enumerated().dropFirst(top).prefix(rows) {
            let f = entry.finding
            let y = rect.y + 1 + i - top
            let role: Role =
                focused && i == selected
                ? .listSelected
                : f.severity == .error ? .findingError : f.severity == .warning ? .findingWarning : .findingInfo
            if focused && i == selected { buf.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), role: role) }
            // Which apps, unless the message names its app already.
            let apps =
                entry.apps.isEmpty || entry.apps.contains(where: f.message.contains)
                ? "" : " (\(entry.apps.joined(separator: ", ")))"
            let text =
                "\(f.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(f.rule)  \(f.field)\(apps): \(f.message)"
            buf.put(text, x: rect.x + 1, y: y, role: role, maxX: rect.maxX)
        }
        // More findings than rows: which way the rest lies, on the list's rule.
        if findings.count > rows {
            let mark = (top > 0 ? " ↑" : "") + (top + rows < findings.count ? " ↓ more " : " ")
            buf.put(mark, x: rect.maxX - TextWidth.width(of: mark) - 1, y: rect.y, role: .muted)
        }
    }

    // MARK: keys

    mutating func scrollPage(_ delta: Int) { scroll = max(0, scroll + delta * page) }
}
