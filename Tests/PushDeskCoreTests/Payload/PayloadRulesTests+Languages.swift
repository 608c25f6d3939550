import Foundation
import XCTest

@testable import PushDeskCore

/// The language rules (docs/RULES.md "Languages"), each firing on its field and quiet on the
/// nearest correct delivery, as the other delivery rules.
extension PayloadRulesTests {
    /// The fixture delivery (title "Summer is here", body "Hello") with these variants and keys.
    static func lang(
        _ variants: [DeliveryVariant] = [], localized: LocalizedKeys? = nil, ios: IOSOptions = IOSOptions(),
        android: AndroidOptions = AndroidOptions()
    ) -> Delivery {
        var x = d(ios: ios, android: android)
        x.variants = variants
        x.content.localized = localized
        return x
    }

    static func de(_ title: String = "Der Sommer ist da", body: String = "Hallo") -> DeliveryVariant {
        DeliveryVariant(locale: "de", title: title, body: body)
    }

    /// `n` variants with distinct two-letter tags (`aa`, `ab`, …).
    static func many(_ n: Int) -> [DeliveryVariant] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<n).map { i in
            DeliveryVariant(
                locale: String([letters[i / 26], letters[i % 26]]), title: "Titel \(i)", body: "Text \(i)")
        }
    }

    static var languageCases: [Case] {
        [
            Case(
                rule: "variant.locale", severity: .error, field: "variant[deutsch].locale",
                fires: { p(lang([DeliveryVariant(locale: "deutsch", title: "Sommer", body: "Hallo")])) },
                quiet: { p(lang([DeliveryVariant(locale: "DE_de", title: "Sommer", body: "Hallo")])) }),
            Case(
                rule: "variant.locale", severity: .error, field: "variant[default].locale",
                fires: { p(lang([DeliveryVariant(locale: "default", title: "Sommer", body: "Hallo")])) },
                quiet: { p(lang([DeliveryVariant(locale: "de", title: "Sommer", body: "Hallo")])) }),
            Case(
                rule: "variant.locale", severity: .error, field: "variant[pt-BR].locale",
                fires: {
                    p(
                        lang([
                            DeliveryVariant(locale: "pt-BR", title: "Verão", body: "Olá"),
                            DeliveryVariant(locale: "pt_br", title: "Verão!", body: "Oi"),
                        ]))
                },
                quiet: {
                    p(
                        lang([
                            DeliveryVariant(locale: "pt-BR", title: "Verão", body: "Olá"),
                            DeliveryVariant(locale: "pt-PT", title: "Verão!", body: "Oi"),
                        ]))
                }),
            Case(
                rule: "variant.empty", severity: .error, field: "variant[de]",
                fires: { p(lang([DeliveryVariant(locale: "de", variables: [VariableValue(name: "VAR", value: "")])])) },
                quiet: { p(lang([DeliveryVariant(locale: "de", variables: [VariableValue(name: "VAR", value: "x")])])) }
            ),
            Case(
                rule: "variant.count", severity: .error, field: "variants",
                fires: { p(lang(many(201))) }, quiet: { p(lang(many(200))) }),
            Case(
                rule: "variant.missing-text", severity: .warning, field: "variant[de].body",
                fires: { p(lang([DeliveryVariant(locale: "de", title: "Der Sommer ist da")])) },
                quiet: { p(lang([de()])) }),
            Case(
                rule: "variant.untranslated", severity: .info, field: "variant[de].title",
                fires: { p(lang([de("Summer is here")])) }, quiet: { p(lang([de()])) }),
            Case(
                rule: "variant.unused", severity: .warning, field: "variants",
                fires: { p(lang([de()], ios: IOSOptions(type: .widgets))) }, quiet: { p(lang([de()])) }),
            Case(
                rule: "variant.fallback", severity: .info, field: "variants",
                fires: {
                    PreviewEngine.preview(
                        delivery: lang([DeliveryVariant(locale: "pt-PT", title: "Verão", body: "Olá")]),
                        service: F.service(), profile: F.ana, appKey: nil, token: nil, now: F.now,
                        locale: .tag(LocaleTag("pt-BR")!))
                },
                quiet: {
                    PreviewEngine.preview(
                        delivery: lang([DeliveryVariant(locale: "pt", title: "Verão", body: "Olá")]),
                        service: F.service(), profile: F.ana, appKey: nil, token: nil, now: F.now,
                        locale: .tag(LocaleTag("pt-BR")!))
                }),
            Case(
                rule: "localized.args", severity: .error, field: "content.localized.bodyArg",
                fires: { p(lang(localized: LocalizedKeys(titleKey: "T", bodyArgs: ["x"]))) },
                quiet: { p(lang(localized: LocalizedKeys(titleKey: "T", bodyKey: "B", bodyArgs: ["x"]))) }),
            Case(
                rule: "localized.type", severity: .warning, field: "content.localized",
                fires: { p(lang(localized: LocalizedKeys(bodyKey: "B"), ios: IOSOptions(type: .silent))) },
                quiet: { p(lang(localized: LocalizedKeys(bodyKey: "B"), ios: IOSOptions(type: .alert))) }),
            Case(
                rule: "localized.data-message", severity: .warning, field: "content.localized",
                fires: { p(lang(localized: LocalizedKeys(bodyKey: "B"))) },
                quiet: { p(lang(localized: LocalizedKeys(bodyKey: "B"), android: AndroidOptions(type: .notification))) }
            ),
        ]
    }

    /// The delivery-wide language findings are top level, once, in field order; a delivery
    /// without variants or keys has none of them.
    func testLanguageFindingsAreTopLevelInVariantOrder() {
        let preview = Self.p(
            Self.lang([
                DeliveryVariant(locale: "de", title: "Summer is here"),
                DeliveryVariant(locale: "xx-yy-zz", title: "?", body: "?"),
                DeliveryVariant(locale: "fr"),
            ]))
        let ids = Set(DeliveryRules.languageRules.map(\.id))
        XCTAssertEqual(
            preview.diagnostics.filter { ids.contains($0.rule) }.map { "\($0.rule) \($0.field)" },
            [
                "variant.locale variant[xx-yy-zz].locale", "variant.empty variant[fr]",
                "variant.missing-text variant[de].body", "variant.untranslated variant[de].title",
            ])
        XCTAssertTrue(preview.targets.allSatisfy { t in !t.diagnostics.contains { ids.contains($0.rule) } })
        XCTAssertEqual(
            Self.p(Self.d()).allFindings.filter { ids.contains($0.rule) }.map(\.formatted), [])
    }

    /// `validate` reports them on the delivery file at the variant's line.
    func testValidatePositionsLanguageFindingsInTheFile() throws {
        let root = try makeTempDir(self)
        let store = Store(root: root)
        try store.save(F.service())
        try store.save(Self.lang([DeliveryVariant(locale: "de", title: "Der Sommer ist da")]))
        let snapshot = store.loadAll()
        let findings = DeliveryRules.check(snapshot, now: F.now).filter { $0.rule == "variant.missing-text" }
        XCTAssertEqual(findings.map(\.formatted).count, 1)
        let f = try XCTUnwrap(findings.first)
        XCTAssertEqual(f.field.description, "variant[de].body")
        XCTAssertEqual(f.severity, .warning)
        XCTAssertNotNil(f.line)
    }
}
