/// A JSON document with object keys in insertion order.
///
/// PushDesk writes its own JSON (instead of Foundation's encoders) because the bytes are
/// the product: docs/PAYLOADS.md wants key order stable, `/` unescaped, non-ASCII as raw UTF-8
/// and only `"`, `\` and U+0000–U+001F escaped — every byte counts against 4096.
public enum JSONValue: Equatable, Sendable {
    case string(String)
    /// Kept as its literal text (`1`, `0.8`) so numbers are written exactly as meant.
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func int(_ v: Int) -> JSONValue { .number(String(v)) }

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.elementsEqual(y) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Value of `key` in an object (first occurrence), nil otherwise.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// Compact form: exactly the bytes a careful sender sends.
    public var compact: String { String(decoding: compactBytes, as: UTF8.self) }

    /// The compact form as UTF-8 bytes.
    public var compactBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, pretty: false, level: 0)
        return out
    }

    /// Pretty form for people: 2-space indent, `": "` separators, and every character a
    /// terminal must not get raw written as `\uXXXX` (`Escape.json`): the same values, for a
    /// document that is printed. What is sent, counted and copied out is `compact`.
    public var pretty: String {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(into: &out, pretty: true, level: 0)
        return Escape.json(String(decoding: out, as: UTF8.self))
    }

    /// UTF-8 byte count of the compact form (what counts against the 4096-byte limit),
    /// counted without building the text: previews recount on every keystroke.
    public var compactByteCount: Int {
        switch self {
        case .string(let s): return JSONValue.stringByteCount(s)
        case .number(let n): return n.utf8.count
        case .bool(let b): return b ? 4 : 5
        case .null: return 4
        case .array(let items):
            return 2 + max(0, items.count - 1) + items.reduce(0) { $0 + $1.compactByteCount }
        case .object(let members):
            return 2 + max(0, members.count - 1)
                + members.reduce(0) { $0 + JSONValue.stringByteCount($1.0) + 1 + $1.1.compactByteCount }
        }
    }

    // Works on UTF-8 bytes: every byte of a multi-byte character is ≥ 0x80, so escaping
    // byte by byte touches exactly `"`, `\` and U+0000–U+001F, and copies the rest in runs.
    private func write(into out: inout [UInt8], pretty: Bool, level: Int) {
        switch self {
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONValue.newline(&out, pretty, level + 1)
                item.write(into: &out, pretty: pretty, level: level + 1)
            }
            JSONValue.newline(&out, pretty, level)
            out.append(0x5D)
        case .object(let members):
            if members.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(0x7B)
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONValue.newline(&out, pretty, level + 1)
                JSONValue.writeString(key, into: &out)
                out.append(0x3A)
                if pretty { out.append(0x20) }
                value.write(into: &out, pretty: pretty, level: level + 1)
            }
            JSONValue.newline(&out, pretty, level)
            out.append(0x7D)
        }
    }

    private static func newline(_ out: inout [UInt8], _ pretty: Bool, _ level: Int) {
        guard pretty else { return }
        out.append(0x0A)
        for _ in 0..<(level * 2) { out.append(0x20) }
    }

    /// Escapes only `"`, `\` and U+0000–U+001F (short forms where JSON has them).
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { buf in
            var run = 0
            for i in 0..<buf.count {
                let b = buf[i]
                guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[run..<i]))
                run = i + 1
                switch b {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0x08: out.append(contentsOf: [0x5C, 0x62])
                case 0x0C: out.append(contentsOf: [0x5C, 0x66])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0x0F)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[run..<buf.count]))
        }
        out.append(0x22)
    }

    /// Bytes `writeString` would produce, without producing them.
    static func stringByteCount(_ s: String) -> Int {
        var n = 2
        var s = s
        // On the contiguous UTF-8 bytes: the console recounts on every keystroke.
        s.withUTF8 { bytes in
            for b in bytes {
                if b >= 0x20 {
                    n += (b == 0x22 || b == 0x5C) ? 2 : 1
                } else {
                    n += (b == 0x0A || b == 0x0D || b == 0x09 || b == 0x08 || b == 0x0C) ? 2 : 6
                }
            }
        }
        return n
    }
}
