import CNCurses
import CStopSignal
import Foundation
import PushDeskCore

/// The only code that talks to ncurses. It starts and stops the terminal (one exit
/// path, also taken on signals), reads keys, and copies cell buffers out: only the cells
/// that changed since the last frame are written, then one `wnoutrefresh` + `doupdate`.
@MainActor
public final class Terminal {
    public enum ColorMode: String, Sendable { case none, c8, c16, c256 }

    public private(set) var colorMode: ColorMode = .none
    /// False in a non-UTF-8 locale: borders and symbols fall back to ASCII.
    public private(set) var utf8 = true
    /// Set when TERM was unknown and a fallback terminal type was used.
    public private(set) var termFallbackNote: String?
    /// Set when keys outside ASCII cannot be read in this locale (and how to fix it).
    public private(set) var localeNote: String?
    private var screen: OpaquePointer?
    private var previous: CellBuffer?
    private var styles = RoleTable<(pair: Int16, attrs: attr_t)>()
    /// The style `werase` fills the window with (see `apply(theme:)`).
    private var blank: (pair: Int16, attrs: attr_t) = (0, 0)
    private var cursorVisible = false
    /// Whether the screen was suspended and resumed once (see `present`).
    private var resumed = false
    /// Wake-ups with input readable but no key in a row (a terminal gone quiet for good).
    private var unreadable = 0

    static let pasteStart = Int32(KEY_MAX) + 1
    static let pasteEnd = Int32(KEY_MAX) + 2
    nonisolated static let bracketedPasteOn = "\u{1b}[?2004h"
    nonisolated static let bracketedPasteOff = "\u{1b}[?2004l"

    public init() {}

    /// Starts curses. `noColor` (NO_COLOR) keeps colours off even when the terminal has them.
    public func start(
        noColor: Bool, mouse: Bool = false, environment: [String: String] = ProcessEnvironment.read()
    ) throws {
        setlocale(LC_ALL, "")
        utf8 = Self.codeset() == "UTF8"
        localeNote = Self.readUTF8InThePOSIXLocale()
        // newterm instead of initscr: an unknown TERM returns NULL instead of exiting.
        let term = environment["TERM"] ?? ""
        // curses writes through its own FILE streams on the standard descriptors.
        let out = fdopen(1, "w")
        let input = fdopen(0, "r")
        for candidate in [term, "xterm-256color", "xterm", "vt100"] where !candidate.isEmpty {
            // Checked before newterm so that nothing is drawn on a terminal that cannot take it.
            switch candidate.withCString({ pd_term_can_address($0) }) {
            case 0: throw TerminalError(message: Self.cannotAddress(term: candidate))
            case 1: break
            default: continue  // not in terminfo here: try the next one
            }
            screen = candidate.withCString { newterm(UnsafeMutablePointer(mutating: $0), out, input) }
            if screen != nil {
                if candidate != term {
                    termFallbackNote =
                        term.isEmpty
                        ? "TERM is not set; using \(candidate)."
                        : "TERM '\(Sanitize.string(term))' is unknown here; using \(candidate)."
                }
                break
            }
        }
        guard let screen else {
            throw TerminalError(
                message:
                    "cannot start the terminal (TERM='\(Sanitize.string(term))'); set TERM to a known type such as xterm"
            )
        }
        set_term(screen)
        // Short ESC delay so Esc feels immediate (ncurses' default is 1 s); PUSHDESK_ESCDELAY
        // or ncurses' own ESCDELAY (ms) override it. Set after newterm, which reads ESCDELAY.
        let delay = (environment["PUSHDESK_ESCDELAY"] ?? environment["ESCDELAY"]).flatMap { Int32($0) } ?? 25
        pd_set_escdelay(max(0, delay))
        TerminalRestore.install()
        // The loop sleeps in pd_wait: stop signals, resizes (curses' handler, wrapped) and
        // jobs wake it through one pipe.
        pd_wake_open()
        pd_wake_on_resize()
        raw()  // Ctrl-S, Ctrl-Z, Ctrl-C arrive as keys (no XOFF, no SIGTSTP)
        noecho()
        nonl()
        keypad(pd_stdscr(), true)
        curs_set(0)
        if !noColor && has_colors() {
            start_color()
            use_default_colors()
            let n = pd_colors()
            colorMode = n >= 256 ? .c256 : n >= 16 ? .c16 : n >= 8 ? .c8 : .none
        }
        // Bracketed paste: the terminal wraps pastes in ESC[200~ … ESC[201~, defined as keys here.
        if mouse {
            // Off by default: with it on, the terminal's own text selection needs Shift.
            mousemask(pd_button1_pressed() | pd_button4_pressed() | pd_button5_pressed(), nil)
            mouseinterval(0)
        }
        define_key("\u{1b}[200~", Self.pasteStart)
        define_key("\u{1b}[201~", Self.pasteEnd)
        Self.defineAlternateKeys()
        TerminalRestore.write(Self.bracketedPasteOn)
    }

