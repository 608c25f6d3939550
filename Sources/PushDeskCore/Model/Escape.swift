/// Makes untrusted text safe to show on one line: control characters become visible
/// escapes (`\n`, `\t`, `\u{1B}`) so a file can never drive the terminal.
public enum Escape {
    public static func inline(_ text: String, limit: Int = 80) -> String {
        // Printable ASCII within the limit is already safe (the common case: keys, tokens,
        // names): returned as it is, without a scalar-by-scalar copy.
        if text.utf8.count <= limit, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        var count = 0
        let scalars = Array(text.unicodeScalars)
        for (i, s) in scalars.enumerated() {
            if count >= limit {
                out += "…"
                break
            }
            if mustEscape(s, previous: i > 0 ? scalars[i - 1] : nil, next: i + 1 < scalars.count ? scalars[i + 1] : nil)
            {
                switch s {
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default: out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
                }
            } else {
                out.unicodeScalars.append(s)
            }
            count += 1
        }
        return out
    }

    /// Untrusted text kept as a name (a device's label from a registration): every character
    /// `mustEscape` flags left out — tab and line breaks become a space — and trimmed, so the
    /// saved name is what the operator sees, can be written to XML, and never drives a terminal.
    /// A terminal control sequence (ESC or C1 CSI/OSC with its parameters) goes whole: leaving
    /// out only its ESC would keep `[31m` in the name.
    public static func removingFlagged(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var skipUntil = 0
        for (i, s) in scalars.enumerated() {
            if i < skipUntil { continue }
            if let end = controlSequenceEnd(scalars, at: i) {
                skipUntil = end
            } else if s == "\t" || s == "\n" || s == "\r" {
                out.append(" ")
            } else if !mustEscape(
                s, previous: i > 0 ? scalars[i - 1] : nil, next: i + 1 < scalars.count ? scalars[i + 1] : nil)
            {
                out.append(s)
            }
        }
        return String(out).trimmingCharacters(in: .whitespaces)
    }

