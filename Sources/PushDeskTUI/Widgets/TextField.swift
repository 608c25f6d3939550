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

    /// Applies an editing key; returns true when the key was used (text or cursor moved).
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        var chars = Array(text)
        switch key {
        case .char(let c):
            chars.insert(c, at: cursor)
            cursor += 1
        case .paste(let s):
            // A pasted newline never submits: line breaks become spaces in a one-line field.
            let clean = s.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 }
            chars.insert(contentsOf: clean, at: cursor)
            cursor += clean.count
        case .backspace, .ctrl("h"):
            guard cursor > 0 else { return true }
            chars.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .ctrl("d"):
            guard cursor < chars.count else { return true }
            chars.remove(at: cursor)
        case .left, .ctrl("b"):
            cursor = max(0, cursor - 1)
            return true
        case .right:
            cursor = min(chars.count, cursor + 1)
            return true
        case .home, .ctrl("a"):
            cursor = 0
            return true
        case .end, .ctrl("e"):
            cursor = chars.count
            return true
        case .ctrl("w"):
            // Delete the word before the cursor (and the spaces before it).
            var i = cursor
            while i > 0, chars[i - 1] == " " { i -= 1 }
            while i > 0, chars[i - 1] != " " { i -= 1 }
            chars.removeSubrange(i..<cursor)
            cursor = i
        case .ctrl("u"):
            chars.removeSubrange(0..<cursor)
            cursor = 0
        case .ctrl("k"): chars.removeSubrange(cursor..<chars.count)
        default: return false
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

/// Editing keys of text fields, for docs/KEYS.md and the help overlay.
public enum TextFieldKeys {
    public static let table: [(String, String)] = [
        ("`←` `→`, `Ctrl-B`", "Move the cursor"),
        ("`Home` `Ctrl-A`, `End` `Ctrl-E`", "Start / end of the value"),
        ("`Backspace`, `Delete` `Ctrl-D`", "Delete a character"),
        ("`Ctrl-W`", "Delete the word before the cursor"),
        ("`Ctrl-U`, `Ctrl-K`", "Delete to the start / to the end"),
    ]
}
