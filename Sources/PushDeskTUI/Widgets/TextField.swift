/// A one-line text field: cursor movement, Home/End, delete word, horizontal scrolling
/// of values longer than the field. Positions are in Characters; scrolling in columns.
public struct TextField: Equatable, Sendable {
    /// Setting the text keeps a cursor that was at the end at the (new) end.
    public var text: String { didSet { if cursor >= oldValue.count || cursor > text.count { cursor = text.count } } }
    public private(set) var cursor: Int
    /// First visible column of the value (horizontal scroll).
    public private(set) var scroll = 0
    /// Shown as `•` instead of the text (secret fields; the real value is kept).
    public var masked = false

    public init(_ text: String = "", masked: Bool = false) {
        self.text = text
        self.cursor = text.count
        self.masked = masked
    }

    /// Applies an editing key (resolved through the key registry, done by the one
    /// `LineEditor`); returns true when the key was used (text or cursor moved).
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        var chars = Array(text)
        switch key {
        case .char(let c): LineEditor.insert(String(c), into: &chars, cursor: &cursor, multiline: false)
        case .paste(let s): LineEditor.insert(s, into: &chars, cursor: &cursor, multiline: false)
        default:
            guard let a = KeyRegistry.editAction(for: key) else { return false }
            let count = chars.count
            _ = LineEditor.apply(a, to: &chars, cursor: &cursor)
            if chars.count == count { return true }  // the cursor moved (or nothing to delete)
        }
        text = String(chars)
        return true
    }

    /// What is shown for the value (masked or with control characters escaped).
    private func shownGlyphs() -> [Sanitize.Glyph] {
        if masked {
            return Array(repeating: Sanitize.Glyph(text: "•", width: 1, escaped: false), count: min(text.count, 12))
        }
        return Sanitize.glyphs(text)
    }

    /// Draws the field into `width` columns at (x, y); when focused, places the cursor
    /// and scrolls so that it stays visible. Returns the cursor column when focused.
    public mutating func render(into buf: inout CellBuffer, x: Int, y: Int, width: Int, focused: Bool, role: Role) {
        buf.fill(Rect(x: x, y: y, width: width, height: 1), role: role)
        guard width > 0 else { return }
        // Column of the cursor within the whole value (escapes may take several columns).
        let cursorCol: Int
        if masked {
            cursorCol = min(cursor, 12)
        } else {
            cursorCol = TextWidth.width(of: String(text.prefix(cursor)))
        }
        let glyphs = shownGlyphs()
        let total = glyphs.reduce(0) { $0 + $1.width }
        if focused {
            if cursorCol < scroll { scroll = cursorCol }
            if cursorCol >= scroll + width { scroll = cursorCol - width + 1 }
        } else {
            scroll = 0
        }
        scroll = max(0, min(scroll, max(0, total - width + 1)))
        var col = 0
        var cx = x
        for g in glyphs {
            defer { col += g.width }
            if col < scroll { continue }
            if cx - x + g.width > width { break }
            buf.put(g.text, x: cx, y: y, role: g.escaped ? .escaped : role, maxX: x + width)
            cx += g.width
        }
        // Scroll markers show there is more text than fits.
        if scroll > 0 { buf.put("‹", x: x, y: y, role: role) }
        if total - scroll > width { buf.put("›", x: x + width - 1, y: y, role: role) }
        if focused { buf.cursor = (x + cursorCol - scroll, y) }
    }
}
