import Foundation

/// The bytes of one file, shared by its parsed elements so that they can tell their
/// line:column when asked. Line starts are found on the first question only.
final class SourceText: @unchecked Sendable {
    let bytes: [UInt8]
    private let lock = NSLock()
    private var lineStartsCache: [Int]?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Byte offsets of the start of each line (line 1 at index 0).
    var lineStarts: [Int] {
        lock.lock()
        defer { lock.unlock() }
        if let lineStartsCache { return lineStartsCache }
        var starts = [0]
        bytes.withUnsafeBufferPointer { b in
            for i in 0..<b.count where b[i] == 0x0A { starts.append(i + 1) }
        }
        lineStartsCache = starts
        return starts
    }

    /// Characters (UTF-8 lead bytes) before every `stride`-th byte: a column is counted
    /// from the nearest checkpoint, not from the start of its line, so a file of one long
    /// line (10,000 elements) costs linear time, not quadratic.
    private static let stride = 256
    private var charCheckpointsCache: [Int]?

    private var charCheckpoints: [Int] {
        lock.lock()
        defer { lock.unlock() }
        if let charCheckpointsCache { return charCheckpointsCache }
        var marks: [Int] = []
        marks.reserveCapacity(bytes.count / Self.stride + 1)
        var chars = 0
        bytes.withUnsafeBufferPointer { b in
            for i in 0..<b.count {
                if i % Self.stride == 0 { marks.append(chars) }
                if b[i] & 0xC0 != 0x80 { chars += 1 }
            }
        }
        if bytes.count % Self.stride == 0 { marks.append(chars) }
        charCheckpointsCache = marks
        return marks
    }

    /// Characters in `bytes[0..<offset]`.
    private func characters(before offset: Int, _ marks: [Int]) -> Int {
        let k = min(offset, bytes.count) / Self.stride
        var chars = marks[k]
        var i = k * Self.stride
        while i < offset && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { chars += 1 }
            i += 1
        }
        return chars
    }

    /// 1-based line and column (in characters) of a byte offset.
    func position(ofByte offset: Int) -> (line: Int, column: Int) {
        let lineStarts = self.lineStarts
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        let start = lineStarts[lo]
        // A short distance is counted directly; a long one from the checkpoints.
        if offset - start <= Self.stride {
            var column = 1
            var i = start
            while i < offset && i < bytes.count {
                // Count characters, not bytes: skip UTF-8 continuation bytes.
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            return (lo + 1, column)
        }
        let marks = charCheckpoints
        return (lo + 1, characters(before: offset, marks) - characters(before: start, marks) + 1)
    }

    /// Offset just past the `>` closing the start tag that begins at `tagStart` (quoted
    /// attribute values skipped); nil when the tag never closes.
    func tagEnd(from tagStart: Int) -> Int? {
        var quote: UInt8?
        var k = tagStart
        while k < bytes.count {
            let b = bytes[k]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == 0x22 || b == 0x27 {
                quote = b
            } else if b == 0x3E {
                return k + 1
            }
            k += 1
        }
        return nil
    }

    /// True when `pattern` stands at byte `k`.
    func matches(_ pattern: [UInt8], at k: Int) -> Bool {
        guard k + pattern.count <= bytes.count else { return false }
        for j in 0..<pattern.count where bytes[k + j] != pattern[j] { return false }
        return true
    }

    /// Byte offset of attribute `name` inside the start tag beginning at `tagStart`.
    func attributeOffset(_ name: String, inTagAt tagStart: Int) -> Int? {
        let u = Array(name.utf8)
        var i = tagStart + 1
        var quote: UInt8 = 0
        while i < bytes.count {
            let b = bytes[i]
            if quote != 0 {
                if b == quote { quote = 0 }
                i += 1
                continue
            }
            if b == 0x22 || b == 0x27 {
                quote = b
                i += 1
                continue
            }
            if b == 0x3E { return nil }
            let prev = bytes[i - 1]
            if prev == 0x20 || prev == 0x0A || prev == 0x09 || prev == 0x0D,
                matches(u, at: i)
            {
                var j = i + u.count
                while j < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == 0x3D { return i }
            }
            i += 1
        }
        return nil
    }

    /// Byte offsets of all attribute names in the start tag beginning at `tagStart`, by
    /// name (the first of a repeated name), found in one pass over the tag.
    func attributeOffsets(inTagAt tagStart: Int, cost: ParseCost? = nil) -> [String: Int] {
        var out: [String: Int] = [:]
        var i = tagStart + 1
        var quote: UInt8 = 0
        defer { cost?.tagBytesRescanned += i - tagStart }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
        while i < bytes.count {
            let b = bytes[i]
            if quote != 0 {
                if b == quote { quote = 0 }
                i += 1
                continue
            }
            if b == 0x22 || b == 0x27 {
                quote = b
                i += 1
                continue
            }
            if b == 0x3E { break }
            if isSpace(bytes[i - 1]), !isSpace(b), b != 0x3D, b != 0x2F {
                // A name after white space: an attribute when `=` follows (spaces allowed).
                var end = i
                while end < bytes.count, !isSpace(bytes[end]), ![0x3D, 0x3E, 0x2F, 0x22, 0x27].contains(bytes[end]) {
                    end += 1
                }
                var j = end
                while j < bytes.count, isSpace(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == 0x3D {
                    let name = String(decoding: bytes[i..<end], as: UTF8.self)
                    if out[name] == nil { out[name] = i }
                }
                i = max(end, i + 1)
                continue
            }
            i += 1
        }
        return out
    }
}
