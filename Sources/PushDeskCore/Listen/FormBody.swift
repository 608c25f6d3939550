/// An `application/x-www-form-urlencoded` body as the Campaign SDKs send it (docs/LISTEN.md):
/// `name=value` pairs joined by `&`, percent-encoded (`%20` or `+` for a space). The iOS SDK
/// leaves non-ASCII letters unencoded, so raw UTF-8 is accepted as it is.
public enum FormBody {
    /// The pairs in body order, decoded; nil when the bytes are not a form (a `%` not
    /// followed by two hex digits, or text that is not UTF-8 once decoded).
    public static func decode(_ bytes: [UInt8]) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for part in bytes.split(separator: 0x26, omittingEmptySubsequences: true) {
            let eq = part.firstIndex(of: 0x3D)
            let rawName = eq.map { part[part.startIndex..<$0] } ?? part[...]
            let rawValue = eq.map { part[part.index(after: $0)...] } ?? []
            guard let name = percentDecode(rawName), let value = percentDecode(rawValue) else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    static func percentDecode(_ bytes: ArraySlice<UInt8>) -> String? {
        // Nothing encoded (names, keys, hex tokens): the bytes are the text.
        if !bytes.contains(where: { $0 == 0x25 || $0 == 0x2B }) { return String(validating: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == 0x25 {
                guard bytes.endIndex - i >= 3, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2])
                else { return nil }
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(b == 0x2B ? 0x20 : b)
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
