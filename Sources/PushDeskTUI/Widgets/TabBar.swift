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
