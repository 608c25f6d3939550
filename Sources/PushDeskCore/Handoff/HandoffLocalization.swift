/// The hand-off sheet's "Languages and localization keys" part (docs/HANDOFF.md): the
/// languages the service's deliveries are written in (their variants' locales) and the
/// localization keys they send (`<localized>`'s `titleKey`, `subtitleKey`, `bodyKey`), each
/// with its argument count, as lines for the app's `Localizable.strings` (iOS) and
/// `res/values/strings.xml` (Android).
public struct HandoffLocalization: Equatable, Sendable {
    /// A variant's language and the deliveries written in it.
    public struct Language: Equatable, Sendable {
        public var locale: String
        public var deliveries: [String]
    }

    /// A key the deliveries send: which text it stands for, how many arguments it takes
    /// (each count it was given, ascending: more than one is a mistake in a delivery) and
    /// the deliveries that send it.
    public struct Key: Equatable, Sendable {
        public var key: String
        public var text: DeliveryText
        public var arguments: [Int]
        public var deliveries: [String]
    }

    public var languages: [Language]
    public var keys: [Key]
    /// Which files the sheet writes lines for: the platforms of the sheet's apps.
    public var platforms: [Platform]

    /// From the deliveries of the service named `service` (any order; read by name), for a
    /// sheet whose apps have `platforms`. Nil when none has a variant or a localization key:
    /// the sheet then has no such part.
    public init?(service: String, platforms: [Platform], deliveries: [Delivery]) {
        let mine = deliveries.filter { $0.service == service }.sorted { $0.name < $1.name }
        var languages: [Language] = []
        var keys: [Key] = []
        for d in mine {
            for v in d.variants {
                guard let tag = v.tag?.description else { continue }  // no tag: `variant.locale`
                if let i = languages.firstIndex(where: { $0.locale == tag }) {
                    if languages[i].deliveries.last != d.name { languages[i].deliveries.append(d.name) }
                } else {
                    languages.append(Language(locale: tag, deliveries: [d.name]))
                }
            }
            guard let l = d.content.localized else { continue }
            let sent: [(DeliveryText, String?, Int)] = [
                (.title, l.titleKey, l.titleArgs.count), (.subtitle, l.subtitleKey, l.subtitleArgs.count),
                (.body, l.bodyKey, l.bodyArgs.count),
            ]
            for case (let text, let key?, let count) in sent where !key.isEmpty {
                if let i = keys.firstIndex(where: { $0.key == key && $0.text == text }) {
                    if !keys[i].arguments.contains(count) { keys[i].arguments = (keys[i].arguments + [count]).sorted() }
                    if !keys[i].deliveries.contains(d.name) { keys[i].deliveries.append(d.name) }
                } else {
                    keys.append(Key(key: key, text: text, arguments: [count], deliveries: [d.name]))
                }
            }
        }
        guard !languages.isEmpty || !keys.isEmpty else { return nil }
        self.languages = languages
        self.keys = keys.sorted { ($0.key, $0.text.order) < ($1.key, $1.text.order) }
        self.platforms = [Platform.ios, .android].filter(platforms.contains)
    }

    public static let intro =
        "The service's deliveries are written in these languages (a device gets the variant its language looks up, else the default text) and send these localization keys: the app shows its own string for a key, filled with the arguments the push carries. Declare each key in the app's strings, in every language it supports, with its text around the placeholders below."

    // MARK: The strings files

    /// `Localizable.strings` lines: `"KEY" = "%@";` with one `%@` per argument (Apple's
    /// `loc-args` replace them in order; `%1$@`, `%2$@` let a translation reorder them). A key
    /// the deliveries give different argument counts gets the smallest: a specifier with no
    /// argument reads garbage, an argument with no specifier is left out.
    public var localizableStrings: String {
        keys.map { k in
            let n = k.arguments.first ?? 0
            let placeholders = n == 1 ? "%@" : (0..<n).map { "%\($0 + 1)$@" }.joined(separator: " ")
            return "/* \(Self.comment(k)) */\n\"\(Self.stringsLiteral(k.key))\" = \"\(placeholders)\";"
        }.joined(separator: "\n")
    }

    /// `strings.xml`: `<string name="KEY">%1$s %2$s</string>` (Android's positional format
    /// specifiers, which FCM's `title_loc_args` / `body_loc_args` fill). FCM has no subtitle
    /// key, so subtitle keys are left out.
    public var stringsXML: String {
        var l = ["<resources>"]
        for k in keys where k.text != .subtitle {
            let n = k.arguments.first ?? 0
            l.append("    <!-- \(Self.comment(k)) -->")
            l.append(
                "    <string name=\"\(Self.xmlAttribute(k.key))\">"
                    + (0..<n).map { "%\($0 + 1)$s" }.joined(separator: " ") + "</string>")
        }
        l.append("</resources>")
        return l.joined(separator: "\n")
    }

    /// The snippets for the service's platforms: (title, file name, code).
    public var snippets: [(title: String, fileName: String, code: String)] {
        var out: [(String, String, String)] = []
        if platforms.contains(.ios), !keys.isEmpty {
            out.append(("iOS strings", "Localizable.strings", localizableStrings))
        }
        if platforms.contains(.android), keys.contains(where: { $0.text != .subtitle }) {
            out.append(("Android strings", "res/values/strings.xml", stringsXML))
        }
        return out
    }

