/// Display width of text in terminal columns, from a width table (not `wcwidth`, whose
/// answer depends on the C library and locale): East Asian wide and fullwidth characters
/// and emoji take 2 columns, combining marks and zero-width characters 0, the rest 1.
public enum TextWidth {
    /// Ranges of scalars (first, last) that take two columns (East Asian Wide/Fullwidth,
    /// emoji presentation). Pairs rather than `ClosedRange`s: no generic metadata to build
    /// at the console's start.
    static let wide: [(UInt32, UInt32)] = [
        (0x1100, 0x115F), (0x231A, 0x231B), (0x2329, 0x232A), (0x23E9, 0x23EC), (0x23F0, 0x23F0),
        (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
        (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE), (0x26C4, 0x26C5),
        (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5),
        (0x26FA, 0x26FA), (0x26FD, 0x26FD), (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728),
        (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
        (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
        (0x2E80, 0x303E), (0x3041, 0x33FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA000, 0xA4CF),
        (0xA960, 0xA97F), (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE10, 0xFE19), (0xFE30, 0xFE6F),
        (0xFF00, 0xFF60), (0xFFE0, 0xFFE6), (0x16FE0, 0x16FE4), (0x17000, 0x18AFF), (0x1B000, 0x1B16F),
        (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A),
        (0x1F200, 0x1F251), (0x1F300, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F7E0, 0x1F7EB),
        (0x1F90C, 0x1F9FF), (0x1FA70, 0x1FAFF), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD),
    ]

    /// Columns taken by one scalar (0, 1 or 2). Control characters answer 1 here; they
    /// never reach the screen raw (see `Sanitize`).
    public static func width(of s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x300 { return 1 }  // fast path: ASCII and Latin
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(v) || v == 0x200B { return 0 }  // Hangul jamo medial/final, ZWSP
        var lo = 0
        var hi = wide.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if v < wide[mid].0 { hi = mid - 1 } else if v > wide[mid].1 { lo = mid + 1 } else { return 2 }
        }
        return 1
    }

    /// Columns taken by one grapheme: its first scalar's width (marks joined to it add 0),
    /// at least 1 for a grapheme that starts with a mark so that it stays visible.
    public static func width(of c: Character) -> Int {
        var it = c.unicodeScalars.makeIterator()
        guard let first = it.next() else { return 0 }
        let w = width(of: first)
        if w == 0 {
            return c.unicodeScalars.count == 1 && first.properties.generalCategory == .format ? 0 : 1
        }
        // Emoji presentation selector turns a narrow symbol wide.
        if c.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return w
    }

    /// Columns taken by text as it will be shown (control characters escaped).
    public static func width(of text: String) -> Int {
        Sanitize.glyphs(text).reduce(0) { $0 + $1.width }
    }

    /// The longest prefix of `text` that fits in `columns`, with "…" when cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        if width(of: text) <= columns { return text }
        guard columns > 0 else { return "" }
        var out = ""
        var used = 0
        for g in Sanitize.glyphs(text) {
            if used + g.width > columns - 1 { break }
            out += g.text
            used += g.width
        }
        return out + "…"
    }

    /// Splits text into lines of at most `columns`, at spaces when possible; the last
    /// allowed line ends with "…" when text remains.
    public static func wrap(_ text: String, to columns: Int, maxLines: Int = .max) -> [String] {
        guard columns > 1 else { return [] }
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let w = width(of: word)
            if used > 0 && used + 1 + w > columns {
                lines.append(line)
                line = ""
                used = 0
            }
            if w > columns {
                // A word longer than a line is cut wherever the columns end.
                var rest = word
                while width(of: rest) > columns - used {
                    let head = truncate(rest, to: columns - used + 1)
                    let cut = String(head.dropLast())
                    lines.append(line + cut)
                    line = ""
                    used = 0
                    rest = String(rest.dropFirst(cut.count))
                }
                line += rest
                used += width(of: rest)
                continue
            }
            if used > 0 {
                line += " "
                used += 1
            }
            line += word
            used += w
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = truncate(lines[maxLines - 1] + " …", to: columns)
        }
        return lines
    }

    /// Text padded with spaces (or cut) to exactly `columns`.
    public static func pad(_ text: String, to columns: Int) -> String {
        let t = truncate(text, to: columns)
        return t + String(repeating: " ", count: max(0, columns - width(of: t)))
    }
}
