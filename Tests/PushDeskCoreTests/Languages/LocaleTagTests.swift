import XCTest

@testable import PushDeskCore

/// Locale tags as devices, files and the command line write them, and RFC 4647's lookup.
final class LocaleTagTests: XCTestCase {
    func testTagsAreReadInAnyCaseWithEitherSeparatorAndWrittenCanonically() {
        let cases: [(String, String)] = [
            ("de", "de"), ("DE", "de"), ("pt-br", "pt-BR"), ("pt_BR", "pt-BR"), ("en_us", "en-US"),
            ("zh-hant", "zh-Hant"), ("ZH_HANT_tw", "zh-Hant-TW"), ("zh-Hans-CN", "zh-Hans-CN"), ("es-419", "es-419"),
            ("fil", "fil"), ("yue-HK", "yue-HK"),
        ]
        for (written, canonical) in cases {
            XCTAssertEqual(LocaleTag(written)?.description, canonical, written)
        }
    }

    func testWhatIsNoTag() {
        for text in [
            "", "default", "d", "deut", "de-", "-de", "de--DE", "de-D", "de-DEU", "de-12", "de-1234",
            "zh-Hant-Hans", "de-DE-CH", "de-DE-Hant", "en-US-u-ca-gregory", "dé", "de DE", "e1", "de-Latn-",
        ] {
            XCTAssertNil(LocaleTag(text), "\(text) is no tag")
        }
    }

    func testLookupDropsTheLastSubtagUntilAVariantMatchesElseTheDefault() {
        let variants = ["de", "zh-Hant", "pt-PT", "es-419"].compactMap(LocaleTag.init)
        func looked(_ device: String) -> String? {
            LocaleTag.lookup(LocaleTag(device)!, in: variants)?.description
        }
        XCTAssertEqual(looked("de-AT"), "de")
        XCTAssertEqual(looked("de"), "de")
        XCTAssertEqual(looked("zh-Hant-TW"), "zh-Hant")
        XCTAssertEqual(LocaleTag("zh-Hant-TW")!.lookupChain.map(\.description), ["zh-Hant-TW", "zh-Hant", "zh"])
        XCTAssertNil(looked("zh-Hans-CN"), "Simplified Chinese does not get the Traditional variant")
        XCTAssertNil(looked("zh-TW"), "zh-TW tries zh-TW and zh, not zh-Hant")
        XCTAssertNil(looked("pt-BR"), "pt-BR with only pt-PT gets the default")
        XCTAssertEqual(looked("ES_419"), "es-419")
        XCTAssertNil(looked("en-US"))
    }
}
