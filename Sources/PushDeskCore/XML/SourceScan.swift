/// Byte-level checks and positions that the XML parser does not give precisely:
/// encoding, forbidden constructs, and the exact line:column of each start tag.
struct SourceScan {
    let bytes: [UInt8]
    /// Byte offsets of the start of each line (line 1 at index 0).
    private(set) var lineStarts: [Int] = [0]
    /// Byte offsets of each element's `<`, in document order.
    private(set) var elementStarts: [Int] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (i, b) in bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
    }

    /// 1-based line and column (in characters) of a byte offset.
    func position(ofByte offset: Int) -> (line: Int, column: Int) {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        var i = lineStarts[lo]
        while i < offset && i < bytes.count {
            // Count characters, not bytes: skip UTF-8 continuation bytes.
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (lo + 1, column)
    }

    /// A position the parser reported, moved inside the file: libxml2 may report a column
    /// past the end of its line (a broken XML declaration) or a line past the last one, and
    /// an error must point at a place the operator can find. Found by the XML fuzzer.
    func clamped(line: Int, column: Int) -> (line: Int, column: Int) {
        let l = min(max(line, 1), lineStarts.count)
        let end = l < lineStarts.count ? lineStarts[l] - 1 : bytes.count
        return (l, min(max(column, 1), position(ofByte: end).column))
    }

    private static let doctypeBytes = Array("<!DOCTYPE".utf8)
    private var doctype: [UInt8] { Self.doctypeBytes }

    /// True when `pattern` stands at byte `k` (no allocation: this runs once per `<`).
    func matches(_ pattern: [UInt8], at k: Int) -> Bool {
        guard k + pattern.count <= bytes.count else { return false }
        for j in 0..<pattern.count where bytes[k + j] != pattern[j] { return false }
        return true
    }

    /// The first problem that must stop parsing before the XML parser sees the file:
    /// a non-UTF-8 encoding, invalid UTF-8, a NUL byte, or a DTD.
    func precheck() -> (offset: Int, message: String)? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return (0, "the file is UTF-16; PushDesk files are UTF-8: convert it (e.g. `iconv -f UTF-16 -t UTF-8`)")
        }
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0 { return (i, "NUL byte in the file; remove it (the file may be binary or corrupted)") }
                if b == 0x3C, matches(doctype, at: i) {
                    return (i, "a DTD (<!DOCTYPE …>) is not allowed: its entities could read other files or expand without bound; remove the declaration")
                }
                i += 1
                continue
            }
            let len: Int
            if b & 0xE0 == 0xC0, b >= 0xC2 { len = 2 }
            else if b & 0xF0 == 0xE0 { len = 3 }
            else if b & 0xF8 == 0xF0, b <= 0xF4 { len = 4 }
            else { return (i, String(format: "invalid UTF-8 byte 0x%02X; save the file as UTF-8", b)) }
            guard i + len <= n else { return (i, "invalid UTF-8: the file ends inside a character; save the file as UTF-8") }
            for k in 1..<len where bytes[i + k] & 0xC0 != 0x80 {
                return (i, String(format: "invalid UTF-8 sequence starting with byte 0x%02X; save the file as UTF-8", b))
            }
            // Overlong 3-byte forms, UTF-16 surrogates and values above U+10FFFF are not UTF-8.
            if len == 3 {
                let v = (Int(b & 0x0F) << 12) | (Int(bytes[i + 1] & 0x3F) << 6) | Int(bytes[i + 2] & 0x3F)
                if v < 0x800 || (0xD800...0xDFFF).contains(v) {
                    return (i, "invalid UTF-8 (an overlong form or a UTF-16 surrogate); save the file as UTF-8")
                }
            } else if len == 4 {
                let v = (Int(b & 0x07) << 18) | (Int(bytes[i + 1] & 0x3F) << 12)
                    | (Int(bytes[i + 2] & 0x3F) << 6) | Int(bytes[i + 3] & 0x3F)
                if v < 0x10000 || v > 0x10FFFF { return (i, "invalid UTF-8 (a value outside Unicode); save the file as UTF-8") }
            }
            i += len
        }
        return nil
    }

    /// Offsets of element start tags, skipping comments, CDATA sections and processing
    /// instructions. `<` cannot occur inside attribute values in well-formed XML, so every
    /// other `<` followed by a name character opens an element.
    mutating func findElementStarts() {
        var i = 0
        let n = bytes.count
        let comment = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        let cdata = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        let pi = Array("<?".utf8), piEnd = Array("?>".utf8)
        func skip(to t: [UInt8], from k: Int) -> Int {
            var j = k
            while j + t.count <= n {
                if matches(t, at: j) { return j + t.count }
                j += 1
            }
            return n
        }
        while i < n {
            guard bytes[i] == 0x3C else { i += 1; continue }
            if i + 1 < n, bytes[i + 1] == 0x21 || bytes[i + 1] == 0x3F {
                if matches(comment, at: i) { i = skip(to: commentEnd, from: i + 4); continue }
                if matches(cdata, at: i) { i = skip(to: cdataEnd, from: i + 9); continue }
                if matches(pi, at: i) { i = skip(to: piEnd, from: i + 2); continue }
            }
            if i + 1 < n, bytes[i + 1] != 0x2F, bytes[i + 1] != 0x21 { elementStarts.append(i) }
            i += 1
        }
    }

    /// Byte offset of attribute `name` inside the start tag beginning at `tagStart`.
    func attributeOffset(_ name: String, inTagAt tagStart: Int) -> Int? {
        let u = Array(name.utf8)
        var i = tagStart + 1
        var quote: UInt8 = 0
        while i < bytes.count {
            let b = bytes[i]
            if quote != 0 { if b == quote { quote = 0 }; i += 1; continue }
            if b == 0x22 || b == 0x27 { quote = b; i += 1; continue }
            if b == 0x3E { return nil }
            let prev = bytes[i - 1]
            if (prev == 0x20 || prev == 0x0A || prev == 0x09 || prev == 0x0D),
               matches(u, at: i) {
                var j = i + u.count
                while j < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == 0x3D { return i }
            }
            i += 1
        }
        return nil
    }
}
