/// Turns untrusted text from a service file into safe pieces of Java and Objective-C source.
///
/// Every value that reaches a generated snippet goes through here: a label or key must never
/// end a string literal, end a comment, or (Java) smuggle in a `\uXXXX` escape that javac
/// would decode before lexing.
public enum SourceLiteral {
    /// A Java string literal. Control characters and DEL become octal escapes (`\012`), never
    /// `\u000a`: javac decodes `\u` escapes before lexing, so `\u000a` would end the literal.
    /// C1 controls are octal too (`\233`); the other characters `Escape.mustEscape` flags (bidi
    /// controls, invisibles, separators) become `\u202E` (UTF-16 units, none of them a line
    /// break or quote once decoded). Other non-ASCII characters are kept as written (javac reads
    /// UTF-8 since JDK 18; `-encoding UTF-8` for older ones).
    public static func java(_ s: String) -> String { literal(s, prefix: "\"", objc: false) }

    /// An Objective-C `@"…"` literal. Octal escapes for control characters (three digits, so the
    /// next character can never extend them), `\?` for `?` so no trigraph (`??/`) can form. C1
    /// controls are their UTF-8 bytes in octal (C forbids `\u0080`…`\u009F`); the other flagged
    /// characters are universal character names (`\u202E`, `\U000E0041`).
    public static func objc(_ s: String) -> String { literal(s, prefix: "@\"", objc: true) }

    private static func literal(_ s: String, prefix: String, objc: Bool) -> String {
        var out = prefix
        let scalars = Array(s.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "?" where objc: out += "\\?"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || c.value == 0x7F: out += octal(c.value)
            case let c where c.value < 0xA0 && c.value >= 0x80:
                out += objc ? String(c).utf8.map { octal(UInt32($0)) }.joined() : octal(c.value)
            case let c
            where Escape.mustEscape(
                c, previous: i > 0 ? scalars[i - 1] : nil, next: i + 1 < scalars.count ? scalars[i + 1] : nil):
                out += objc ? universalName(c) : String(c).utf16.map { "\\u" + Escape.hex4(UInt32($0)) }.joined()
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `\u202E` or, beyond the BMP, `\U000E0041` (C11 6.4.3).
    private static func universalName(_ c: Unicode.Scalar) -> String {
        if c.value <= 0xFFFF { return "\\u" + Escape.hex4(c.value) }
        let digits = String(c.value, radix: 16, uppercase: true)
        return "\\U" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Text for a `//` comment, in both languages: quoted, with `\`, `"` and what
    /// `Escape.mustEscape` flags (controls, bidi, invisibles) escaped as `\x{202E}`. The quote keeps a trailing backslash from splicing the next line into the comment
    /// (C), and the doubled backslash keeps javac from reading `\u000a` as a line break.
    public static func comment(_ s: String) -> String {
        var out = "\""
        let scalars = Array(s.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case let c
            where Escape.mustEscape(
                c, previous: i > 0 ? scalars[i - 1] : nil, next: i + 1 < scalars.count ? scalars[i + 1] : nil):
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "\\x{" + hex + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A Java or Objective-C identifier made from a config name (`loyaltyId` stays `loyaltyId`,
    /// `loyalty-id` becomes `loyalty_id`, `2fa` becomes `_2fa`, `class` becomes `class_`).
    /// `taken` holds the names already used in the same scope; a clash gets a numeric suffix.
    /// Each subscription parameter with a safe, unique argument name for generated code.
    static func arguments(for params: [SubscriptionParam]) -> [(param: SubscriptionParam, arg: String)] {
        var taken = Set<String>()
        return params.map { p in
            let arg = identifier(p.name, taken: taken)
            taken.insert(arg)
            return (p, arg)
        }
    }

    public static func identifier(_ s: String, taken: Set<String>) -> String {
        var id = ""
        for scalar in s.unicodeScalars {
            let ascii =
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            id.unicodeScalars.append(ascii ? scalar : "_")
        }
        if id.isEmpty { id = "param" }
        if let first = id.unicodeScalars.first, ("0"..."9").contains(first) { id = "_" + id }
        if reserved.contains(id) { id += "_" }
        var candidate = id
        var n = 2
        while taken.contains(candidate) {
            candidate = id + String(n)
            n += 1
        }
        return candidate
    }

    private static func octal(_ v: UInt32) -> String {
        let digits = String(v, radix: 8)
        return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// Keywords and literals of Java.
    static let javaKeywords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
        "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
        "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
        "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
        "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
        "volatile", "while", "true", "false", "null", "var", "record", "yield", "sealed", "permits", "_",
    ]

    /// Keywords of C and Objective-C, and names the generated code itself uses as parameters and
    /// locals, so that a config name can never shadow them.
    static let reserved: Set<String> = javaKeywords.union([
        "auto", "extern", "inline", "register", "restrict", "signed", "sizeof", "struct", "typedef",
        "union", "unsigned", "id", "self", "nil", "Nil", "YES", "NO", "BOOL", "SEL", "IMP", "in", "out",
        "inout", "bycopy", "byref", "oneway", "bool", "_Bool", "NULL",
        "ctx", "registrationId", "userKey", "params", "runner", "deviceToken", "tokenString",
        "nl", "values", "value", "intent", "userInfo", "launchOptions", "data", "extras", "contextData",
        "messageId", "deliveryId", "action", "bytes", "i", "e", "state", "response",
    ])

    /// Whether `s` can be a Java package name (`com.neotrips.app`).
    public static func isJavaPackage(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
                return !javaKeywords.contains(String(part))
                    && part.unicodeScalars.allSatisfy {
                        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
                    }
            }
    }
}
