/// The bottom line: a message when there is one, else the key hints of the focused view.
public enum StatusBar {
    public static func render(
        into buf: inout CellBuffer, _ rect: Rect, hints: [(key: String, label: String)], message: String?
    ) {
        buf.fill(rect, role: .status)
        if let message, !message.isEmpty {
            buf.put(" " + message, x: rect.x, y: rect.y, role: .statusMessage, maxX: rect.maxX)
            return
        }
        var x = rect.x + 1
        for h in hints {
            let need = TextWidth.width(of: h.key) + TextWidth.width(of: h.label) + 3
            if x + need > rect.maxX { break }
            x = buf.put(h.key, x: x, y: rect.y, role: .statusKey)
            x = buf.put(" " + h.label, x: x, y: rect.y, role: .status) + 2
        }
    }
}

/// The tab bar of the app editor.
public enum TabBar {
    /// The tab drawn at column `x` (same layout as `render`).
    public static func index(atX x: Int, in rect: Rect, tabs: [String]) -> Int? {
        var cx = rect.x
        for (i, t) in tabs.enumerated() {
            let w = TextWidth.width(of: t) + 2
            if x >= cx && x < cx + w { return i }
            cx += w + 1
        }
        return nil
    }

    public static func render(into buf: inout CellBuffer, _ rect: Rect, tabs: [String], active: Int) {
        buf.fill(rect, role: .tabInactive)
        var x = rect.x
        for (i, t) in tabs.enumerated() {
            if x >= rect.maxX { break }
            // A tab cut by the edge ends with "…", never mid-word without a sign.
            let text = " \(t) "
            let room = rect.maxX - x
            x = buf.put(
                TextWidth.width(of: text) > room ? TextWidth.truncate(text, to: room) : text, x: x, y: rect.y,
                role: i == active ? .tabActive : .tabInactive, maxX: rect.maxX)
            x = buf.put(" ", x: x, y: rect.y, role: .tabInactive, maxX: rect.maxX)
        }
    }
}

/// The `?` / F1 overlay: the bindings of the focused view (its contexts, the text-field
/// keys when a field has focus, then the global ones), from the key registry and nothing else.
public enum HelpOverlay {
    /// Draws the overlay scrolled by `scroll` lines; returns the scroll actually used.
    @discardableResult
    /// `hiding`: bindings left out here (the git keys outside a repository).
    public static func render(
        into buf: inout CellBuffer, in area: Rect, contexts: [KeyContext], scroll: Int = 0,
        hiding hidden: (KeyBinding) -> Bool = { _ in false }
    ) -> Int {
        var lines: [(String, String, Bool)] = []  // keys, description, is heading
        for c in contexts {
            let bs = KeyRegistry.bindings.filter { $0.context == c && !hidden($0) }
            if bs.isEmpty { continue }
            lines.append((c.rawValue, "", true))
            for b in bs { lines.append((b.keys.map(\.label).joined(separator: " "), b.helpText, false)) }
        }
        let keyW = min(24, lines.filter { !$0.2 }.map { TextWidth.width(of: $0.0) }.max() ?? 10)
        let r = area.centered(width: min(area.width - 2, 78), height: min(area.height, lines.count + 2))
        let rows = r.height - 2
        let top = max(0, min(scroll, lines.count - rows))
        let more = lines.count > rows
        buf.fill(r, role: .dialog)
        buf.box(
            r, role: .dialog, title: more ? "Keys (↑↓ scroll, Esc closes)" : "Keys (Esc closes)",
            titleRole: .dialogTitle)
        if more {
            // Markers on the border: what lies above and below the rows shown.
            let pos = " \(top + rows < lines.count ? "↓ more" : "end") "
            buf.put(pos, x: r.maxX - TextWidth.width(of: pos) - 2, y: r.maxY - 1, role: .dialogTitle)
            if top > 0 { buf.put(" ↑ more ", x: r.maxX - 10, y: r.y, role: .dialogTitle) }
        }
        // One blank column inside each border; text that does not fit ends with "…".
        let textEnd = r.maxX - 2
        var y = r.y + 1
        for (k, d, heading) in lines.dropFirst(top).prefix(rows) {
            if heading {
                buf.put(TextWidth.truncate(k, to: textEnd - r.x - 2), x: r.x + 2, y: y, role: .dialogTitle)
            } else {
                buf.put(TextWidth.truncate(k, to: keyW), x: r.x + 3, y: y, role: .helpKey)
                buf.put(TextWidth.truncate(d, to: textEnd - r.x - 4 - keyW), x: r.x + 4 + keyW, y: y, role: .dialog)
            }
            y += 1
        }
        return top
    }
}
