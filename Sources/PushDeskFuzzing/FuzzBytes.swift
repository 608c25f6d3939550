/// Turns fuzzer bytes into decisions and values, like LLVM's FuzzedDataProvider: every
/// read consumes input, and an exhausted input answers zeros, so any byte string (the
/// empty one too) is a valid, deterministic recipe for model values.
public struct FuzzBytes {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isExhausted: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// 0..<n (n ≥ 1).
    public mutating func int(_ n: Int) -> Int {
        guard n > 1 else { return 0 }
        let v = n > 255 ? Int(byte()) << 8 | Int(byte()) : Int(byte())
        return v % n
    }

    public mutating func pick<T>(_ options: [T]) -> T { options[int(options.count)] }

    /// nil about a third of the time.
    public mutating func maybe<T>(_ make: (inout FuzzBytes) -> T) -> T? {
        byte() % 3 == 0 ? nil : make(&self)
    }

    /// Raw bytes decoded as UTF-8 (invalid sequences become U+FFFD), at most `max` bytes.
    public mutating func rawText(max: Int) -> String {
        let n = min(int(max + 1), bytes.count - min(position, bytes.count))
        let slice = bytes[position..<(position + n)]
        position += n
        return String(decoding: slice, as: UTF8.self)
    }

    /// Text built from pieces chosen to reach edge cases (escaping, controls, wide and
    /// joined characters, personalization tags, sizes around the 4096-byte limit) mixed
    /// with raw bytes, so the fuzzer finds both structure and noise quickly.
    public mutating func text() -> String {
        switch byte() % 8 {
        case 0: return ""
        case 1: return pick(Self.pieces)
        case 2: return rawText(max: 48)
        case 3:
            // Long values: one piece repeated, near or over the payload limit.
            let piece = pick(Self.pieces)
            return String(repeating: piece.isEmpty ? "x" : piece, count: 1 + int(700))
        default:
            var s = ""
            for _ in 0..<(1 + int(6)) {
                s += bool() ? pick(Self.pieces) : rawText(max: 12)
            }
            return s
        }
    }

    /// A value for options the model keeps as text (badge, ttl, volume, relevance, …).
    public mutating func number() -> String { bool() ? pick(Self.numbers) : text() }

    public static let pieces: [String] = [
        "Summer", " ", "sale", "\"", "\\", "/", "\\u0041", "</title>", "]]>", "&", "&amp;", "<", ">", "'",
        "東京", "한국어", "🎉", "👩‍👩‍👧", "🇯🇵", "e\u{301}", "\u{2028}", "\u{FEFF}", "x\u{FEFF}", "\u{7F}",
        "\u{9B}2J", "\u{202E}", "\u{200B}", "\u{0}", "\u{1B}[2J", "\u{7}", "\r", "\n", "\t", "\r\n",
        "\u{10FFFF}", "\u{FFFE}", "\u{FFFD}", "%", "<%=", "<%= recipient.firstName %>", "<%= recipient.city %>",
        "<%= recipient.missing %>", "<%=recipient.firstName%>", "https://cdn.example/x.jpg", "http://x",
        "default", "chime.caf", "mediaUrl", "VAR", "aps", "_mId", "_dId", "_msg", "title", "from",
        "message_type", "notification", "googleX", "gcm.n", "neotrips", "neotrips-ios", "#FF6600",
        "2026-12-01T00:00:00Z", "0", "1", "-1", "0.5", "1e309", "NaN",
    ]

    public static let numbers: [String] = [
        "", "0", "1", "5", "10", "0.5", "0.25", "1.0", "5e-1", "1e-999", "1e309", "-0", "-1", "2", ".8", "0,8",
        "86400", "2419200", "2419201", "999999999999", "9999999999999", "2147483647", "2147483648", " 1", "1 ",
        "٣", "0x10", "+1", "00", "1e", "-", "NaN", "inf",
    ]
}
