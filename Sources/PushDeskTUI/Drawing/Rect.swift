/// A rectangle of cells: origin at the top-left, sizes in columns and rows.
public struct Rect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The rectangle shrunk by `n` cells on every side (borders, padding).
    public func inset(_ n: Int) -> Rect { Rect(x: x + n, y: y + n, width: width - 2 * n, height: height - 2 * n) }
    /// Splits off the top `rows` rows: (top, rest).
    public func splitTop(_ rows: Int) -> (Rect, Rect) {
        let r = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: r), Rect(x: x, y: y + r, width: width, height: height - r))
    }
    /// Splits off the bottom `rows` rows: (rest, bottom).
    public func splitBottom(_ rows: Int) -> (Rect, Rect) {
        let r = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: height - r), Rect(x: x, y: maxY - r, width: width, height: r))
    }
    /// A rectangle of the given size centred inside this one (clipped to it).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width)
        let ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
