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
