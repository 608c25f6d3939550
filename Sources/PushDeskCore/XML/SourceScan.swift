import Foundation

/// Byte-level checks and positions that the XML parser does not give precisely:
/// encoding, forbidden constructs, and the byte offset of each start tag.
///
/// These run over every byte of every file the store loads, so they search with `memchr`
/// and walk raw buffers: a store of thousands of files is scanned in a few milliseconds.
struct SourceScan {
    let text: SourceText
    var bytes: [UInt8] { text.bytes }
    /// Byte offsets of each element's `<`, in document order.
    private(set) var elementStarts: [Int] = []

    init(_ text: SourceText) { self.text = text }

    /// 1-based line and column (in characters) of a byte offset.
    func position(ofByte offset: Int) -> (line: Int, column: Int) { text.position(ofByte: offset) }

    /// A position the parser reported, moved inside the file: libxml2 may report a column
    /// past the end of its line (a broken XML declaration) or a line past the last one, and
    /// an error must point at a place the operator can find. Found by the XML fuzzer.
    func clamped(line: Int, column: Int) -> (line: Int, column: Int) {
        let lineStarts = text.lineStarts
        let l = min(max(line, 1), lineStarts.count)
        let end = l < lineStarts.count ? lineStarts[l] - 1 : bytes.count
        return (l, min(max(column, 1), position(ofByte: end).column))
    }

    private static let doctypeBytes = Array("<!DOCTYPE".utf8)

    /// True when `pattern` stands at byte `k` (no allocation: this runs once per `<`).
    func matches(_ pattern: [UInt8], at k: Int) -> Bool {
        let bytes = text.bytes
        guard k + pattern.count <= bytes.count else { return false }
        for j in 0..<pattern.count where bytes[k + j] != pattern[j] { return false }
        return true
    }

