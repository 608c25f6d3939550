/// XML 1.0 (fifth edition) `Name` production (§2.3): what an element or attribute may be
/// called. A subscription parameter's field is `@` followed by one, the XPath of an
/// attribute of Campaign's `nms:appSubscriptionRcp` extension.
public enum XMLName {
    public static func isName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, isStart(first) else { return false }
        return text.unicodeScalars.dropFirst().allSatisfy(isNameChar)
    }

    /// NameStartChar.
    static func isStart(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3A, 0x5F, 0x41...0x5A, 0x61...0x7A: true  // : _ A-Z a-z
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
            0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            true
        default: false
        }
    }

    /// NameChar: NameStartChar, `-`, `.`, digits, U+00B7, combining marks, U+203F–U+2040.
    static func isNameChar(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
        default: isStart(s)
        }
    }
}
