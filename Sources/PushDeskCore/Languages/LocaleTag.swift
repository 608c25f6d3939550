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
    /// subtags than language, script and region). Read byte by byte: previews, the rules and
    /// a CSV import read every variant's tag many times, so this stays allocation-light.
    public init?(_ text: String) {
        var utf8 = Array(text.utf8)
        // The subtags as ranges of `utf8`, split at `-` and `_`; more than three is no tag.
        var ranges: [Range<Int>] = []
        var start = 0
        for i in 0...utf8.count where i == utf8.count || utf8[i] == 0x2D || utf8[i] == 0x5F {
            guard ranges.count < 3 else { return nil }
            ranges.append(start..<i)
            start = i + 1
        }
        let first = ranges[0]
        guard (2...3).contains(first.count), utf8[first].allSatisfy(Self.isLetter) else { return nil }
        var script: Range<Int>?
        var region: Range<Int>?
        for r in ranges.dropFirst() {
            let part = utf8[r]
            if script == nil, region == nil, r.count == 4, part.allSatisfy(Self.isLetter) {
                script = r
            } else if region == nil, r.count == 2, part.allSatisfy(Self.isLetter) {
                region = r
            } else if region == nil, r.count == 3, part.allSatisfy(Self.isDigit) {
                region = r
            } else {
                return nil
            }
        }
        // Canonical case in place: language lower, script title, region upper.
        for i in first { utf8[i] |= 0x20 }
        if let script {
            utf8[script.lowerBound] &= ~0x20
            for i in script.dropFirst() { utf8[i] |= 0x20 }
        }
        if let region, Self.isLetter(utf8[region.lowerBound]) {
            for i in region { utf8[i] &= ~0x20 }
        }
        self.language = String(decoding: utf8[first], as: UTF8.self)
        self.script = script.map { String(decoding: utf8[$0], as: UTF8.self) }
        self.region = region.map { String(decoding: utf8[$0], as: UTF8.self) }
    }

    private init(language: String, script: String?, region: String?) {
        self.language = language
        self.script = script
        self.region = region
    }

    /// The canonical form.
    public var description: String {
        // Concatenated, not joined from an array: every finding and lookup names its tag.
        var s = language
        if let script { s += "-" + script }
        if let region { s += "-" + region }
        return s
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

    private static func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    private static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
}
