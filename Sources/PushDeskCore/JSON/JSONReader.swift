/// A JSON text that could not be read: where (1-based line and column, in characters, inside
/// the text) and what to do.
public struct JSONReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public init(line: Int, column: Int, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
    public var description: String { "\(line):\(column): \(message)" }
}

/// Reads JSON texts from files and from the console (a Live Activity's content state and
/// attributes, docs/PAYLOADS.md). The texts are untrusted, and what is read is sent again, so:
/// - objects keep their keys in the order written and numbers their spelling (`JSONValue`
///   keeps both; writing it back with `compact` is the compact form of docs/PAYLOADS.md);
/// - everything JSON (RFC 8259) refuses is a positioned error, and so is what the app's
///   decoder would refuse or misread: a key given twice (Foundation keeps one of them,
///   silently), a `\u` escape that is half a surrogate pair, a number no `Double` holds
///   (`1e999`: Swift's `JSONDecoder` refuses it, so ActivityKit would drop the update);
/// - nesting and size are bounded: a hostile text is refused early, never a deep recursion
///   or a long parse.
public enum JSONReader {
    /// Deepest nesting of objects and arrays. Payloads hold at most 5120 bytes; real content
    /// states nest two or three levels.
    public static let maxDepth = 32
    /// Longest text read. A payload is at most 5120 bytes (4096 on a device): anything much
    /// longer can never be sent, and is refused before it is parsed.
    public static let maxBytes = 64 * 1024

    /// The object `text` holds; anything else is an error.
    public static func object(_ text: String) throws(JSONReadError) -> JSONValue {
        try object(Array(text.utf8))
    }

    public static func object(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        var p = Parser(bytes)
        return try p.document(objectOnly: true)
    }

    /// Any JSON value.
    public static func value(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        var p = Parser(bytes)
        return try p.document(objectOnly: false)
    }

    struct Parser {
        let b: [UInt8]
        var i = 0
        var depth = 0

        init(_ bytes: [UInt8]) { b = bytes }

        /// 1-based line and column (characters: UTF-8 lead bytes) of byte `offset`.
        func position(_ offset: Int) -> (Int, Int) {
            var line = 1
            var column = 1
            var k = 0
            let end = min(offset, b.count)
            while k < end {
                if b[k] == 0x0A {
                    line += 1
                    column = 1
                } else if b[k] & 0xC0 != 0x80 {
                    column += 1
                }
                k += 1
            }
            return (line, column)
        }

        func fail(_ message: String, at offset: Int? = nil) -> JSONReadError {
            let (l, c) = position(offset ?? i)
            return JSONReadError(line: l, column: c, message)
        }

        /// What stands at `i`, for messages: a character, or "the end of the text".
        func found(at k: Int) -> String {
            guard k < b.count else { return "the end of the text" }
            let c = b[k]
            if c >= 0x21 && c < 0x7F { return "`\(Character(UnicodeScalar(c)))`" }
            return c < 0x80 ? String(format: "byte 0x%02X", c) : "a non-ASCII character"
        }

        mutating func document(objectOnly: Bool) throws(JSONReadError) -> JSONValue {
            if b.count > JSONReader.maxBytes {
                throw fail(
                    "the text is \(b.count) bytes; at most \(JSONReader.maxBytes) are read (a payload holds at most 5120)",
                    at: JSONReader.maxBytes)
            }
            if let bad = Self.invalidUTF8(b) {
                throw fail(
                    "invalid UTF-8 (byte 0x\(String(b[bad], radix: 16, uppercase: true))); save the text as UTF-8",
                    at: bad)
            }
            skipSpace()
            guard i < b.count else {
                throw fail(
                    objectOnly
                        ? "empty; write a JSON object, e.g. {\"status\":\"boarding\"}" : "empty; write a JSON value")
            }
            if objectOnly && b[i] != 0x7B {
                throw fail("a JSON object `{…}` is needed here; found \(found(at: i))")
            }
            let v = try value()
            skipSpace()
            if i < b.count {
                throw fail("unexpected \(found(at: i)) after the end of the JSON value; remove it")
            }
            return v
        }

