/// `<%= recipient.FIELD %>` in title, subtitle, body and variable values (docs/PAYLOADS.md).
///
/// A hand-written scanner rather than a regular expression: it runs on every keystroke.
/// Text that only looks like the start of a tag (`<%= foo %>`, an unclosed `<%=`) is left
/// exactly as written.
public enum Personalization {
    /// One `<%= recipient.FIELD %>` occurrence: the field and the byte range of the whole tag.
    struct Tag {
        var field: String
        var range: Range<Int>
    }

    /// Fields referenced by `text`, in order of appearance (repeats kept).
    public static func fields(in text: String) -> [String] { tags(in: text).map(\.field) }

    /// `text` with every tag whose field the profile has replaced by the profile's value;
    /// `unknown` lists the fields the profile lacks (those tags stay as written).
    /// Without a profile the text is returned unchanged and nothing is unknown.
    public static func apply(_ text: String, profile: Profile?) -> (text: String, unknown: [String]) {
        guard let profile else { return (text, []) }
        let found = tags(in: text)
        if found.isEmpty { return (text, []) }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var unknown: [String] = []
        var cursor = 0
        for tag in found {
            out.append(contentsOf: bytes[cursor..<tag.range.lowerBound])
            if let value = profile.value(of: tag.field) {
                out.append(contentsOf: value.utf8)
            } else {
                unknown.append(tag.field)
                out.append(contentsOf: bytes[tag.range])
            }
            cursor = tag.range.upperBound
        }
        out.append(contentsOf: bytes[cursor...])
        return (String(decoding: out, as: UTF8.self), unknown)
    }

    /// Scans UTF-8 bytes; tags are pure ASCII so byte offsets never split a character.
    static func tags(in text: String) -> [Tag] {
        guard text.utf8.contains(UInt8(ascii: "<")) else { return [] }
        let b = Array(text.utf8)
        var result: [Tag] = []
        var i = 0
        let open: [UInt8] = Array("<%=".utf8)
        let prefix: [UInt8] = Array("recipient.".utf8)
        func matches(_ word: [UInt8], at k: Int) -> Bool {
            k + word.count <= b.count && b[k..<(k + word.count)].elementsEqual(word)
        }
        func skipSpaces(_ k: inout Int) { while k < b.count, b[k] == 0x20 || b[k] == 0x09 { k += 1 } }
        while i < b.count {
            guard b[i] == UInt8(ascii: "<"), matches(open, at: i) else {
                i += 1
                continue
            }
            var k = i + open.count
            skipSpaces(&k)
            guard matches(prefix, at: k) else {
                i += 1
                continue
            }
            k += prefix.count
            let start = k
            while k < b.count, isFieldByte(b[k]) { k += 1 }
            let end = k
            skipSpaces(&k)
            guard end > start, k + 1 < b.count, b[k] == UInt8(ascii: "%"), b[k + 1] == UInt8(ascii: ">") else {
                i += 1
                continue
            }
            result.append(Tag(field: String(decoding: b[start..<end], as: UTF8.self), range: i..<(k + 2)))
            i = k + 2
        }
        return result
    }

    /// Field names: ASCII letters, digits, `_` (Campaign schema attribute names).
    private static func isFieldByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
    }
}
