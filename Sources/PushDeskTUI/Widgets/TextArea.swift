/// A multi-line text field (a notification body): line breaks, soft wrap at the field's
/// width, the cursor moved by character, by visual row (↑↓ keep the column), to the start
/// or end of the line, and word / line deletes. Positions are Characters; widths columns.
public struct TextArea: Equatable, Sendable, CustomReflectable {
    /// Setting the text keeps a cursor that was at the end at the (new) end.
    public var text: String {
        didSet { if cursor >= oldValue.count || cursor > text.count { cursor = text.count } }
    }
    public private(set) var cursor: Int
    /// First visual row shown.
    public private(set) var scroll = 0
    /// The column ↑/↓ aim for, kept across consecutive vertical moves.
    private var goalColumn: Int?
    /// Width of the last render: vertical moves follow the rows the operator sees.
    private var wrapWidth = 0
    /// The last layout (a form asks for it several times a frame, for a body of 4 KB).
    private var cache = LayoutCache()

    public init(_ text: String = "") {
        self.text = text
        self.cursor = text.count
    }

    public static func == (a: TextArea, b: TextArea) -> Bool {
        a.text == b.text && a.cursor == b.cursor && a.scroll == b.scroll
    }

    /// What the area is, without its layout cache (a memo, not state: `dump` and the tests
    /// that compare state before and after drawing see this).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "text": text, "cursor": cursor, "scroll": scroll, "goalColumn": goalColumn as Any,
                "wrapWidth": wrapWidth,
            ])
    }

    /// A pure function of (text, width), so copies of the area may share it.
    private final class LayoutCache: @unchecked Sendable {
        var text = "", width = -1
        var chars: [Character] = [], rows: [Row] = []
    }

    /// The characters and rows of the text at `width`, from the cache when unchanged.
    private func laidOut(width: Int) -> (chars: [Character], rows: [Row]) {
        if cache.width == width, cache.text == text { return (cache.chars, cache.rows) }
        let chars = Array(text)
        let rows = Self.layout(chars, width: width)
        cache.text = text
        cache.width = width
        cache.chars = chars
        cache.rows = rows
        return (chars, rows)
    }

    /// One visual row: characters `start..<end` (a line break is not in any row).
    struct Row: Equatable { var start: Int, end: Int }

    /// Columns one character takes on screen (control characters show as escapes).
    static func columns(_ c: Character) -> Int {
        if let a = c.asciiValue, a >= 0x20, a != 0x7F { return 1 }
        return TextWidth.width(of: String(c))
    }

    /// Rows of `chars` wrapped at `width` columns. Text wraps one column early so that a
    /// cursor after the last character of a full row still has a cell.
    static func layout(_ chars: [Character], width: Int) -> [Row] {
        let limit = max(1, width - 1)
        var rows: [Row] = []
        var start = 0
        var col = 0
        for (i, c) in chars.enumerated() {
            if c == "\n" {
                rows.append(Row(start: start, end: i))
                start = i + 1
                col = 0
                continue
            }
            let w = columns(c)
            if col > 0, col + w > limit {
                rows.append(Row(start: start, end: i))
                start = i
                col = 0
            }
            col += w
        }
        rows.append(Row(start: start, end: chars.count))
        return rows
    }

    /// The visual row and column of a character position.
    static func locate(_ pos: Int, in rows: [Row], _ chars: [Character]) -> (row: Int, col: Int) {
        var r = 0
        for (i, row) in rows.enumerated() where row.start <= pos { r = i }
        let col = chars[rows[r].start..<min(pos, rows[r].end)].reduce(0) { $0 + columns($1) }
        return (r, col)
    }

    /// Rows this text takes at `width` (for forms that grow the field with its text).
    public func rowCount(width: Int) -> Int { laidOut(width: width).rows.count }

    /// Applies an editing key (resolved through the key registry, done by the one
    /// `LineEditor`, as in one-line fields); true when it was used (text changed or the
    /// cursor moved). Enter is not a key here: the form turns it into `insertNewline()`.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        var chars = Array(text)
        if case .up = key {} else if case .down = key {} else { goalColumn = nil }
        switch key {
        // Pasted line breaks are line breaks here (never a submit), in one form: \n.
        case .char(let c): LineEditor.insert(String(c), into: &chars, cursor: &cursor, multiline: true)
        case .paste(let s): LineEditor.insert(s, into: &chars, cursor: &cursor, multiline: true)
        case .up: return moveVertically(-1)
        case .down: return moveVertically(1)
        default:
            guard let a = KeyRegistry.editAction(for: key) else { return false }
            let count = chars.count
            _ = LineEditor.apply(a, to: &chars, cursor: &cursor)
            if chars.count == count { return true }
        }
        text = String(chars)
        return true
    }

    public mutating func insertNewline() { _ = handle(.char("\n")) }

    /// Puts the cursor on a 1-based line and column of the text, the column counted in
    /// Unicode scalars as the core's readers count it (`JSONReadError`): a character of
    /// several scalars is landed on by any of them. Past the end of a line, its end; past
    /// the last line, the end of the text.
    public mutating func moveCursor(line: Int, column: Int) {
        goalColumn = nil
        var pos = 0
        var row = 1
        var before = 0
        for c in text {
            let isBreak = c.unicodeScalars.contains("\n")
            if row == line {
                if isBreak || before + c.unicodeScalars.count >= column { break }
                before += c.unicodeScalars.count
            } else if isBreak {
                row += 1
            }
            pos += 1
        }
        cursor = pos
    }

    /// Moves one visual row up (-1) or down (1); false at the first / last row, so the
    /// caller can move to the field above / below instead.
    public mutating func moveVertically(_ delta: Int) -> Bool {
        let (chars, rows) = laidOut(width: wrapWidth > 1 ? wrapWidth : Int.max / 2)
        let (r, col) = Self.locate(cursor, in: rows, chars)
        let target = r + delta
        guard rows.indices.contains(target) else {
            goalColumn = nil
            return false
        }
        let goal = goalColumn ?? col
        let row = rows[target]
        // A soft-wrapped row ends where the next starts: stop one short so the cursor stays on it.
        let softEnd = target + 1 < rows.count && rows[target + 1].start == row.end
        let last = softEnd ? max(row.start, row.end - 1) : row.end
        var pos = row.start
        var used = 0
        while pos < last, used + Self.columns(chars[pos]) <= goal {
            used += Self.columns(chars[pos])
            pos += 1
        }
        cursor = pos
        goalColumn = goal
        return true
    }

    /// Draws `height` rows of the text wrapped at `width` at (x, y), scrolled so that the
    /// cursor row shows; ↑ / ↓ in the last column say that rows are hidden above / below.
    public mutating func render(
        into buf: inout CellBuffer, x: Int, y: Int, width: Int, height: Int, focused: Bool, role: Role
    ) {
        buf.fill(Rect(x: x, y: y, width: width, height: height), role: role)
        guard width > 1, height > 0 else { return }
        wrapWidth = width
        let (chars, rows) = laidOut(width: width)
        let (cr, cc) = Self.locate(cursor, in: rows, chars)
        if focused {
            if cr < scroll { scroll = cr }
            if cr >= scroll + height { scroll = cr - height + 1 }
        }
        scroll = max(0, min(scroll, rows.count - height))
        for (i, row) in rows.dropFirst(scroll).prefix(height).enumerated() {
            buf.put(String(chars[row.start..<row.end]), x: x, y: y + i, role: role, maxX: x + width - 1)
        }
        if scroll > 0 { buf.put("↑", x: x + width - 1, y: y, role: role) }
        if scroll + height < rows.count { buf.put("↓", x: x + width - 1, y: y + height - 1, role: role) }
        if focused { buf.cursor = (x + cc, y + cr - scroll) }
    }
}
