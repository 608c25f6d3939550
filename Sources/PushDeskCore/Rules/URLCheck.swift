/// A byte scan that recognises the URLs stores actually hold — `http` or `https`, `://`, a
/// host name of letters, digits, `-` and `.`, an optional port, then a path, query and
/// fragment made only of RFC 3986's unreserved characters, sub-delimiters and `:@/?#`
/// (`#` once, no `%`) — without Foundation's general parser. Every URL it accepts is one
/// `URLComponents` parses with that scheme and a non-empty host (`URLCheckTests` compares
/// the two on thousands of strings); anything else, valid or not, is left to
/// `URLComponents`, which also words the problem.
enum URLCheck {
    static func isPlainHTTPURL(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isPlainHTTPURL($0) }
    }

    static func isPlainHTTPURL(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        func lower(_ c: UInt8) -> UInt8 { c | 0x20 }
        // Scheme: http or https, any case.
        guard b.count > 7, lower(b[0]) == 0x68, lower(b[1]) == 0x74, lower(b[2]) == 0x74, lower(b[3]) == 0x70 else {
            return false
        }
        i = 4
        if lower(b[i]) == 0x73 { i += 1 }
        guard i + 3 <= b.count, b[i] == 0x3A, b[i + 1] == 0x2F, b[i + 2] == 0x2F else { return false }
        i += 3
        // Host: one or more of A–Z a–z 0–9 - .
        let hostStart = i
        while i < b.count, isHostByte(b[i]) { i += 1 }
        guard i > hostStart else { return false }
        // Port: `:` and one to five digits.
        if i < b.count, b[i] == 0x3A {
            i += 1
            let portStart = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            guard i > portStart, i - portStart <= 5 else { return false }
        }
        guard i == b.count || b[i] == 0x2F || b[i] == 0x3F || b[i] == 0x23 else { return false }
        // Path, query, fragment.
        var fragment = false
        while i < b.count {
            let c = b[i]
            if c == 0x23 {
                if fragment { return false }
                fragment = true
            } else if !isRestByte(c) {
                return false
            }
            i += 1
        }
        return true
    }

    private static func isAlphanumeric(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    private static func isHostByte(_ c: UInt8) -> Bool { isAlphanumeric(c) || c == 0x2D || c == 0x2E }

    /// unreserved (- . _ ~), sub-delims (! $ & ' ( ) * + , ; =), : @ / ?
    private static func isRestByte(_ c: UInt8) -> Bool {
        if isAlphanumeric(c) { return true }
        switch c {
        case 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x3A, 0x40, 0x2F,
            0x3F:
            return true
        default:
            return false
        }
    }
}
