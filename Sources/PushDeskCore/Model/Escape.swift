/// Makes untrusted text safe to show on one line: control characters become visible
/// escapes (`\n`, `\t`, `\u{1B}`) so a file can never drive the terminal.
public enum Escape {
    public static func inline(_ text: String, limit: Int = 80) -> String {
        var out = ""
        var count = 0
        for s in text.unicodeScalars {
            if count >= limit { out += "…"; break }
            switch s {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case let c where c.value < 0x20 || c.value == 0x7F || (0x80...0x9F).contains(c.value):
                out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(s)
            }
            count += 1
        }
        return out
    }
}