    /// The index after the control sequence starting at `i` (ECMA-48: ESC [ or CSI, parameter
    /// and intermediate bytes, one final byte; ESC ] or OSC up to BEL or ST; ESC and one
    /// character), nil when none starts there.
    static func controlSequenceEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        var j: Int
        switch s[i] {
        case "\u{1B}" where i + 1 < s.count && s[i + 1] == "[", "\u{9B}":
            j = s[i] == "\u{9B}" ? i + 1 : i + 2
            while j < s.count, (0x20...0x3F).contains(s[j].value) { j += 1 }
            return j < s.count && (0x40...0x7E).contains(s[j].value) ? j + 1 : j
        case "\u{1B}" where i + 1 < s.count && s[i + 1] == "]", "\u{9D}":
            j = s[i] == "\u{9D}" ? i + 1 : i + 2
            while j < s.count {
                if s[j] == "\u{07}" || s[j] == "\u{9C}" { return j + 1 }
                if s[j] == "\u{1B}", j + 1 < s.count, s[j + 1] == "\\" { return j + 2 }
                j += 1
            }
            return j
        case "\u{1B}" where i + 1 < s.count && (0x20...0x7E).contains(s[i + 1].value):
            return i + 2
        default:
            return nil
        }
    }

    /// A JSON document on its way to a terminal: every character `mustEscape` flags inside
    /// its strings (C1, DEL, bidi controls, invisibles; C0 is already escaped by the JSON
    /// writer) becomes a JSON `\uXXXX` escape — the same value for a JSON reader, nothing raw
    /// for the terminal. Line breaks between members are layout and stay. The bytes that are
    /// sent, counted and copied out are the compact form, never this.
    public static func json(_ document: String) -> String {
        replacingFlagged(in: document) { s in String(s).utf16.map { "\\u" + hex4(UInt32($0)) }.joined() }
    }

    /// `v` in upper-case hex, at least four digits (`000B`, `202E`, `1F3F4`): a code point in a
    /// message (`U+0007`) and the `\u` / `\U` escapes of the files PushDesk writes.
    public static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    /// An XML document (one `XMLWriter` wrote: every flagged character sits in a value) on its
    /// way to a terminal: what `mustEscape` flags becomes a character reference (`&#x9B;`), the
    /// same value for an XML reader. Line breaks between elements are layout and stay.
    public static func xml(_ document: String) -> String {
        replacingFlagged(in: document) { "&#x" + String($0.value, radix: 16, uppercase: true) + ";" }
    }

    /// A printed document with every character `mustEscape` flags replaced (line breaks are
    /// layout and stay): the one scan behind `json` and `xml`.
    private static func replacingFlagged(in document: String, with escape: (Unicode.Scalar) -> String) -> String {
        if document.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A }) { return document }
        // The text between flagged scalars is copied as bytes, run by run: a preview of 50
        // languages is half a megabyte of JSON, nearly all of it kept as it is.
        let scalars = document.unicodeScalars
        var out: [UInt8] = []
        var runStart = scalars.startIndex
        var previous: Unicode.Scalar?
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let s = scalars[i]
            let after = scalars.index(after: i)
            // Printable ASCII and line breaks are never flagged; the rest asks the rule.
            if !(s.value >= 0x20 && s.value < 0x7F) && s != "\n",
                mustEscape(s, previous: previous, next: after < scalars.endIndex ? scalars[after] : nil)
            {
                if out.isEmpty { out.reserveCapacity(document.utf8.count + 64) }
                out.append(contentsOf: document.utf8[runStart..<i])
                out.append(contentsOf: escape(s).utf8)
                runStart = after
            }
            previous = s
            i = after
        }
        if runStart == scalars.startIndex { return document }
        out.append(contentsOf: document.utf8[runStart..<scalars.endIndex])
        return String(decoding: out, as: UTF8.self)
    }

    /// The one rule for what must never reach a terminal or a message raw (the console's
    /// `Sanitize` uses it too): C0 and C1 controls and DEL (they drive the terminal);
    /// bidirectional controls (they reorder the rest of the line: `evil\u{202E}txt.exe`);
    /// line and paragraph separators; and invisible format characters (zero-width space,
    /// word joiner, BOM, soft hyphen, tag characters), which make two different names look
    /// alike. A zero-width joiner between emoji and the tag characters of a flag sequence
    /// stay: there they are part of one visible picture. `previous` and `next` are the
    /// neighbouring scalars of the same text (nil at its ends).
    public static func mustEscape(_ s: Unicode.Scalar, previous: Unicode.Scalar?, next: Unicode.Scalar?) -> Bool {
        let v = s.value
        if v < 0x20 || v == 0x7F { return true }
        if v < 0xA0 { return v >= 0x80 }
        switch v {
        case 0x200D:
            // ZWJ inside an emoji sequence (👩‍👩‍👧) joins pictures; anywhere else it hides.
            guard let p = previous, let n = next else { return true }
            return !(isEmojiPart(p) && n.value > 0x7F && n.properties.isEmoji)
        case 0xE0020...0xE007F:
            // Tag characters spell subdivision flags after U+1F3F4 (🏴󠁧󠁢󠁳󠁣󠁴󠁿); alone they smuggle text.
            guard let p = previous else { return true }
            return !(p.value == 0x1F3F4 || (0xE0020...0xE007F).contains(p.value))
        case 0x2028, 0x2029:
            return true
        default:
            return v >= 0xAD && s.properties.generalCategory == .format
        }
    }

    /// Scalars an emoji ZWJ sequence may have before a joiner: a pictograph, a skin-tone
    /// modifier or the emoji presentation selector.
    private static func isEmojiPart(_ s: Unicode.Scalar) -> Bool {
        s.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(s.value) || (s.value > 0x7F && s.properties.isEmoji)
    }
}
