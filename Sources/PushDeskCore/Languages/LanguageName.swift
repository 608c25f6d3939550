import Foundation

extension LocaleTag {
    /// The language's English name (`German`, `Chinese, Traditional`, `Portuguese (Brazil)`),
    /// from the ICU data Foundation carries; nil for a language it does not know. Names are
    /// looked up once per tag: the console's Languages tab asks for every row.
    public var englishName: String? {
        LanguageNames.shared.name(of: description)
    }

    /// The language's English name alone (`German` for `de-AT`), the code itself when ICU
    /// does not know it: Campaign Standard's `language` column.
    public var englishLanguageName: String {
        LanguageNames.shared.name(of: language) ?? language
    }
}

/// The names already looked up (ICU is slow to answer the first time).
final class LanguageNames: @unchecked Sendable {
    static let shared = LanguageNames()
    private let lock = NSLock()
    private var names: [String: String?] = [:]
    private let english = Locale(identifier: "en")

    func name(of tag: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let known = names[tag] { return known }
        let found = english.localizedString(forIdentifier: tag).flatMap { $0 == tag ? nil : $0 }
        names[tag] = found
        return found
    }
}
