/// A language tag as deliveries and devices name a language: `language[-Script][-REGION]`
/// (language 2–3 ASCII letters, script 4 letters, region 2 letters or 3 digits), read in any
/// case and with `_` or `-`, written canonically — `de`, `pt-BR`, `zh-Hant`, `zh-Hant-TW`,
/// `es-419`. `default` names the delivery's own content and is no tag.
public struct LocaleTag: Hashable, Sendable, CustomStringConvertible {
    /// Lower case.
    public let language: String
    /// Title case (`Hant`).
    public let script: String?
    /// Upper case, or three digits (`419`).
    public let region: String?

    /// Nil when `text` is no tag (empty, `default`, a subtag of the wrong shape, or more
    /// subtags than language, script and region).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(Self.isLetter) else {
            return nil
        }
        var script: String?
        var region: String?
        for part in parts.dropFirst() {
            if script == nil, region == nil, part.count == 4, part.allSatisfy(Self.isLetter) {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if region == nil, part.count == 2, part.allSatisfy(Self.isLetter) {
                region = part.uppercased()
            } else if region == nil, part.count == 3, part.allSatisfy(Self.isDigit) {
                region = String(part)
            } else {
                return nil
            }
        }
        self.language = first.lowercased()
        self.script = script
        self.region = region
    }

    private init(language: String, script: String?, region: String?) {
        self.language = language
        self.script = script
        self.region = region
    }

    /// The canonical form.
    public var description: String {
        [language, script, region].compactMap { $0 }.joined(separator: "-")
    }

    /// The tags RFC 4647's lookup (§3.4) tries, most specific first: the tag, then the tag
    /// without its last subtag, down to the language (`zh-Hant-TW`, `zh-Hant`, `zh`).
    public var lookupChain: [LocaleTag] {
        var chain = [self]
        if region != nil { chain.append(LocaleTag(language: language, script: script, region: nil)) }
        if script != nil { chain.append(LocaleTag(language: language, script: nil, region: nil)) }
        return chain
    }

    /// The first of `candidates` that `tag`'s lookup chain reaches (nil: the default).
    /// `pt-BR` with only `pt-PT` reaches none.
    public static func lookup(_ tag: LocaleTag, in candidates: [LocaleTag]) -> LocaleTag? {
        for t in tag.lookupChain where candidates.contains(t) { return t }
        return nil
    }

    private static func isLetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }
    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
}