    /// The locale's character set, upper case without dashes (`UTF8`, `ANSI_X3.41968`).
    private static func codeset() -> String {
        String(cString: nl_langinfo(nl_item(CODESET))).uppercased().filter { $0 != "-" }
    }

    /// The POSIX locale (no LANG, as over an SSH login that does not pass the client's) has
    /// only ASCII: curses would drop every other key typed without a word (` 東京` typed
    /// kept the space). Terminals send UTF-8, so the characters are read as UTF-8 (C.UTF-8's
    /// character handling; drawing stays ASCII, as the locale asks). A system without
    /// C.UTF-8 gets a note saying how to set the locale. Another non-UTF-8 locale (Latin-1)
    /// is the terminal's own and stays as it is.
    private static func readUTF8InThePOSIXLocale() -> String? {
        guard codeset() == "ANSI_X3.41968" else { return nil }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            if codeset() == "UTF8" { return nil }
        }
        setlocale(LC_CTYPE, "")
        return
            "The locale is not UTF-8 (LANG is not set): keys outside ASCII cannot be read; set LANG=C.UTF-8 and start again."
    }

    /// TERM names a terminal that cannot move the cursor (`dumb`, a hardcopy terminal):
    /// drawing there would print a stream of garbage, so the console refuses to start.
    nonisolated static func cannotAddress(term: String) -> String {
        "TERM=\(Sanitize.string(term)) cannot move the cursor, so the console cannot draw on it; run it in a full-screen terminal (e.g. TERM=xterm-256color, tmux, screen), or use `pushdesk list` / `pushdesk validate`"
    }

    /// Restores the terminal. Safe to call more than once; the signal handlers use the same path.
    public func stop() {
        guard screen != nil else { return }
        TerminalRestore.restore()
        delscreen(screen)
        screen = nil
    }

    public var size: (width: Int, height: Int) { (Int(pd_getmaxx(pd_stdscr())), Int(pd_getmaxy(pd_stdscr()))) }

    // MARK: colours

    /// Builds the colour pairs of a theme for this terminal's colour depth.
    public func apply(theme: Theme) {
        styles = RoleTable()
        // One pair per colour combination: roles that look alike (a list's rows and the plain
        // screen) share theirs, so their blanks are the erased window's (below).
        var pairs: [Int: Int16] = [:]
        for role in Role.allCases {
            let st = theme.style(role)
            var attrs = pd_a_normal()
            if st.bold { attrs |= pd_a_bold() }
            if st.underline { attrs |= pd_a_underline() }
            if st.reverse { attrs |= pd_a_reverse() }
            if st.dim { attrs |= pd_a_dim() }
            var pair: Int16 = 0
            if colorMode != .none {
                var fg = st.fg
                var bg = st.bg
                if colorMode != .c256 {
                    fg = st.fg16
                    bg = st.bg16
                }
                if colorMode == .c8 {
                    // Bright colours on 8-colour terminals: the base colour, bold for the foreground.
                    if fg >= 8 {
                        fg -= 8
                        attrs |= pd_a_bold()
                    }
                    if bg >= 8 { bg -= 8 }
                }
                let key = (fg + 1) << 16 | (bg + 1)
                if let known = pairs[key] {
                    pair = known
                } else {
                    pair = Int16(pairs.count + 1)
                    pairs[key] = pair
                    init_pair(pair, Int16(fg), Int16(bg))
                }
            }
            styles[role] = (pair, attrs)
        }
        // The window's background is the plain screen's colour (not its attributes, which
        // curses would add to every character), so an erased window already holds the blank
        // cells that most of a frame is made of.
        blank = styles[.normal].map { (pair: $0.pair, attrs: pd_a_normal()) } ?? (0, pd_a_normal())
        wbkgdset(pd_stdscr(), chtype(pd_color_pair(Int32(blank.pair))) | chtype(UInt8(ascii: " ")))
        previous = nil  // every cell's colours may have changed
    }

    // MARK: output

    /// Bytes of the last frames are measured by the benchmark, not here; this writes
    /// only cells that differ from the previous frame into curses' virtual screen.
    public func present(_ buf: CellBuffer, fullRedraw: Bool = false) {
        let win = pd_stdscr()
        let same = !fullRedraw && previous?.width == buf.width && previous?.height == buf.height
        if fullRedraw { clearok(win, true) }
        if !same { werase(win) }
        var cc = cchar_t()
        // Neighbouring cells mostly share a role: look its style up once per run.
        var lastRole: Role?
        var st: (pair: Int16, attrs: attr_t) = (0, pd_a_normal())
        for y in 0..<buf.height {
            for x in 0..<buf.width {
                let cell = buf[x, y]
                if cell.isContinuation { continue }
                if same, let p = previous, p[x, y] == cell,
                    !(x + 1 < buf.width && p[x + 1, y] != buf[x + 1, y] && cell.width == 2)
                {
                    continue
                }
                if cell.role != lastRole {
                    st = styles[cell.role] ?? (0, pd_a_normal())
                    lastRole = cell.role
                }
                // After an erase, a blank in the background's style is already there.
                if !same && st == blank && cell.text == " " { continue }
                var text = cell.text
                if !utf8 {
                    // One ASCII character per column, so a wide glyph becomes two cells.
                    text = Self.ascii(text, width: Int(cell.width))
                    if text.count == 2 {
                        for (i, ch) in text.enumerated() {
                            let w: [wchar_t] = [wchar_t(ch.asciiValue ?? 63), 0]
                            setcchar(&cc, w, st.attrs, st.pair, nil)
                            mvwadd_wch(win, Int32(y), Int32(x + i), &cc)
                        }
                        continue
                    }
                }
                Self.setCell(&cc, text, st.attrs, st.pair)
                mvwadd_wch(win, Int32(y), Int32(x), &cc)
            }
        }
        if let c = buf.cursor {
            if !cursorVisible {
                curs_set(1)
                cursorVisible = true
            }
            wmove(win, Int32(c.y), Int32(c.x))
        } else if cursorVisible {
            curs_set(0)
            cursorVisible = false
        }
        wnoutrefresh(win)
        if !resumed {
            // ncurses flushes after every cursor move until the screen has once been
            // suspended and resumed (its `_endwin` stays "initial" after newterm), so each row
            // of every frame went out in its own write: one SSH packet per row. Suspended just
            // before the first frame, this `doupdate` resumes it and draws the frame whole, in
            // one write as every later frame (two past its buffer); no blank screen is drawn
            // first. The tty is in shell mode only between these two calls.
            endwin()
            resumed = true
        }
        doupdate()
        previous = buf
    }

    /// A cell's text as curses' wide character: at most CCHARW_MAX (5) scalars and a
    /// terminating 0, without a heap array per cell. Not isolated: a closure inside the
    /// actor-isolated `present` cost a run-time executor check per cell.
    private nonisolated static func setCell(_ cc: inout cchar_t, _ text: String, _ attrs: attr_t, _ pair: Int16) {
        var w: (wchar_t, wchar_t, wchar_t, wchar_t, wchar_t, wchar_t) = (32, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &w) { raw in
            let wp = raw.bindMemory(to: wchar_t.self)
            var n = 0
            for u in text.unicodeScalars {
                if n == min(Int(CCHARW_MAX), 5) { break }
                wp[n] = wchar_t(bitPattern: u.value)
                n += 1
            }
            if n == 0 { n = 1 }
            wp[n] = 0
            setcchar(&cc, wp.baseAddress, attrs, pair, nil)
        }
    }

    /// ASCII stand-ins for a non-UTF-8 locale: known symbols map to look-alikes, any other
    /// non-ASCII glyph to `?` (one per column, so columns still line up).
    static func ascii(_ text: String, width: Int) -> String {
        if text.allSatisfy(\.isASCII) { return text }
        let map: [String: String] = [
            "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "‹": "<", "›": ">",
            "•": "*", "…": "~", "↳": ">", "·": ".", "—": "-", "↑": "^", "↓": "v", "←": "<", "→": ">",
            "█": "#", "░": ".",
        ]
        if let m = map[text] { return m }
        // Accented Latin keeps its base letter (Café → Cafe), so labels stay readable.
        if width == 1, let base = text.decomposedStringWithCanonicalMapping.unicodeScalars.first, base.isASCII,
            base.value >= 0x20
        {
            return String(base)
        }
        return String(repeating: "?", count: max(1, width))
    }

    // MARK: input

    public enum Input: Equatable, Sendable {
        case key(Key)
        /// Nothing within the timeout, or a stop signal interrupted the wait.
        case idle
        /// The terminal is gone (hang-up): nothing more can be read or shown.
        case closed
    }

    /// Waits up to `timeoutMs` (-1: without limit) for the next key, asleep until one
    /// comes, a signal or a resize arrives or a job posts (`pd_wait`: the wake pipe beside
    /// standard input), never polling. `.idle` when woken without a key.
    public func nextInput(timeoutMs: Int32) -> Input {
        if pd_stop_signal_received() != 0 { return .idle }
        // A key curses already holds (typed ahead, put back, a resize) needs no wait.
        if let k = readWaiting(0) { return k }
        let woke = pd_wait(0, timeoutMs)
        if pd_stop_signal_received() != 0 { return .idle }
        if pd_fd_hung_up(0) != 0 { return .closed }
        guard woke & 1 != 0 else {
            // A signal (a resize: curses then answers KEY_RESIZE), a job, or the time ran out.
            return readWaiting(0) ?? .idle
        }
        // Input is there: the rest of a key's bytes follow at once.
        if let k = readWaiting(100) {
            unreadable = 0
            return k
        }
        // Readable but no key, again and again: the terminal is gone.
        unreadable += 1
        return unreadable > 50 ? .closed : .idle
    }

    /// Reads without polling, waiting at most `ms` for the bytes of a key; nil when none.
    private func readWaiting(_ ms: Int32) -> Input? {
        wtimeout(pd_stdscr(), ms)
        var wch: wint_t = 0
        let r = wget_wch(pd_stdscr(), &wch)
        return r == ERR ? nil : .key(decode(r, wch))
    }

    /// Sequences terminals send for the same keys in their other modes (and what tmux,
    /// screen or a mismatched TERM send): taught to ncurses when the terminfo entry lacks them,
    /// so End under `TERM=xterm` in tmux (ESC [ 4 ~) is End, not Esc followed by `[4~` typed.
    private static func defineAlternateKeys() {
        let alternates: [(String, Int32)] = [
            ("[A", KEY_UP), ("[B", KEY_DOWN), ("[C", KEY_RIGHT), ("[D", KEY_LEFT),
            ("OA", KEY_UP), ("OB", KEY_DOWN), ("OC", KEY_RIGHT), ("OD", KEY_LEFT),
            ("[H", KEY_HOME), ("OH", KEY_HOME), ("[1~", KEY_HOME), ("[7~", KEY_HOME),
            ("[F", KEY_END), ("OF", KEY_END), ("[4~", KEY_END), ("[8~", KEY_END),
            ("[3~", KEY_DC), ("[5~", KEY_PPAGE), ("[6~", KEY_NPAGE), ("[Z", KEY_BTAB),
            ("OP", pd_key_f(1)), ("OQ", pd_key_f(2)), ("OR", pd_key_f(3)), ("OS", pd_key_f(4)),
            ("[11~", pd_key_f(1)), ("[12~", pd_key_f(2)), ("[13~", pd_key_f(3)), ("[14~", pd_key_f(4)),
            ("[15~", pd_key_f(5)), ("[17~", pd_key_f(6)), ("[18~", pd_key_f(7)), ("[19~", pd_key_f(8)),
            ("[20~", pd_key_f(9)), ("[21~", pd_key_f(10)), ("[23~", pd_key_f(11)), ("[24~", pd_key_f(12)),
        ]
        for (tail, code) in alternates where key_defined("\u{1b}" + tail) == 0 {
            define_key("\u{1b}" + tail, code)
        }
    }

    /// After an Esc, bytes already waiting that form a CSI or SS3 sequence (ESC [ … final, ESC O x)
    /// are one key ncurses does not know: swallowed whole, so none of it is typed as text.
    /// A person cannot type Esc and then `[` within the same read, so a real Esc is unaffected.
    private func swallowUnknownSequence() -> Bool {
        var wch: wint_t = 0
        wtimeout(pd_stdscr(), 0)
        defer { wtimeout(pd_stdscr(), -1) }
        let r = wget_wch(pd_stdscr(), &wch)
        guard r == OK, wch == 0x5B || wch == 0x4F else {
            // Not a sequence: the key read stays for the next read.
            if r == KEY_CODE_YES { ungetch(Int32(wch)) } else if r == OK { unget_wch(wchar_t(wch)) }
            return false
        }
        if wch == 0x4F {
            _ = wget_wch(pd_stdscr(), &wch)
            return true
        }  // SS3: one final byte
        // CSI: parameter and intermediate bytes (0x20–0x3F), then one final byte (0x40–0x7E).
        for _ in 0..<32 {
            guard wget_wch(pd_stdscr(), &wch) == OK else { break }
            if (0x40...0x7E).contains(wch) { break }
        }
        return true
    }

    private func decode(_ r: Int32, _ wch: wint_t) -> Key {
        if r == KEY_CODE_YES {
            let code = Int32(wch)
            if code == Self.pasteStart { return readPaste() }
            if code == KEY_MOUSE {
                var ev = MEVENT()
                guard getmouse(&ev) == OK else { return .ignored }
                if ev.bstate & pd_button4_pressed() != 0 { return .wheelUp }
                if ev.bstate & pd_button5_pressed() != 0 { return .wheelDown }
                if ev.bstate & pd_button1_pressed() != 0 { return .click(x: Int(ev.x), y: Int(ev.y)) }
                return .ignored
            }
            return Self.functionKey(code) ?? .ignored
        }
        if wch == 27, swallowUnknownSequence() { return .ignored }
        return Self.plainKey(UInt32(wch)) ?? .ignored
    }

    /// A stop signal received (SIGHUP, SIGTERM, SIGINT), 0 when none.
    public nonisolated static var stopSignal: Int32 { pd_stop_signal_received() }

    /// True when the terminal has hung up: nothing may be written to it any more.
    public nonisolated static var isHungUp: Bool { pd_fd_hung_up(0) != 0 || pd_fd_hung_up(1) != 0 }

    /// Leaves a terminal that has hung up without writing to it (restoring it would only
    /// write into a dead connection, which can block or fail).
    public func abandon() {
        TerminalRestore.active = false
        screen = nil
    }

    /// Reads up to the end-of-paste marker: the whole paste becomes one `.paste` key.
    private func readPaste() -> Key {
        var text = ""
        var wch: wint_t = 0
        // A terminal that never sends the end marker must not freeze the console.
        wtimeout(pd_stdscr(), 500)
        defer { wtimeout(pd_stdscr(), -1) }
        while true {
            let r = wget_wch(pd_stdscr(), &wch)
            if r == ERR { break }
            if r == KEY_CODE_YES {
                if Int32(wch) == Self.pasteEnd { break }
                continue
            }
            let v = UInt32(wch)
            if v == 13 { text += "\n" } else if let s = Unicode.Scalar(v) { text.unicodeScalars.append(s) }
        }
        return .paste(text)
    }

    nonisolated static func plainKey(_ v: UInt32) -> Key? {
        switch v {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .ctrl(Character(Unicode.Scalar(v + 96)!))
        case 0, 28...31: return nil
        default: return Unicode.Scalar(v).map { .char(Character($0)) }
        }
    }

    nonisolated static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize
        default:
            for n in 1...12 where code == pd_key_f(Int32(n)) { return .f(n) }
            return nil
        }
    }
}

public struct TerminalError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Restoring the terminal from anywhere, signal handlers included: end curses, turn
/// bracketed paste off, show the cursor. Guarded so it runs once per start.
enum TerminalRestore {
    nonisolated(unsafe) static var active = false

    static func install() {
        active = true
        // SIGHUP, SIGTERM, SIGINT stop the loop, which saves the drafts to the recovery file
        // and then restores the terminal (unless it hung up): see pd_catch_stop_signal.
        for sig in [SIGINT, SIGTERM, SIGHUP] { pd_catch_stop_signal(sig) }
        signal(SIGQUIT) { s in
            TerminalRestore.restore()
            _exit(128 + s)
        }
        // A crash (Swift traps raise SIGILL/SIGTRAP) must not leave the terminal raw either.
        for sig in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] {
            signal(sig) { s in
                TerminalRestore.restore()
                signal(s, SIG_DFL)
                raise(s)
            }
        }
    }

    static func restore() {
        guard active else { return }
        active = false
        write(Terminal.bracketedPasteOff)
        curs_set(1)
        endwin()
    }

    static func write(_ s: String) {
        var bytes = Array(s.utf8)
        _ = Foundation.write(1, &bytes, bytes.count)
    }
}