        mutating func skipSpace() {
            while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x09 || b[i] == 0x0D { i += 1 }
        }

        mutating func value() throws(JSONReadError) -> JSONValue {
            guard i < b.count else { throw fail("the text ends where a value is expected") }
            switch b[i] {
            case 0x7B: return try object()
            case 0x5B: return try array()
            case 0x22: return .string(try string())
            case 0x74: return try literal("true", .bool(true))
            case 0x66: return try literal("false", .bool(false))
            case 0x6E: return try literal("null", .null)
            case 0x2D, 0x30...0x39: return .number(try number())
            default:
                throw fail(
                    "expected a value (object, array, string, number, true, false or null); found \(found(at: i))")
            }
        }

        mutating func literal(_ word: String, _ v: JSONValue) throws(JSONReadError) -> JSONValue {
            for u in word.utf8 {
                guard i < b.count, b[i] == u else { throw fail("expected `\(word)`; found \(found(at: i))") }
                i += 1
            }
            return v
        }

        mutating func enter() throws(JSONReadError) {
            depth += 1
            if depth > JSONReader.maxDepth {
                throw fail("nested more than \(JSONReader.maxDepth) levels deep; flatten the value")
            }
        }

        mutating func object() throws(JSONReadError) -> JSONValue {
            try enter()
            i += 1
            var members: [(String, JSONValue)] = []
            var keys = Set<String>()
            skipSpace()
            if i < b.count, b[i] == 0x7D {
                i += 1
                depth -= 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard i < b.count, b[i] == 0x22 else {
                    throw fail("expected a key in double quotes; found \(found(at: i))")
                }
                let keyStart = i
                let key = try string()
                if !keys.insert(key).inserted {
                    throw fail(
                        "the key \"\(Escape.inline(key))\" is given twice in this object; keep one (apps read only one of them)",
                        at: keyStart)
                }
                skipSpace()
                guard i < b.count, b[i] == 0x3A else { throw fail("expected `:` after the key; found \(found(at: i))") }
                i += 1
                skipSpace()
                members.append((key, try value()))
                skipSpace()
                guard i < b.count else { throw fail("the text ends inside an object; close it with `}`") }
                if b[i] == 0x2C {
                    i += 1
                    continue
                }
                guard b[i] == 0x7D else { throw fail("expected `,` or `}`; found \(found(at: i))") }
                i += 1
                depth -= 1
                return .object(members)
            }
        }

        mutating func array() throws(JSONReadError) -> JSONValue {
            try enter()
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < b.count, b[i] == 0x5D {
                i += 1
                depth -= 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value())
                skipSpace()
                guard i < b.count else { throw fail("the text ends inside an array; close it with `]`") }
                if b[i] == 0x2C {
                    i += 1
                    continue
                }
                guard b[i] == 0x5D else { throw fail("expected `,` or `]`; found \(found(at: i))") }
                i += 1
                depth -= 1
                return .array(items)
            }
        }

