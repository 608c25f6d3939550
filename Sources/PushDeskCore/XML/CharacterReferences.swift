import Foundation

/// Character references XML 1.0 forbids (`&#xD800;`, `&#1;`, `&#xFFFE;`), found before
/// the parser runs: libxml2 reports them only as "parser error 9" at the end of the file,
/// and a UTF-16 surrogate half (what a JSON `\uD800` becomes when pasted) must be refused
/// with its exact place, since no Swift String — and no valid payload — can hold one.
extension SourceScan {
    /// Offset and message of the first forbidden character reference, outside comments and CDATA.
    func characterReferenceProblem() -> (offset: Int, message: String)? {
        let bytes = text.bytes
        // Most files hold no character reference at all: one memchr pass says so.
        let hasReference = bytes.withUnsafeBufferPointer { b -> Bool in
            var i = 0
            while i < b.count, let p = memchr(b.baseAddress! + i, 0x26, b.count - i) {
                i = UnsafeRawPointer(p) - UnsafeRawPointer(b.baseAddress!)
                if i + 1 < b.count, b[i + 1] == 0x23 { return true }
                i += 1
            }
            return false
        }
        guard hasReference else { return nil }
        let n = bytes.count
        let comment = Array("<!--".utf8)
        let commentEnd = Array("-->".utf8)
        let cdata = Array("<![CDATA[".utf8)
        let cdataEnd = Array("]]>".utf8)
        var i = 0
        while i < n {
            let b = bytes[i]
            if b == 0x3C {
                if matches(comment, at: i) {
                    i = skip(past: commentEnd, from: i + comment.count)
                    continue
                }
                if matches(cdata, at: i) {
                    i = skip(past: cdataEnd, from: i + cdata.count)
                    continue
                }
            }
            guard b == 0x26, i + 2 < n, bytes[i + 1] == 0x23 else {
                i += 1
                continue
            }
            var k = i + 2
            let hex = bytes[k] == 0x78
            if hex { k += 1 }
            var value = 0
            var digits = 0
            while k < n, digits <= 8, let d = digit(bytes[k], hex: hex) {
                value = value * (hex ? 16 : 10) + d
                digits += 1
                k += 1
            }
            // Malformed references are left to the parser's own error.
            guard digits > 0, k < n, bytes[k] == 0x3B else {
                i += 1
                continue
            }
            let text = String(decoding: bytes[i...k], as: UTF8.self)
            if (0xD800...0xDFFF).contains(value) {
                return (
                    i,
                    "character reference \(text) is half of a UTF-16 surrogate pair, not a character; write the character itself or its full code point (e.g. &#x1F600; for 😀)"
                )
            }
            let allowed =
                value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
            if !allowed {
                return (
                    i,
                    "character reference \(text) is a character XML 1.0 does not allow (a control character or a non-character); remove it"
                )
            }
            i = k + 1
        }
        return nil
    }

    /// Offset just after the next `end` from `k` (the end of the file when there is none).
    func skip(past end: [UInt8], from k: Int) -> Int {
        let bytes = text.bytes
        var j = k
        while j + end.count <= bytes.count {
            if matches(end, at: j) { return j + end.count }
            j += 1
        }
        return bytes.count
    }

    private func digit(_ c: UInt8, hex: Bool) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x41...0x46 where hex: return Int(c - 0x41 + 10)
        case 0x61...0x66 where hex: return Int(c - 0x61 + 10)
        default: return nil
        }
    }
}
