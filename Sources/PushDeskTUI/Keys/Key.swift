/// A key press (or a paste) as the screens see it, independent of ncurses key codes.
public enum Key: Hashable, Sendable {
    case char(Character)
    /// Ctrl plus a letter, lower-case (`.ctrl("s")` is Ctrl-S).
    case ctrl(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case f(Int)
    /// The terminal was resized.
    case resize
    /// Text pasted with bracketed paste: inserted as text, never taken as commands.
    case paste(String)
    /// A mouse click at a screen cell (only with `--mouse`).
    case click(x: Int, y: Int)
    /// The mouse wheel (only with `--mouse`).
    case wheelUp, wheelDown
    /// Input the console does not use (an unknown control character or mouse event).
    case ignored

    /// How the key is written in help and docs.
    public var label: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .ctrl(let c): "Ctrl-" + c.uppercased()
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .f(let n): "F\(n)"
        case .resize: "(resize)"
        case .paste: "(paste)"
        case .click: "(click)"
        case .wheelUp: "(wheel up)"
        case .wheelDown: "(wheel down)"
        case .ignored: "(ignored)"
        }
    }

    var isFunctionKey: Bool { if case .f = self { true } else { false } }
}