    /// "title, 2 arguments: summer-sale, winter-sale" (delivery names are store names: safe
    /// in a comment).
    static func comment(_ k: Key) -> String {
        let counts = k.arguments.map(String.init).joined(separator: " or ")
        let args =
            k.arguments == [1]
            ? "1 argument"
            : "\(counts) arguments" + (k.arguments.count > 1 ? " (give every delivery the same)" : "")
        return "\(k.text.rawValue), \(args): \(k.deliveries.joined(separator: ", "))"
    }

    /// A `.strings` string literal: `"` and `\` escaped, controls and what the escape rule
    /// flags as `\n` / `\Uxxxx` (old-style property list escapes), so the file parses and shows
    /// nothing raw.
    static func stringsLiteral(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if u.value < 0x20 || Escape.mustEscape(u, previous: nil, next: nil) {
                    // UTF-16 units, as the property list reader takes them.
                    for unit in String(u).utf16 { out += "\\U" + Escape.hex4(UInt32(unit)) }
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    /// An XML attribute value: the five XML escapes, and what the escape rule flags as a
    /// character reference (a C0 control other than tab cannot be written in XML 1.0 at all;
    /// shown as its visible `\u{XX}` text instead).
    static func xmlAttribute(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    out += Escape.inline(String(u))
                } else if Escape.mustEscape(u, previous: nil, next: nil) {
                    out += "&#x\(String(u.value, radix: 16, uppercase: true));"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    // MARK: Renderings

    var markdown: [String] {
        let code = HandoffText.markdownCode
        var l = ["", "## Languages and localization keys", "", Self.intro, "", "### Languages", ""]
        if languages.isEmpty {
            l.append("Only the default text: no delivery has a variant.")
        } else {
            l += ["| Language | Deliveries |", "|---|---|"]
            l += languages.map { "| \(code($0.locale)) | \($0.deliveries.map(code).joined(separator: ", ")) |" }
        }
        l += ["", "### Localization keys", ""]
        if keys.isEmpty {
            l.append("None: the deliveries send their text.")
        } else {
            l += ["| Key | Text | Arguments | Deliveries |", "|---|---|---|---|"]
            l += keys.map {
                "| \(code($0.key)) | \($0.text.rawValue) | \($0.arguments.map(String.init).joined(separator: ", ")) | \($0.deliveries.map(code).joined(separator: ", ")) |"
            }
        }
        for s in snippets {
            let fence = HandoffText.fence(for: s.code)
            l += [
                "", "### \(s.title): \(code(s.fileName))", "", fence + (s.fileName.hasSuffix(".xml") ? "xml" : ""),
                s.code + "\n" + fence,
            ]
        }
        return l
    }

    var html: [String] {
        let h = HandoffText.html
        func codes(_ names: [String]) -> String { names.map { "<code>\(h($0))</code>" }.joined(separator: ", ") }
        var l = ["<h2>Languages and localization keys</h2>", "<p>\(h(Self.intro))</p>", "<h3>Languages</h3>"]
        if languages.isEmpty {
            l.append("<p>Only the default text: no delivery has a variant.</p>")
        } else {
            l += ["<table>", "<tr><th>Language</th><th>Deliveries</th></tr>"]
            l += languages.map { "<tr><td><code>\(h($0.locale))</code></td><td>\(codes($0.deliveries))</td></tr>" }
            l.append("</table>")
        }
        l.append("<h3>Localization keys</h3>")
        if keys.isEmpty {
            l.append("<p>None: the deliveries send their text.</p>")
        } else {
            l += ["<table>", "<tr><th>Key</th><th>Text</th><th>Arguments</th><th>Deliveries</th></tr>"]
            l += keys.map {
                "<tr><td><code>\(h($0.key))</code></td><td>\($0.text.rawValue)</td><td>\($0.arguments.map(String.init).joined(separator: ", "))</td><td>\(codes($0.deliveries))</td></tr>"
            }
            l.append("</table>")
        }
        for s in snippets {
            l.append("<h3>\(h(s.title)): <code>\(h(s.fileName))</code></h3>")
            l.append("<pre><code>" + HandoffText.htmlCode(s.code) + "</code></pre>")
        }
        return l
    }

    var json: JSONValue {
        .object([
            (
                "languages",
                .array(
                    languages.map {
                        .object([
                            ("locale", .string($0.locale)), ("deliveries", .array($0.deliveries.map(JSONValue.string))),
                        ])
                    })
            ),
            (
                "keys",
                .array(
                    keys.map {
                        .object([
                            ("key", .string($0.key)), ("text", .string($0.text.rawValue)),
                            ("arguments", .array($0.arguments.map(JSONValue.int))),
                            ("deliveries", .array($0.deliveries.map(JSONValue.string))),
                        ])
                    })
            ),
            (
                "snippets",
                .array(
                    snippets.map {
                        .object([
                            ("fileName", .string($0.fileName)), ("title", .string($0.title)),
                            ("code", .string($0.code)),
                        ])
                    })
            ),
        ])
    }
}

extension DeliveryText {
    /// Title, subtitle, body: the order of `<content>`.
    var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