    /// The first problem that must stop parsing before the XML parser sees the file:
    /// a non-UTF-8 encoding, invalid UTF-8, a NUL byte, or a DTD — the one nearest the
    /// start when there are several.
    func precheck() -> (offset: Int, message: String)? {
        let bytes = text.bytes
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return (0, "the file is UTF-16; PushDesk files are UTF-8: convert it (e.g. `iconv -f UTF-16 -t UTF-8`)")
        }
        if let bad = Self.declaredEncoding(bytes) { return bad }
        return bytes.withUnsafeBufferPointer { b -> (offset: Int, message: String)? in
            guard let base = b.baseAddress, b.count > 0 else { return nil }
            let n = b.count
            var found: (offset: Int, message: String)?
            if let p = memchr(base, 0, n) {
                found = (
                    UnsafeRawPointer(p) - UnsafeRawPointer(base),
                    "NUL byte in the file; remove it (the file may be binary or corrupted)"
                )
            }
            let limit = found?.offset ?? n
            var i = 0
            while i < limit, let p = memchr(base + i, 0x3C, limit - i) {
                let k = UnsafeRawPointer(p) - UnsafeRawPointer(base)
                if Self.match(b, Self.doctypeBytes, at: k) {
                    found = (
                        k,
                        "a DTD (<!DOCTYPE …>) is not allowed: its entities could read other files or expand without bound; remove the declaration"
                    )
                    break
                }
                i = k + 1
            }
            if let bad = Self.invalidUTF8(b, before: found?.offset ?? n) { found = bad }
            return found
        }
    }

    /// Encodings a file may declare: UTF-8 and its subset US-ASCII, the bytes PushDesk checks.
    /// libxml2 would honour any other (UTF-7 turns `+ADw-!DOCTYPE` into a DTD the byte scan
    /// cannot see, and changes text), so another name is refused at its position.
    static let acceptedEncodings: Set<String> = ["utf-8", "us-ascii", "ascii"]

    /// The encoding named in the XML declaration, when it is not one PushDesk reads.
    static func declaredEncoding(_ bytes: [UInt8]) -> (offset: Int, message: String)? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let head = bytes.prefix(512)
        guard let end = (0..<max(0, head.count - 1)).first(where: { head[$0] == 0x3F && head[$0 + 1] == 0x3E }) else {
            return nil
        }
        let decl = Array(head[0..<end])
        let key = Array("encoding".utf8)
        guard let k = (0..<max(0, decl.count - key.count)).first(where: { Array(decl[$0..<$0 + key.count]) == key })
        else { return nil }
        var i = k + key.count
        while i < decl.count, [0x20, 0x09, 0x0A, 0x0D, 0x3D].contains(decl[i]) { i += 1 }
        guard i < decl.count, decl[i] == 0x22 || decl[i] == 0x27 else { return nil }
        let quote = decl[i]
        let start = i + 1
        guard let close = decl[start...].firstIndex(of: quote) else { return nil }
        let name = String(decoding: decl[start..<close], as: UTF8.self)
        guard !acceptedEncodings.contains(name.lowercased()) else { return nil }
        return (
            start,
            "the file declares encoding=\"\(Escape.inline(name, limit: 40))\"; PushDesk files are UTF-8: convert the file (e.g. `iconv -f \(Escape.inline(name, limit: 40)) -t UTF-8`) and declare encoding=\"UTF-8\""
        )
    }

    /// The first invalid UTF-8 sequence that starts before `limit`. ASCII is skipped eight
    /// bytes at a time; only bytes ≥ 0x80 are decoded.
    private static func invalidUTF8(_ b: UnsafeBufferPointer<UInt8>, before limit: Int) -> (
        offset: Int, message: String
    )? {
        let n = b.count
        var i = 0
        while i < limit {
            if i + 8 <= n {
                let word = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let len: Int
            if c & 0xE0 == 0xC0, c >= 0xC2 {
                len = 2
            } else if c & 0xF0 == 0xE0 {
                len = 3
            } else if c & 0xF8 == 0xF0, c <= 0xF4 {
                len = 4
            } else {
                return (i, String(format: "invalid UTF-8 byte 0x%02X; save the file as UTF-8", c))
            }
            guard i + len <= n else {
                return (i, "invalid UTF-8: the file ends inside a character; save the file as UTF-8")
            }
            for k in 1..<len where b[i + k] & 0xC0 != 0x80 {
                return (
                    i, String(format: "invalid UTF-8 sequence starting with byte 0x%02X; save the file as UTF-8", c)
                )
            }
            // Overlong 3-byte forms, UTF-16 surrogates and values above U+10FFFF are not UTF-8.
            if len == 3 {
                let v = (Int(c & 0x0F) << 12) | (Int(b[i + 1] & 0x3F) << 6) | Int(b[i + 2] & 0x3F)
                if v < 0x800 || (0xD800...0xDFFF).contains(v) {
                    return (i, "invalid UTF-8 (an overlong form or a UTF-16 surrogate); save the file as UTF-8")
                }
            } else if len == 4 {
                let v =
                    (Int(c & 0x07) << 18) | (Int(b[i + 1] & 0x3F) << 12)
                    | (Int(b[i + 2] & 0x3F) << 6) | Int(b[i + 3] & 0x3F)
                if v < 0x10000 || v > 0x10FFFF {
                    return (i, "invalid UTF-8 (a value outside Unicode); save the file as UTF-8")
                }
            }
            i += len
        }
        return nil
    }

    static func match(_ b: UnsafeBufferPointer<UInt8>, _ pattern: [UInt8], at k: Int) -> Bool {
        guard k + pattern.count <= b.count else { return false }
        for j in 0..<pattern.count where b[k + j] != pattern[j] { return false }
        return true
    }

    /// Offset just past the first `end` at or after `k`, or the end of the buffer.
    static func skip(_ b: UnsafeBufferPointer<UInt8>, past end: [UInt8], from k: Int) -> Int {
        var j = k
        while j + end.count <= b.count, let p = memchr(b.baseAddress! + j, Int32(end[0]), b.count - j) {
            let at = UnsafeRawPointer(p) - UnsafeRawPointer(b.baseAddress!)
            if match(b, end, at: at) { return at + end.count }
            j = at + 1
        }
        return b.count
    }

    static let commentStart = Array("<!--".utf8), commentEnd = Array("-->".utf8)
    static let cdataStart = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
    static let piStart = Array("<?".utf8), piEnd = Array("?>".utf8)

    /// Offsets of element start tags, skipping comments, CDATA sections and processing
    /// instructions. `<` cannot occur inside attribute values in well-formed XML, so every
    /// other `<` followed by a name character opens an element.
    mutating func findElementStarts() {
        var starts: [Int] = []
        text.bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return }
            let n = b.count
            var i = 0
            while i < n, let p = memchr(base + i, 0x3C, n - i) {
                i = UnsafeRawPointer(p) - UnsafeRawPointer(base)
                if i + 1 < n, b[i + 1] == 0x21 || b[i + 1] == 0x3F {
                    if Self.match(b, Self.commentStart, at: i) {
                        i = Self.skip(b, past: Self.commentEnd, from: i + 4)
                        continue
                    }
                    if Self.match(b, Self.cdataStart, at: i) {
                        i = Self.skip(b, past: Self.cdataEnd, from: i + 9)
                        continue
                    }
                    if Self.match(b, Self.piStart, at: i) {
                        i = Self.skip(b, past: Self.piEnd, from: i + 2)
                        continue
                    }
                }
                if i + 1 < n, b[i + 1] != 0x2F, b[i + 1] != 0x21 { starts.append(i) }
                i += 1
            }
        }
        elementStarts = starts
    }

    /// The first start tag with more than `limit` attributes (namespace declarations
    /// included): where it starts, its name and how many it has. The XML parser compares each
    /// attribute of a tag with every earlier one (libxml2 2.9), so such a tag is refused
    /// before it is parsed. A tag ends at its `>` or at the next `<` (where the parser ends
    /// it too), and only a stretch between two start tags long enough to hold more than
    /// `limit` attributes (at least 4 bytes each: `a=""`) is read, so a real file costs no
    /// more than a comparison per element. Needs `findElementStarts()`.
    func crowdedStartTag(limit: Int, cost: ParseCost? = nil) -> (offset: Int, name: String, count: Int)? {
        text.bytes.withUnsafeBufferPointer { b -> (offset: Int, name: String, count: Int)? in
            let n = b.count
            for (k, start) in elementStarts.enumerated() {
                let next = k + 1 < elementStarts.count ? elementStarts[k + 1] : n
                guard next - start > 4 * limit else { continue }
                var count = 0
                var quote: UInt8 = 0
                var i = start + 1
                scan: while i < n {
                    let c = b[i]
                    if c == 0x3C { break }
                    if quote != 0 {
                        if c == quote { quote = 0 }
                    } else {
                        switch c {
                        case 0x22, 0x27: quote = c
                        case 0x3D: count += 1
                        case 0x3E: break scan
                        default: break
                        }
                    }
                    i += 1
                }
                cost?.scannedBytes += i - start
                if count > limit {
                    var end = start + 1
                    while end < n, end - start <= 100, ![0x20, 0x09, 0x0A, 0x0D, 0x2F, 0x3E].contains(b[end]) {
                        end += 1
                    }
                    return (start, String(decoding: b[start + 1..<end], as: UTF8.self), count)
                }
            }
            return nil
        }
    }
}
