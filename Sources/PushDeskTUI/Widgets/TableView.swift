/// A multi-column list with a selection, scrolling and a `/` filter. Used for the
/// services list, the apps of a service, variables/parameters/sounds and findings.
public struct TableView: Sendable {
    public struct Column: Sendable {
        public var title: String
        /// Fixed width in columns; nil = shares what is left.
        public var width: Int?
        public init(_ title: String, width: Int? = nil) {
            self.title = title
            self.width = width
        }
    }

    public var columns: [Column]
    public private(set) var rows: [[String]] = []
    /// Role of each row's text (finding severities); nil = list.item.
    public var rowRoles: [Role?] = []
    /// Index into `visible` of the selected row.
    public private(set) var selection = 0
    public private(set) var scroll = 0
    public private(set) var filter = TextField()
    public private(set) var filtering = false
    /// Rows shown: indexes into `rows` that match the filter.
    public private(set) var visible: [Int] = []
    /// Rows that fit, from the last render (for paging).
    private var pageSize = 10
    public var emptyText = "(nothing here)"
    /// Where the rows were drawn last (for mouse clicks).
    public private(set) var lastBody = Rect(x: 0, y: 0, width: 0, height: 0)

    /// Selects the row drawn at screen row `y`; false when no row is there.
    public mutating func click(x: Int, y: Int) -> Bool {
        guard x >= lastBody.x, x < lastBody.maxX, y >= lastBody.y, y < lastBody.maxY else { return false }
        let i = scroll + (y - lastBody.y)
        guard visible.indices.contains(i) else { return false }
        selection = i
        return true
    }

    public init(columns: [Column]) { self.columns = columns }

    public mutating func setRows(_ r: [[String]], roles: [Role?] = []) {
        rows = r
        rowRoles = roles
        refilter()
    }

    /// The index in `rows` of the selected row, nil when nothing is shown.
    public var selectedRow: Int? { visible.indices.contains(selection) ? visible[selection] : nil }

    public mutating func select(row: Int) {
        if let i = visible.firstIndex(of: row) { selection = i }
    }

    private mutating func refilter() {
        let f = filter.text.lowercased()
        visible = rows.indices.filter { f.isEmpty || rows[$0].joined(separator: " ").lowercased().contains(f) }
        selection = max(0, min(selection, visible.count - 1))
    }

    public var isFiltering: Bool { filtering }

    /// Keys while the filter line is being edited: text goes to the filter, and the filter
    /// line's bindings (keep, clear) act. Returns false for keys it leaves to the caller (arrows).
    public mutating func handleFilterKey(_ key: Key) -> Bool {
        guard filtering else { return false }
        if let a = KeyRegistry.action(for: key, in: [.filterLine]) { return handle(a) }
        switch key {
        case .up, .down, .pageUp, .pageDown: return false
        default:
            guard filter.handle(key) else { return false }
            selection = 0
            refilter()
        }
        return true
    }

    /// The key contexts of a list view (`own` first) in the registry: while the filter line
    /// is being edited, only its keys (Enter keeps the filter, Esc clears it).
    public func contexts(_ own: [KeyContext]) -> [KeyContext] { filtering ? [.filterLine] : own }

    /// List actions; returns true when the table used it. While the filter line is being
    /// edited, Back clears it and Open keeps it (the filter line's keys).
    public mutating func handle(_ action: Action) -> Bool {
        if filtering, action == .back || action == .open {
            filtering = false
            if action == .back {
                filter = TextField()
                refilter()
            }
            return true
        }
        let n = visible.count
        switch action {
        case .up: selection = max(0, selection - 1)
        case .down: selection = max(0, min(n - 1, selection + 1))
        case .pageUp: selection = max(0, selection - pageSize)
        case .pageDown: selection = max(0, min(n - 1, selection + pageSize))
        case .top: selection = 0
        case .bottom: selection = max(0, n - 1)
        case .filter: filtering = true
        case .back where !filter.text.isEmpty:
            filter = TextField()
            refilter()
        default: return false
        }
        return true
    }

    /// Column widths for a total width: fixed ones first, the rest shared.
    func widths(total: Int) -> [Int] {
        let gaps = max(0, columns.count - 1)
        let fixed = columns.compactMap(\.width).reduce(0, +)
        let flex = columns.filter { $0.width == nil }.count
        let share = flex > 0 ? max(4, (total - fixed - gaps) / flex) : 0
        var ws = columns.map { $0.width ?? share }
        // Give rounding leftovers to the last flexible column.
        if let last = columns.lastIndex(where: { $0.width == nil }) {
            ws[last] += max(0, total - gaps - ws.reduce(0, +))
        }
        return ws
    }

    public mutating func render(into buf: inout CellBuffer, _ rect: Rect, focused: Bool) {
        guard !rect.isEmpty else { return }
        buf.fill(rect, role: .listItem)
        var area = rect
        // Filter line at the bottom while filtering or when a filter is active.
        if filtering || !filter.text.isEmpty {
            let (rest, line) = area.splitBottom(1)
            area = rest
            buf.fill(line, role: .filter)
            let label = "/"
            buf.put(label, x: line.x, y: line.y, role: .filter)
            filter.render(
                into: &buf, x: line.x + 1, y: line.y, width: line.width - 1 - 12, focused: filtering && focused,
                role: .filter)
            buf.put(" \(visible.count)/\(rows.count)", x: line.maxX - 11, y: line.y, role: .filter)
        }
        let ws = widths(total: area.width)
        // Header row.
        var x = area.x
        for (i, c) in columns.enumerated() {
            // Columns wider than the area are cut at its right edge, never drawn past it.
            let w = min(ws[i], area.maxX - x)
            guard w > 0 else { break }
            buf.putPadded(c.title, x: x, y: area.y, columns: w, role: .header)
            x += ws[i] + 1
        }
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        lastBody = body
        pageSize = max(1, body.height - 1)
        if visible.isEmpty {
            buf.put(
                filter.text.isEmpty ? emptyText : "(no row matches the filter)", x: body.x + 1, y: body.y, role: .muted,
                maxX: body.maxX)
            return
        }
        if selection < scroll { scroll = selection }
        if selection >= scroll + body.height { scroll = selection - body.height + 1 }
        scroll = max(0, min(scroll, max(0, visible.count - body.height)))
        for (line, vi) in (scroll..<min(visible.count, scroll + body.height)).enumerated() {
            let r = visible[vi]
            let y = body.y + line
            let sel = vi == selection
            let base: Role =
                sel
                ? (focused ? .listSelected : .listSelectedInactive)
                : (rowRoles.indices.contains(r) ? rowRoles[r] ?? .listItem : .listItem)
            buf.fill(Rect(x: body.x, y: y, width: body.width, height: 1), role: sel ? base : .listItem)
            var cx = body.x
            for (i, w) in ws.enumerated() {
                let shown = min(w, body.maxX - cx)
                guard shown > 0 else { break }
                let text = rows[r].indices.contains(i) ? rows[r][i] : ""
                buf.putPadded(text, x: cx, y: y, columns: shown, role: base)
                cx += w + 1
            }
        }
        // Scroll indicator when rows are hidden: where the selection is, and which way more lies.
        if visible.count > body.height {
            let pos =
                (scroll > 0 ? "↑ " : "") + "\(selection + 1)/\(visible.count)"
                + (scroll + body.height < visible.count ? " ↓ more" : "")
            buf.put(" " + pos, x: body.maxX - TextWidth.width(of: pos) - 1, y: rect.y, role: .header)
        }
    }
}
