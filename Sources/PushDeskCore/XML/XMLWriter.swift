/// Writes PushDesk XML deterministically: UTF-8, 2-space indentation, attributes in the
/// order given (callers pass a fixed order), LF line endings, trailing newline.
public struct XMLWriter {
    /// The document written so far.
    public var output: String { String(decoding: bytes, as: UTF8.self) }
    /// Its UTF-8 bytes: appended without a String's per-append bookkeeping (a merge writes
    /// four large services, docs/PERFORMANCE.md).
    private var bytes: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
    private var level = 0
    private var open: [String] = []

    public init() {}

    /// Attributes whose value is nil are left out.
    public mutating func start(_ name: String, _ attributes: [(String, String?)] = []) throws {
        try openTag(name, attributes)
        bytes.append(UInt8(ascii: ">"))
        bytes.append(UInt8(ascii: "\n"))
        open.append(name)
        level += 1
    }

    public mutating func end() {
        level -= 1
        appendIndent()
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        put(open.removeLast())
        bytes.append(UInt8(ascii: ">"))
        bytes.append(UInt8(ascii: "\n"))
    }

    public mutating func empty(_ name: String, _ attributes: [(String, String?)] = []) throws {
        try openTag(name, attributes)
        bytes.append(UInt8(ascii: "/"))
        bytes.append(UInt8(ascii: ">"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `<name a="…">text</name>` on one line.
    public mutating func textElement(_ name: String, _ attributes: [(String, String?)] = [], text: String) throws {
        try openTag(name, attributes)
        bytes.append(UInt8(ascii: ">"))
        put(try Self.escape(text, attribute: false))
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        put(name)
        bytes.append(UInt8(ascii: ">"))
        bytes.append(UInt8(ascii: "\n"))
    }

    // Appended piece by piece: a save of a large service builds no temporary strings per line.
    private mutating func openTag(_ name: String, _ attributes: [(String, String?)]) throws {
        appendIndent()
        bytes.append(UInt8(ascii: "<"))
        put(name)
        for (attribute, value) in attributes {
            guard let value else { continue }
            bytes.append(UInt8(ascii: " "))
            put(attribute)
            bytes.append(UInt8(ascii: "="))
            bytes.append(UInt8(ascii: "\""))
            put(try Self.escape(value, attribute: true))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// A string's UTF-8 bytes in one copy (appending its `utf8` view went byte by byte:
    /// 3% of a merge). Strings made in Swift are native UTF-8, so `withUTF8` copies nothing.
    private mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func appendIndent() {
        for _ in 0..<2 * level { bytes.append(UInt8(ascii: " ")) }
    }

    /// Characters XML 1.0 cannot hold at all (C0 controls but tab, LF, CR; U+FFFE/U+FFFF).
    public static func firstForbiddenCharacter(in text: String) -> Unicode.Scalar? {
        // Only a C0 byte or 0xEF (the first byte of U+FFFE and U+FFFF) can start one: most
        // texts are cleared by one pass over their bytes.
        let maybe =
            text.utf8.withContiguousStorageIfAvailable { b in
                b.contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0xEF }
            } ?? true
        guard maybe else { return nil }
        return text.unicodeScalars.first { s in
            (s.value < 0x20 && s != "\t" && s != "\n" && s != "\r") || s.value == 0xFFFE || s.value == 0xFFFF
        }
    }

    /// Escapes markup; in attributes also whitespace that parsers would otherwise normalise.
    static func escape(_ text: String, attribute: Bool) throws -> String {
        // Most values (names, keys, labels, URLs) hold nothing to refuse or escape: found in
        // one pass over the bytes (a control character, markup, or 0xEF, which starts U+FFFE
        // and U+FFFF and leaves the rest to the checks below) and written as they are.
        // The bytes are read in place (a String's byte view, walked one byte at a time, costs
        // more than the writing).
        let plain = text.utf8.withContiguousStorageIfAvailable { b in
            b.count <= ElementReader.maxValueBytes
                && !b.contains { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0xEF }
        }
        if plain == true { return text }
        if let bad = firstForbiddenCharacter(in: text) {
            throw XMLWriteError(character: bad, text: text)
        }
        // The reader refuses longer values (ElementReader.maxValueBytes); writing one would
        // save a file that no longer loads. Found by the payload fuzzer.
        if text.utf8.count > ElementReader.maxValueBytes {
            throw XMLEncodeError(
                "a value is \(text.utf8.count) bytes (it starts \"\(Escape.inline(text, limit: 24))\"); at most \(ElementReader.maxValueBytes) bytes fit in a field: shorten it"
            )
        }
        // Nothing to escape (a 0xEF sent it here): written as it is.
        if !text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 < 0x20 }) {
            return text
        }
        // Byte by byte: every character escaped is ASCII, and no byte of a longer UTF-8
        // sequence is (a body of 200 languages is written in one save).
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 32)
        for b in text.utf8 {
            switch b {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22 where attribute: out.append(contentsOf: "&quot;".utf8)
            case 0x0A where attribute: out.append(contentsOf: "&#10;".utf8)
            case 0x09 where attribute: out.append(contentsOf: "&#9;".utf8)
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A value holds a character XML 1.0 cannot store.
public struct XMLWriteError: Error, CustomStringConvertible {
    public let character: Unicode.Scalar
    public let text: String
    public var description: String {
        "a value contains the control character U+\(Escape.hex4(character.value)), which an XML file cannot hold; remove it"
    }
}

/// A record that would save into a file PushDesk cannot read back (a value too long, two
/// values for one name): refused before anything is written, saying what to change.
public struct XMLEncodeError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
