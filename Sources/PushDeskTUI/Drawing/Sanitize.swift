import PushDeskCore

/// Text from files is untrusted: control characters must never reach the terminal raw
/// (an ESC in a label could move the cursor or retitle the window). They are shown
/// escaped instead: C0 as caret notation (`^[`, `^I`), DEL as `^?`, C1 controls, bidi
/// overrides and invisible format characters (zero-width space, BOM…) as `\u{…}`.
public enum Sanitize {
    /// One glyph as it will occupy the screen: the text of a cell and its width.
    public struct Glyph: Equatable, Sendable {
        public var text: String
        public var width: Int
        public var escaped: Bool
    }

    /// The escaped form of a scalar that must not reach the terminal raw (the core's one
    /// rule, `Escape.mustEscape`), nil when it is safe to show. `previous` and `next` are its
    /// neighbours in the same grapheme: they keep the joiners of emoji sequences.
    public static func escape(_ s: Unicode.Scalar, previous: Unicode.Scalar? = nil, next: Unicode.Scalar? = nil)
        -> String?
    {
        guard Escape.mustEscape(s, previous: previous, next: next) else { return nil }
        let v = s.value
        if v < 0x20 { return "^" + String(UnicodeScalar(UInt8(v + 0x40))) }
        if v == 0x7F { return "^?" }
        return "\\u{" + String(v, radix: 16, uppercase: true) + "}"
    }

    /// Splits text into glyphs, escaping control characters (each escape char is a glyph).
    public static func glyphs(_ text: String) -> [Glyph] {
        var out: [Glyph] = []
        out.reserveCapacity(text.utf8.count)
        // Printable ASCII (most labels, hints and names) is one glyph per byte: no grapheme
        // breaking, which was most of the status line's drawing.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            for b in text.utf8 { out.append(Glyph(text: String(UnicodeScalar(b)), width: 1, escaped: false)) }
            return out
        }
        for c in text {
            if c.isASCII, let a = c.asciiValue, a >= 0x20, a != 0x7F {
                out.append(Glyph(text: String(c), width: 1, escaped: false))
                continue
            }
            let scalars = Array(c.unicodeScalars)
            func escaped(_ i: Int) -> String? {
                escape(
                    scalars[i], previous: i > 0 ? scalars[i - 1] : nil,
                    next: i + 1 < scalars.count ? scalars[i + 1] : nil)
            }
            if scalars.indices.contains(where: { escaped($0) != nil }) {
                for i in scalars.indices {
                    if let e = escaped(i) {
                        for ch in e { out.append(Glyph(text: String(ch), width: 1, escaped: true)) }
                    } else {
                        let w = TextWidth.width(of: scalars[i])
                        if w > 0 { out.append(Glyph(text: String(scalars[i]), width: w, escaped: false)) }
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
