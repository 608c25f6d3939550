/// The tab bar of the app editor.
public enum TabBar {
    /// The tab drawn at column `x` (same layout as `render`).
    public static func index(atX x: Int, in rect: Rect, tabs: [String]) -> Int? {
        var cx = rect.x
        let g = gap(tabs, rect)
        for (i, t) in tabs.enumerated() {
            let w = TextWidth.width(of: t) + 2
            if x >= cx && x < cx + w { return i }
            cx += w + g
        }
        return nil
    }

    /// One column between tabs, none when that is what lets every tab show whole (an iOS
    /// app editor's six tabs at 80 columns).
    static func gap(_ tabs: [String], _ rect: Rect) -> Int {
        let padded = tabs.reduce(0) { $0 + TextWidth.width(of: $1) + 2 }
        return padded + tabs.count > rect.width && padded <= rect.width ? 0 : 1
    }

    public static func render(into buf: inout CellBuffer, _ rect: Rect, tabs: [String], active: Int) {
        buf.fill(rect, role: .tabInactive)
        var x = rect.x
        let g = gap(tabs, rect)
        for (i, t) in tabs.enumerated() {
            if x >= rect.maxX { break }
            // A tab cut by the edge ends with "…", never mid-word without a sign.
            let text = " \(t) "
            let room = rect.maxX - x
            x = buf.put(
                TextWidth.width(of: text) > room ? TextWidth.truncate(text, to: room) : text, x: x, y: rect.y,
                role: i == active ? .tabActive : .tabInactive, maxX: rect.maxX)
            if g > 0 { x = buf.put(" ", x: x, y: rect.y, role: .tabInactive, maxX: rect.maxX) }
        }
    }
}
