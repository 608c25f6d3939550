/// One screen cell: a grapheme (or "" for the right half of a wide one) and its role.
/// Cells carry roles, not colours: the theme maps roles to colours when the buffer is
/// copied out, so rendered buffers stay theme-independent and testable.
public struct Cell: Equatable, Sendable {
    public var text: String
    /// 1 or 2 for a cell that starts a glyph, 0 for the continuation of a wide glyph.
    public var width: UInt8
    public var role: Role

    public init(_ text: String = " ", width: UInt8 = 1, role: Role = .normal) {
        self.text = text
        self.width = width
        self.role = role
    }
    public static let blank = Cell()
    public var isContinuation: Bool { width == 0 }
}
