/// The box under a list that shows the selected row in full, one labelled value per line
/// (wrapped; a hint in the warning colour): a send's answer, a logged send.
enum DetailsPanel {
    /// Rows for `rows` values in `rect`: the box and its lines, at most half the height (0: none).
    static func height(for rows: [(String, String)], in rect: Rect, extra: Int = 0) -> Int {
        rows.isEmpty ? 0 : min(rows.count + 2 + extra, rect.height / 2 + 1)
    }

    static func render(into buf: inout CellBuffer, _ rect: Rect, title: String, rows: [(String, String)]) {
        guard !rect.isEmpty else { return }
        buf.box(rect, role: .border, title: title)
        let inner = rect.inset(1)
        var y = inner.y
        for (label, value) in rows where y < inner.maxY {
            let x = buf.put(
                " " + label.padding(toLength: 15, withPad: " ", startingAt: 0), x: inner.x, y: y, role: .muted)
            let role: Role = label == "Hint" ? .findingWarning : .normal
            let wrapped = TextWidth.wrap(value, to: max(1, inner.maxX - x))
            for l in wrapped where y < inner.maxY {
                buf.put(l, x: x, y: y, role: role, maxX: inner.maxX)
                y += 1
            }
            if wrapped.isEmpty { y += 1 }
        }
    }
}
