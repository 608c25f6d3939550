import Foundation

/// One delivery as written, apart from any app: what the language checks look at (its
/// variants and localization keys, docs/FORMATS.md "Languages").
struct DeliveryInput {
    let delivery: Delivery
    let file: String

    func finding(_ rule: Rule, _ field: FieldPath, _ message: String) -> Finding {
        rule.finding(message, file: file, field: field)
    }
}

extension DeliveryRules {
    public static let variantLocale = Rule(
        "variant.locale", .error, .delivery, "a variant's locale is no language tag, is default, or is given twice")
    public static let variantEmpty = Rule(
        "variant.empty", .error, .delivery, "a variant with no title, subtitle, body or value")
    public static let variantCount = Rule("variant.count", .error, .delivery, "more than 200 variants")
    public static let variantMissingText = Rule(
        "variant.missing-text", .warning, .delivery, "the default has a title, subtitle or body a variant lacks")
    public static let variantUntranslated = Rule(
        "variant.untranslated", .info, .delivery, "a variant's title or body equals the default's")
    public static let variantUnused = Rule(
        "variant.unused", .warning, .target, "variants on an iOS push type that shows no text")
    public static let variantFallback = Rule(
        "variant.fallback", .info, .target, "a device's language has no variant: it gets the default")
    public static let localizedArgs = Rule(
        "localized.args", .error, .delivery, "localization arguments without their key")
    public static let localizedType = Rule(
        "localized.type", .warning, .target, "localization keys on an iOS push type other than alert")
    public static let localizedDataMessage = Rule(
        "localized.data-message", .warning, .target, "localization keys on an Android data message")

    /// The language rules, in the order of docs/RULES.md (after `all` in `RuleCatalog.all`).
    static let languageRules: [Rule] = [
        variantLocale, variantEmpty, variantCount, variantMissingText, variantUntranslated, variantUnused,
        variantFallback, localizedArgs, localizedType, localizedDataMessage,
    ]

    /// The delivery-wide language findings (`RuleCatalog.deliveryChecks`), on the delivery
    /// as written: a variant is compared with the default before either is personalized.
    static func languageFindings(_ delivery: Delivery, file: String) -> [Finding] {
        guard !delivery.variants.isEmpty || delivery.content.localized != nil else { return [] }
        let input = DeliveryInput(delivery: delivery, file: file)
        var out: [Finding] = []
        for check in RuleCatalog.deliveryChecks { check(input, into: &out) }
        return out
    }
}

/// The checks of a delivery's variants and localization keys: one row per rule, in the
/// order of their findings (`RuleCatalog.deliveryChecks`; the per-app rows are in
/// `IOSTargetRules` and `AndroidTargetRules`).
enum VariantRules {
    typealias R = DeliveryRules

    static let locale = RuleCheck<DeliveryInput>([R.variantLocale]) { t, out in
        var seen: [LocaleTag] = []
        for v in t.delivery.variants {
            var field: FieldPath { v.field.appending("locale") }
            guard let tag = v.tag else {
                let message =
                    v.locale.lowercased() == "default"
                    ? "\"default\" names the delivery's own <content>, not a variant; write the default's texts in <content> or give this variant a language tag such as de or pt-BR"
                    : "locale \"\(Escape.inline(v.locale))\" is no language tag; write language[-Script][-REGION], e.g. de, pt-BR, zh-Hant, es-419"
                out.append(t.finding(R.variantLocale, field, message))
                continue
            }
            if seen.contains(tag) {
                out.append(
                    t.finding(
                        R.variantLocale, field,
                        "a second variant for \(tag); a device gets only one, so keep one variant per language"))
            }
            seen.append(tag)
        }
    }

    static let empty = RuleCheck<DeliveryInput>([R.variantEmpty]) { t, out in
        for v in t.delivery.variants where v.hasNoText && !v.variables.contains(where: { !$0.value.isEmpty }) {
            out.append(
                t.finding(
                    R.variantEmpty, v.field,
                    "the variant for \(Escape.inline(v.tag?.description ?? v.locale)) has no title, subtitle, body or value; write its texts or remove it"
                ))
        }
    }

    static let count = RuleCheck<DeliveryInput>([R.variantCount]) { t, out in
        let n = t.delivery.variants.count
        guard n > DeliveryVariant.maxCount else { return }
        out.append(
            t.finding(
                R.variantCount, "variants",
                "\(n) variants; a delivery holds at most \(DeliveryVariant.maxCount): remove \(n - DeliveryVariant.maxCount)"
            ))
    }