        /// The number's text as written, after checking RFC 8259's grammar and that a
        /// `Double` holds it (finite).
        mutating func number() throws(JSONReadError) -> String {
            let start = i
            func digits(_ p: inout Parser) -> Int {
                let s = p.i
                while p.i < p.b.count, p.b[p.i] >= 0x30 && p.b[p.i] <= 0x39 { p.i += 1 }
                return p.i - s
            }
            if b[i] == 0x2D { i += 1 }
            guard i < b.count, b[i] >= 0x30 && b[i] <= 0x39 else {
                throw fail("expected a digit; found \(found(at: i))")
            }
            if b[i] == 0x30 {
                i += 1
                if i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                    throw fail(
                        "a number does not start with 0 followed by digits; write it without the leading 0", at: start)
                }
            } else {
                _ = digits(&self)
            }
            if i < b.count, b[i] == 0x2E {
                i += 1
                guard digits(&self) > 0 else { throw fail("expected a digit after `.`; found \(found(at: i))") }
            }
            if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
                i += 1
                if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
                guard digits(&self) > 0 else { throw fail("expected a digit in the exponent; found \(found(at: i))") }
            }
            let text = String(decoding: b[start..<i], as: UTF8.self)
            guard let d = Double(text), d.isFinite else {
                throw fail(
                    "the number \(text) is out of range (an app decodes it as a Double, which refuses it)", at: start)
            }
            return text
        }

        /// A string's value, escapes resolved; raw control characters and lone surrogates refused.
        mutating func string() throws(JSONReadError) -> String {
            let open = i
            i += 1
            var out: [UInt8] = []
            var run = i
            while true {
                guard i < b.count else { throw fail("the string that starts here is never closed; add `\"`", at: open) }
                let c = b[i]
                if c == 0x22 {
                    out.append(contentsOf: b[run..<i])
                    i += 1
                    return String(decoding: out, as: UTF8.self)
                }
                if c < 0x20 {
                    throw fail(
                        "a control character (0x\(String(c, radix: 16, uppercase: true))) inside a string; write it as an escape such as \\n"
                    )
                }
                guard c == 0x5C else {
                    i += 1
                    continue
                }
                out.append(contentsOf: b[run..<i])
                let escape = i
                i += 1
                guard i < b.count else { throw fail("the text ends inside an escape") }
                switch b[i] {
                case 0x22: out.append(0x22)
                case 0x5C: out.append(0x5C)
                case 0x2F: out.append(0x2F)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    i += 1
                    let unit = try hex4(escape)
                    var scalar: UInt32 = unit
                    if unit >= 0xD800 && unit <= 0xDBFF {
                        guard i + 1 < b.count, b[i] == 0x5C, b[i + 1] == 0x75 else {
                            throw fail(
                                "\\u\(String(unit, radix: 16, uppercase: true)) is the first half of a surrogate pair with no second half; write the character itself",
                                at: escape)
                        }
                        let second = i
                        i += 2
                        let low = try hex4(second)
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw fail(
                                "\\u\(String(low, radix: 16, uppercase: true)) does not complete the surrogate pair before it; write the character itself",
                                at: second)
                        }
                        scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else if unit >= 0xDC00 && unit <= 0xDFFF {
                        throw fail(
                            "\\u\(String(unit, radix: 16, uppercase: true)) is the second half of a surrogate pair with no first half; write the character itself",
                            at: escape)
                    }
                    out.append(contentsOf: String(Character(UnicodeScalar(scalar)!)).utf8)
                    run = i
                    continue
                default:
                    throw fail(
                        "unknown escape \\\(found(at: i)); JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                        at: escape)
                }
                i += 1
                run = i
            }
        }

        /// Four hex digits at `i`; `escape` is where the `\u` began.
        mutating func hex4(_ escape: Int) throws(JSONReadError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard i < b.count else { throw fail("the text ends inside a \\u escape", at: escape) }
                let c = b[i]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw fail("a \\u escape needs four hex digits; found \(found(at: i))", at: escape)
                }
                v = v << 4 | d
                i += 1
            }
            return v
        }

        /// Offset of the first byte that is not valid UTF-8 (overlong forms, surrogates and
        /// values above U+10FFFF included), nil when all are.
        static func invalidUTF8(_ b: [UInt8]) -> Int? {
            var k = 0
            while k < b.count {
                let c = b[k]
                if c < 0x80 {
                    k += 1
                    continue
                }
                let n: Int
                var lo: UInt8 = 0x80
                var hi: UInt8 = 0xBF
                switch c {
                case 0xC2...0xDF: n = 1
                case 0xE0:
                    n = 2
                    lo = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: n = 2
                case 0xED:
                    n = 2
                    hi = 0x9F
                case 0xF0:
                    n = 3
                    lo = 0x90
                case 0xF1...0xF3: n = 3
                case 0xF4:
                    n = 3
                    hi = 0x8F
                default: return k
                }
                guard k + n < b.count, b[k + 1] >= lo && b[k + 1] <= hi else { return k }
                var j = 2
                while j <= n {
                    guard b[k + j] & 0xC0 == 0x80 else { return k }
                    j += 1
                }
                k += n + 1
            }
            return nil
        }
    }
}
