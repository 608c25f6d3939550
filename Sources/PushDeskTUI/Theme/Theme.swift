/// Colours by role. Each role has a 256-colour pair and a 16-colour fallback; the
/// terminal layer picks whichever the terminal supports, or attributes only when it
/// has no colour (or NO_COLOR is set, which selects the monochrome theme).
public struct Theme: Equatable, Sendable {
    public struct Style: Equatable, Sendable {
        /// 256-colour indexes; -1 = terminal default.
        public var fg: Int, bg: Int
        /// 16-colour fallbacks (0–15); -1 = terminal default.
        public var fg16: Int, bg16: Int
        public var bold = false, underline = false, reverse = false, dim = false
        public init(
            fg: Int = -1, bg: Int = -1, fg16: Int = -1, bg16: Int = -1,
            bold: Bool = false, underline: Bool = false, reverse: Bool = false, dim: Bool = false
        ) {
            self.fg = fg
            self.bg = bg
            self.fg16 = fg16
            self.bg16 = bg16
            self.bold = bold
            self.underline = underline
            self.reverse = reverse
            self.dim = dim
        }
    }

    public var name: String
    public var styles: RoleTable<Style>

    public init(name: String, styles: RoleTable<Style>) {
        self.name = name
        self.styles = styles
    }

    /// A role's style; a role the file leaves out inherits `screen.normal`.
    public func style(_ role: Role) -> Style { styles[role] ?? styles[.normal] ?? Style() }

    /// The 16 named colours accepted in theme files, in ANSI order.
    public static let colorNames = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "brightblack", "brightred", "brightgreen", "brightyellow",
        "brightblue", "brightmagenta", "brightcyan", "brightwhite",
    ]
}
