/// Text from files is untrusted: control characters must never reach the terminal raw
/// (an ESC in a label could move the cursor or retitle the window). They are shown
/// escaped instead: C0 as caret notation (`^[`, `^I`), DEL as `^?`, C1 and bidi
/// overrides as `\u{…}`.
public enum Sanitize {
    /// One glyph as it will occupy the screen: the text of a cell and its width.
    public struct Glyph: Equatable, Sendable {
        public var text: String
        public var width: Int
        public var escaped: Bool
    }

    static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
    }

    /// The escaped form of a control scalar, nil when the scalar is safe to show.
    public static func escape(_ s: Unicode.Scalar) -> String? {
        let v = s.value
        if v < 0x20 { return "^" + String(UnicodeScalar(UInt8(v + 0x40))) }
        if v == 0x7F { return "^?" }
        if (0x80...0x9F).contains(v) || isBidiControl(v) || v == 0x2028 || v == 0x2029 {
            return "\\u{" + String(v, radix: 16, uppercase: true) + "}"
        }
        return nil
    }

    /// Splits text into glyphs, escaping control characters (each escape char is a glyph).
    public static func glyphs(_ text: String) -> [Glyph] {
        var out: [Glyph] = []
        out.reserveCapacity(text.utf8.count)
        for c in text {
            if c.isASCII, let a = c.asciiValue, a >= 0x20, a != 0x7F {
                out.append(Glyph(text: String(c), width: 1, escaped: false)); continue
            }
            let scalars = c.unicodeScalars
            if scalars.contains(where: { escape($0) != nil }) {
                for s in scalars {
                    if let e = escape(s) {
                        for ch in e { out.append(Glyph(text: String(ch), width: 1, escaped: true)) }
                    } else {
                        let w = TextWidth.width(of: s)
                        if w > 0 { out.append(Glyph(text: String(s), width: w, escaped: false)) }
                    }
                }
                continue
            }
            let w = TextWidth.width(of: c)
            if w > 0 { out.append(Glyph(text: String(c), width: w, escaped: false)) }
        }
        return out
    }

    /// The text with every control character replaced by its escape, for one-line output.
    public static func string(_ text: String) -> String { glyphs(text).map(\.text).joined() }
}