    /// A text the default has and a variant leaves out is not sent in that variant. An empty
    /// variant is `variant.empty`'s alone.
    static let missingText = RuleCheck<DeliveryInput>([R.variantMissingText]) { t, out in
        let c = t.delivery.content
        for v in t.delivery.variants {
            guard !v.hasNoText || v.variables.contains(where: { !$0.value.isEmpty }) else { continue }
            for text in DeliveryText.allCases where !text.value(in: c).isEmpty && text.value(in: v).isEmpty {
                out.append(
                    t.finding(
                        R.variantMissingText, v.field.appending(text.rawValue),
                        "the default has a \(text.rawValue) and the variant for \(Escape.inline(v.tag?.description ?? v.locale)) has none, so its devices get no \(text.rawValue); translate it"
                    ))
            }
        }
    }

    static let untranslated = RuleCheck<DeliveryInput>([R.variantUntranslated]) { t, out in
        let c = t.delivery.content
        for v in t.delivery.variants {
            for text in [DeliveryText.title, .body]
            where !text.value(in: v).isEmpty && text.value(in: v) == text.value(in: c) {
                out.append(
                    t.finding(
                        R.variantUntranslated, v.field.appending(text.rawValue),
                        "the \(text.rawValue) of the variant for \(Escape.inline(v.tag?.description ?? v.locale)) is the default's; translate it or leave it to the default"
                    ))
            }
        }
    }

    static let localizedArgs = RuleCheck<DeliveryInput>([R.localizedArgs]) { t, out in
        guard let l = t.delivery.content.localized else { return }
        for a in LocalizedKeys.arguments {
            let args: [String] = l[keyPath: a.args]
            let key = LocalizedKeys.definitions.named(a.key).flatMap { $0.text(l) } ?? ""
            guard !args.isEmpty, key.isEmpty else { continue }
            out.append(
                t.finding(
                    R.localizedArgs, FieldPath("content", "localized", a.element),
                    "<\(a.element)> without \(a.key): the arguments fill the app's string for that key; set \(a.key) on <localized> or remove them"
                ))
        }
    }
}

extension DeliveryRules {
    /// `variant.fallback`: `tag` looks up no variant of a delivery that has some.
    static func fallback(_ tag: LocaleTag, delivery: Delivery, file: String) -> Finding? {
        let written = delivery.reachableVariants.compactMap { $0.tag?.description }
        guard !written.isEmpty else { return nil }
        let tried = tag.lookupChain.map(\.description).joined(separator: ", ")
        return variantFallback.finding(
            "no variant for \(tag) (tried \(tried); the delivery has \(written.joined(separator: ", "))), so it gets the default; add a variant \(tag) or \(tag.language) if its devices should get their language",
            file: file, field: "variants")
    }
}

extension LocalizedKeys {
    /// A key is set: the push carries localization keys.
    public var hasKey: Bool { Self.definitions.contains { $0.isSet(in: self) } }
}

extension IOSTargetRules {
    static let variantUnused = RuleCheck<IOSTarget>([R.variantUnused]) { t, out in
        guard !t.delivery.variants.isEmpty, t.type.content.isEmpty else { return }
        out.append(
            t.finding(
                R.variantUnused, "variants",
                "a \(t.type) push shows no text, so its variants are not used; remove them or use type=\"alert\""))
    }

    static let localizedType = RuleCheck<IOSTarget>([R.localizedType]) { t, out in
        guard t.content.localized?.hasKey == true, t.type != .alert else { return }
        out.append(
            t.finding(
                R.localizedType, "content.localized",
                "a \(t.type) push carries no localization keys, so they are not sent; use type=\"alert\" or remove <localized>"
            ))
    }
}

extension AndroidTargetRules {
    static let localizedDataMessage = RuleCheck<AndroidTarget>([R.localizedDataMessage]) { t, out in
        guard t.delivery.content.localized?.hasKey == true, t.options.effectiveType == .data else { return }
        out.append(
            t.finding(
                R.localizedDataMessage, "content.localized",
                "a data message carries no localization keys (the app draws it), so they are not sent; use type=\"notification\" or remove <localized>"
            ))
    }
}

extension DeliveryRules {
    /// Why `locale` cannot name a variant of `delivery` (no tag, `default`, or the tag of
    /// another variant), in `variant.locale`'s own words; nil when it can. `replacing` is the
    /// index of the variant being renamed, which does not count against itself. The console
    /// asks before it adds or renames a variant, so a draft never gets the finding.
    public static func variantLocaleProblem(_ locale: String, in delivery: Delivery, replacing: Int? = nil)
        -> String?
    {
        var d = delivery
        if let replacing, d.variants.indices.contains(replacing) { d.variants.remove(at: replacing) }
        func findings(_ variants: [DeliveryVariant]) -> [Finding] {
            d.variants = variants
            var out: [Finding] = []
            VariantRules.locale(DeliveryInput(delivery: d, file: Delivery.path(d.name)), into: &out)
            return out
        }
        // The check walks the variants in order, so the new one's finding comes last.
        let before = findings(d.variants).count
        let after = findings(d.variants + [DeliveryVariant(locale: locale)])
        return after.count > before ? after.last?.message : nil
    }
}
