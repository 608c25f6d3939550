/// A grid of cells that a frame is drawn into. Drawing never touches the terminal;
/// the terminal layer copies the buffer out (only the cells that changed).
public struct CellBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown (the focused text field), nil = hidden.
    public var cursor: (x: Int, y: Int)? {
        get { cursorX.map { ($0, cursorY) } }
        set {
            cursorX = newValue?.x
            cursorY = newValue?.y ?? 0
        }
    }
    private var cursorX: Int?
    private var cursorY = 0
    /// Borders drawn with ASCII (`+-|`) instead of box-drawing characters (non-UTF-8 locale).
    public var asciiOnly = false

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Fills a rectangle with blanks of a role.
    public mutating func fill(_ r: Rect, role: Role, char: String = " ") {
        // Clipped to the buffer: a rectangle wholly or partly off it (a column that starts past
        // the right edge of a narrow terminal) fills only what is on it.
        let xs = max(0, r.x)
        let xe = min(width, r.maxX)
        let ys = max(0, r.y)
        let ye = min(height, r.maxY)
        guard xs < xe, ys < ye else { return }
        // One cell copied row by row: a frame starts with fills of most of its cells.
        let cell = Cell(char, role: role)
        let width = width
        cells.withUnsafeMutableBufferPointer { p in
            for y in ys..<ye {
                UnsafeMutableBufferPointer(rebasing: p[y * width + xs..<y * width + xe]).update(repeating: cell)
            }
        }
    }

    /// Writes text at (x, y), clipped at `maxX` (default: the buffer's right edge).
    /// Control characters are escaped; a wide glyph that would straddle the edge is
    /// replaced by a space. Returns the column after the last written glyph.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: Role, maxX: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let limit = min(maxX ?? width, width)
        var cx = x
        for g in Sanitize.glyphs(text) {
            if cx >= limit { break }
            if cx < 0 {
                cx += g.width
                continue
            }
            if g.width == 2 && cx + 1 >= limit {
                self[cx, y] = Cell(" ", role: role)
                cx += 1
                break
            }
            clearWideNeighbour(x: cx, y: y)
            self[cx, y] = Cell(g.text, width: UInt8(g.width), role: g.escaped && role == .normal ? .escaped : role)
            if g.width == 2 {
                clearWideNeighbour(x: cx + 1, y: y)
                self[cx + 1, y] = Cell("", width: 0, role: role)
            }
            cx += g.width
        }
        return cx
    }

    /// Overwriting half of a wide glyph blanks its other half, so no orphan halves remain.
    private mutating func clearWideNeighbour(x: Int, y: Int) {
        let c = self[x, y]
        if c.isContinuation, x > 0 { self[x - 1, y] = Cell(" ", role: self[x - 1, y].role) }
        if c.width == 2, x + 1 < width { self[x + 1, y] = Cell(" ", role: c.role) }
    }

    /// Writes text padded with the role's background to exactly `columns` cells.
    public mutating func putPadded(_ text: String, x: Int, y: Int, columns: Int, role: Role) {
        fill(Rect(x: x, y: y, width: columns, height: 1), role: role)
        put(TextWidth.truncate(text, to: columns), x: x, y: y, role: role, maxX: x + columns)
    }

    /// A box border around `r`, with an optional title in the top edge.
    public mutating func box(_ r: Rect, role: Role, title: String = "", titleRole: Role? = nil) {
        guard r.width >= 2, r.height >= 2 else { return }
        let h = asciiOnly ? "-" : "─"
        let v = asciiOnly ? "|" : "│"
        let (tl, tr, bl, br) = asciiOnly ? ("+", "+", "+", "+") : ("┌", "┐", "└", "┘")
        for x in r.x + 1..<r.maxX - 1 {
            put(h, x: x, y: r.y, role: role)
            put(h, x: x, y: r.maxY - 1, role: role)
        }
        for y in r.y + 1..<r.maxY - 1 {
            put(v, x: r.x, y: y, role: role)
            put(v, x: r.maxX - 1, y: y, role: role)
        }
        put(tl, x: r.x, y: r.y, role: role)
        put(tr, x: r.maxX - 1, y: r.y, role: role)
        put(bl, x: r.x, y: r.maxY - 1, role: role)
        put(br, x: r.maxX - 1, y: r.maxY - 1, role: role)
        if !title.isEmpty, r.width > 4 {
            put(
                " " + TextWidth.truncate(title, to: r.width - 4) + " ", x: r.x + 1, y: r.y,
                role: titleRole ?? role, maxX: r.maxX - 1)
        }
    }

    /// A horizontal rule across `r`'s top row.
    public mutating func hline(x: Int, y: Int, width w: Int, role: Role) {
        let h = asciiOnly ? "-" : "─"
        for cx in x..<x + w { put(h, x: cx, y: y, role: role) }
    }

    // MARK: reading back (tests, captures)

    /// Row `y` as text (wide glyphs once, trailing spaces kept).
    public func line(_ y: Int) -> String {
        var s = ""
        for x in 0..<width {
            let c = self[x, y]
            if !c.isContinuation { s += c.text }
        }
        return s
    }
    /// Every row, trailing spaces trimmed, joined by newlines.
    public var text: String {
        (0..<height).map { line($0).trimmingTrailingSpaces() }.joined(separator: "\n")
    }
    /// The role of the cell at (x, y).
    public func role(x: Int, y: Int) -> Role { self[x, y].role }
    /// Column where `needle` starts in row `y` (display columns), nil when absent.
    public func column(of needle: String, inRow y: Int) -> Int? {
        var prefix = 0
        let cellsRow = (0..<width).map { self[$0, y] }
        for start in 0..<width {
            if cellsRow[start].isContinuation { continue }
            var s = ""
            for x in start..<width where !cellsRow[x].isContinuation {
                s += cellsRow[x].text
                if s.count >= needle.count { break }
            }
            if s.hasPrefix(needle) { return start }
            prefix += 1
        }
        return nil
    }
    /// First row containing `needle`, nil when absent.
    public func row(containing needle: String) -> Int? {
        (0..<height).first { line($0).contains(needle) }
    }

    public static func == (a: CellBuffer, b: CellBuffer) -> Bool {
        a.width == b.width && a.height == b.height && a.cells == b.cells
            && a.cursorX == b.cursorX && a.cursorY == b.cursorY
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
