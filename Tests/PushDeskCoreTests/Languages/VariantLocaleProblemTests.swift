import PushDeskCore
import XCTest

/// The console asks `variant.locale`'s check before it adds or renames a variant: the same
/// words the rule reports on a file, and nothing for a tag the delivery can take.
final class VariantLocaleProblemTests: XCTestCase {
    let delivery = Delivery(
        name: "summer-sale", service: "neotrips", content: DeliveryContent(title: "Summer is here"),
        variants: [DeliveryVariant(locale: "de", title: "Der Sommer ist da"), DeliveryVariant(locale: "zh-Hant")])

    func testANewTagIsRefusedAsTheRuleRefusesIt() {
        XCTAssertNil(DeliveryRules.variantLocaleProblem("pt_br", in: delivery))
        XCTAssertEqual(
            DeliveryRules.variantLocaleProblem("deutsch-1", in: delivery),
            "locale \"deutsch-1\" is no language tag; write language[-Script][-REGION], e.g. de, pt-BR, zh-Hant, es-419"
        )
        XCTAssertEqual(
            DeliveryRules.variantLocaleProblem("DE", in: delivery),
            "a second variant for de; a device gets only one, so keep one variant per language")
        XCTAssertEqual(
            DeliveryRules.variantLocaleProblem("Default", in: delivery)?.hasPrefix(
                "\"default\" names the delivery's own <content>"),
            true)
    }

    func testARenamedVariantDoesNotCountAgainstItself() {
        XCTAssertNil(DeliveryRules.variantLocaleProblem("DE", in: delivery, replacing: 0), "de → DE: itself")
        XCTAssertNotNil(
            DeliveryRules.variantLocaleProblem("zh-hant", in: delivery, replacing: 0), "de → zh-Hant: taken")
    }

    func testEnglishNamesOfTags() {
        XCTAssertEqual(LocaleTag("de")?.englishName, "German")
        XCTAssertEqual(LocaleTag("pt-BR")?.englishName, "Portuguese (Brazil)")
        XCTAssertNil(LocaleTag("qq")?.englishName, "a language ICU does not know has no name")
    }
}
