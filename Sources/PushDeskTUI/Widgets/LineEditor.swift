/// The one line editor of the one-line text fields and the multi-line body: the editing
/// actions of the key registry's text-field bindings (`KeyContext.textField`), applied to
/// characters and a cursor. A line ends at a line break or at an end of the text, so in a
/// one-line field the line is the whole value.
enum LineEditor {
    /// Applies an editing action; false when `action` is none.
    static func apply(_ action: Action, to chars: inout [Character], cursor: inout Int) -> Bool {
        switch action {
        case .cursorLeft: cursor = max(0, cursor - 1)
        case .cursorRight: cursor = min(chars.count, cursor + 1)
        case .lineStart: cursor = lineStart(chars, cursor)
        case .lineEnd: cursor = lineEnd(chars, cursor)
        case .deleteBack:
            guard cursor > 0 else { return true }
            chars.remove(at: cursor - 1)
            cursor -= 1
        case .deleteForward:
            guard cursor < chars.count else { return true }
            chars.remove(at: cursor)
        case .deleteWord:
            // The word before the cursor and the spaces before it; never past a line start.
            var i = cursor
            while i > 0, chars[i - 1] == " " { i -= 1 }
            while i > 0, chars[i - 1] != " ", chars[i - 1] != "\n" { i -= 1 }
            if i == cursor, i > 0 { i -= 1 }  // at a line start: join with the line above
            chars.removeSubrange(i..<cursor)
            cursor = i
        case .deleteToStart:
            let s = lineStart(chars, cursor)
            chars.removeSubrange(s..<cursor)
            cursor = s
        case .deleteToEnd:
            // To the end of the line; at its end, join the next line (as in Emacs).
            let e = lineEnd(chars, cursor)
            chars.removeSubrange(cursor..<(e == cursor ? min(chars.count, e + 1) : e))
        default: return false
        }
        return true
    }

    /// Inserts text at the cursor; `multiline: false` turns line breaks into spaces (a
    /// pasted newline never submits a one-line field), `true` makes each one `\n`.
    static func insert(_ text: String, into chars: inout [Character], cursor: inout Int, multiline: Bool) {
        let clean = text.map { c -> Character in
            guard c == "\n" || c == "\r" || c == "\r\n" else { return c }
            return multiline ? "\n" : " "
        }
        chars.insert(contentsOf: clean, at: cursor)
        cursor += clean.count
    }

    static func lineStart(_ chars: [Character], _ pos: Int) -> Int {
        var i = pos
        while i > 0, chars[i - 1] != "\n" { i -= 1 }
        return i
    }

    static func lineEnd(_ chars: [Character], _ pos: Int) -> Int {
        var i = pos
        while i < chars.count, chars[i] != "\n" { i += 1 }
        return i
    }
}
