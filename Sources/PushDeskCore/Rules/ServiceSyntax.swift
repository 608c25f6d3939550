import Foundation

/// The syntax the service rules check values against (also used by the console's editors).
extension ServiceRules {

    /// Empty or only spaces and tabs (Foundation's `.whitespaces`), without building a trimmed copy.
    static func isBlank(_ s: String) -> Bool {
        for u in s.unicodeScalars {
            if u == " " || u == "\t" { continue }
            if u.isASCII || !CharacterSet.whitespaces.contains(u) { return false }
        }
        return true
    }

    /// ASCII letters and digits: what `CharacterSet.alphanumerics` holds among ASCII scalars.
    private static func isASCIIAlphanumeric(_ u: Unicode.Scalar) -> Bool {
        (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9")
    }
    private static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
    }
    private static func isASCIILetter(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A)
    }

    /// nil when `s` is an absolute http(s) URL with a host, else what is wrong with it.
    /// Plain URLs are recognised by a byte scan (`URLCheck`); anything else goes through
    /// Foundation's RFC 3986 parser, which words the problem.
    public static func urlProblem(_ s: String) -> String? {
        if URLCheck.isPlainHTTPURL(s) { return nil }
        return foundationURLProblem(s)
    }

    /// `urlProblem` by `URLComponents` alone (about 30,000 instructions a URL).
    static func foundationURLProblem(_ s: String) -> String? {
        guard let c = URLComponents(string: s), let scheme = c.scheme?.lowercased() else {
            return "is not a URL; expected e.g. https://host:port/"
        }
        guard scheme == "https" || scheme == "http" else { return "must start with https:// (or http://)" }
        guard let host = c.host, !host.isEmpty else { return "has no host name" }
        if s.contains(where: { $0.isWhitespace }) { return "contains white space" }
        return nil
    }

    /// Reverse-DNS bundle id: at least two parts of letters, digits and `-`.
    public static func isBundleId(_ s: String) -> Bool {
        dotted(
            s, separator: UInt8(ascii: "."), first: { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") },
            rest: { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") },
            parts: { $0 >= 2 }
        )
    }

    /// Java package name: at least two parts, each a letter then letters, digits, `_`.
    public static func isPackageName(_ s: String) -> Bool {
        dotted(
            s, separator: UInt8(ascii: "."), first: isASCIILetter,
            rest: { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") },
            parts: { $0 >= 2 }
        )
    }

    static func isSchemaName(_ s: String) -> Bool {
        dotted(s, separator: UInt8(ascii: ":"), first: isASCIIAlphanumeric, rest: isASCIIAlphanumeric) { $0 == 2 }
    }

    /// `s` split on `separator` (empty parts kept): every part non-empty, its first byte
    /// passing `first` and the others `rest`, and `parts(count)` true. Non-ASCII bytes pass
    /// neither, as no non-ASCII scalar is an ASCII letter or digit.
    private static func dotted(
        _ s: String, separator: UInt8, first: (UInt8) -> Bool, rest: (UInt8) -> Bool,
        parts: (Int) -> Bool
    ) -> Bool {
        var count = 1
        var partLength = 0
        for b in s.utf8 {
            if b == separator {
                if partLength == 0 { return false }
                count += 1
                partLength = 0
            } else {
                if !(partLength == 0 ? first(b) : rest(b)) { return false }
                partLength += 1
            }
        }
        return partLength > 0 && parts(count)
    }

    /// `Character.isWhitespace` anywhere in `s`; ASCII text is checked byte by byte.
    static func containsWhitespace(_ s: String) -> Bool {
        var ascii = true
        for b in s.utf8 {
            if b >= 0x80 {
                ascii = false
                break
            }
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) { return true }
        }
        return ascii ? false : s.contains(where: { $0.isWhitespace })
    }
}
