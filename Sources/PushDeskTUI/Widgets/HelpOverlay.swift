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
            for b in bs { lines.append((b.keyLabels.joined(separator: " "), b.helpText, false)) }
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
