import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The payload engine on a delivery in several languages: each variant's exact request, and
/// the localization keys in Apple's and Google's key order.
final class VariantPayloadTests: XCTestCase {
    typealias F = PayloadFixture

    static func summer(android: AndroidOptions = AndroidOptions(type: .notification, proxy: .deny)) -> Delivery {
        var d = F.delivery(ios: IOSOptions(launchImage: "launch.png"), android: android)
        d.content.localized = LocalizedKeys(
            titleKey: "SALE_TITLE", subtitleKey: "SALE_SUB", bodyKey: "SALE_BODY", titleArgs: ["Lisbon"],
            subtitleArgs: ["x"], bodyArgs: ["<%= recipient.firstName %>", "20%"])
        d.variants = [
            DeliveryVariant(
                locale: "de", title: "Der Sommer ist da", body: "Hallo <%= recipient.firstName %>, 20 % Rabatt."),
            .summerTraditionalChinese,
        ]
        return d
    }

    func p(_ d: Delivery, _ locale: PreviewLocale?, app: String? = nil) -> Preview {
        PreviewEngine.preview(
            delivery: d, service: F.service(), profile: F.ana, appKey: app, token: nil, now: F.now, locale: locale)
    }

    private static let ids = #""_mId":"5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10","_dId":"56c4""#
    private static let keysAPNs =
        #""launch-image":"launch.png","title-loc-key":"SALE_TITLE","title-loc-args":["Lisbon"],"subtitle-loc-key":"SALE_SUB","subtitle-loc-args":["x"],"loc-key":"SALE_BODY","loc-args":["Ana","20%"]"#
    private static let keysFCM =
        #""android":{"notification":{"proxy":"DENY","title_loc_key":"SALE_TITLE","title_loc_args":["Lisbon"],"body_loc_key":"SALE_BODY","body_loc_args":["Ana","20%"]}}"#

    func testEachVariantsAPNsPayloadWithLocalizationKeysAfterLaunchImage() {
        let expected: [(PreviewLocale?, String?, String)] = [
            (
                nil, nil,
                #"{"aps":{"alert":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday.","#
                    + Self.keysAPNs
                    + #"}},"mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","# + Self.ids + "}"
            ),
            (
                .tag(LocaleTag("DE")!), "de",
                #"{"aps":{"alert":{"title":"Der Sommer ist da","body":"Hallo Ana, 20 % Rabatt.","# + Self.keysAPNs
                    + #"}},"mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","# + Self.ids + "}"
            ),
            (
                .tag(LocaleTag("zh_Hant_TW")!), "zh-Hant",
                #"{"aps":{"alert":{"title":"夏天來了","body":"週日前八折。","# + Self.keysAPNs
                    + #"}},"mediaUrl":"https://cdn.neotrips.example/summer-zh.jpg","VAR":"offers","# + Self.ids + "}"
            ),
        ]
        for (locale, tag, json) in expected {
            let t = p(Self.summer(), locale, app: "neotrips-ios").targets[0]
            XCTAssertEqual(t.locale, tag)
            XCTAssertEqual(t.payload.compact, json)
            XCTAssertEqual(t.bytes, json.utf8.count)
            XCTAssertEqual(t.diagnostics.map(\.formatted), [])
        }
    }

    func testEachVariantsFCMv1MessageWithLocalizationKeysAfterProxy() {
        let expected: [(PreviewLocale?, String)] = [
            (
                nil,
                #"{"message":{"token":"DEVICE_TOKEN","notification":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday."},"data":{"mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","#
                    + Self.ids + "}," + Self.keysFCM + "}}"
            ),
            (
                .tag(LocaleTag("zh-Hant")!),
                #"{"message":{"token":"DEVICE_TOKEN","notification":{"title":"夏天來了","body":"週日前八折。"},"data":{"mediaUrl":"https://cdn.neotrips.example/summer-zh.jpg","VAR":"offers","#
                    + Self.ids + "}," + Self.keysFCM + "}}"
            ),
        ]
        for (locale, json) in expected {
            let t = p(Self.summer(), locale, app: "neotrips-android").targets[0]
            XCTAssertEqual(t.payload.compact, json)
            XCTAssertEqual(t.diagnostics.map(\.formatted), [])
        }
    }

    /// A type or message that carries no keys sends none, with its warning; the legacy API none.
    func testNoLocalizationKeysWhereTheyCannotGo() {
        let data = p(Self.summer(android: AndroidOptions()), nil, app: "neotrips-android").targets[0]
        XCTAssertFalse(data.payload.compact.contains("loc_"), data.payload.compact)
        XCTAssertEqual(data.diagnostics.map(\.rule), ["localized.data-message"])
        let legacy = PreviewEngine.preview(
            delivery: Self.summer(), service: F.service(api: .legacy), profile: F.ana, appKey: "neotrips-android",
            token: nil, now: F.now
        ).targets[0]
        XCTAssertFalse(legacy.payload.compact.contains("loc"), legacy.payload.compact)
        var silent = Self.summer()
        silent.content.title = ""
        silent.content.body = ""
        silent.variants = []
        silent.ios = IOSOptions(type: .silent)
        let t = p(silent, nil, app: "neotrips-ios").targets[0]
        XCTAssertEqual(
            t.payload.compact,
            #"{"aps":{"content-available":1},"mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","#
                + Self.ids + "}")
        XCTAssertEqual(t.diagnostics.map(\.rule), ["localized.type"])
    }

    /// A variant's texts replace the default's as a set: one with values and no text sends
    /// no text, and the finding is on the variant's field.
    func testAVariantWithValuesAndNoTextSendsNoText() {
        var d = Self.summer()
        d.content.localized = nil
        d.variants = [
            DeliveryVariant(locale: "fr", variables: [VariableValue(name: "VAR", value: "offres")])
        ]
        let t = p(d, .tag(LocaleTag("fr-CA")!), app: "neotrips-ios").targets[0]
        XCTAssertEqual(t.locale, "fr")
        XCTAssertEqual(
            t.payload.compact,
            #"{"aps":{"alert":{"launch-image":"launch.png"}},"mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offres","#
                + Self.ids + "}")
        XCTAssertEqual(t.diagnostics.map { "\($0.rule) \($0.field)" }, ["alert.empty variant[fr].body"])
    }

    func testALanguageWithoutAVariantGetsTheDefault() {
        var d = Self.summer()
        d.variants = [DeliveryVariant(locale: "pt-PT", title: "Verão", body: "Olá")]
        let t = p(d, .tag(LocaleTag("pt-BR")!), app: "neotrips-ios").targets[0]
        XCTAssertNil(t.locale)
        XCTAssertTrue(t.payload.compact.contains(#""title":"Summer is here""#), t.payload.compact)
    }

    /// `--locale all`: for each app the default then each variant, in file order.
    func testAllGivesEachAppTheDefaultThenEveryVariant() {
        let preview = p(Self.summer(), .all)
        XCTAssertEqual(
            preview.targets.map { "\($0.app) \($0.locale ?? "null")" },
            [
                "neotrips-ios-dev null", "neotrips-ios-dev de", "neotrips-ios-dev zh-Hant", "neotrips-ios null",
                "neotrips-ios de", "neotrips-ios zh-Hant", "neotrips-android null", "neotrips-android de",
                "neotrips-android zh-Hant",
            ])
        XCTAssertEqual(preview.targets[4], p(Self.summer(), .tag(LocaleTag("de")!)).targets[1])
        let json = preview.json.compact
        XCTAssertTrue(
            json.contains(#""platform":"ios","environment":"production","locale":"de","api":"apns""#), json)
        XCTAssertTrue(json.contains(#""platform":"android","locale":null,"api":"httpv1""#), json)
    }

    /// A list's size column is the largest payload of any variant on any app.
    func testTheLargestPayloadCountsEveryVariant() throws {
        var d = Self.summer()
        d.variants[1].body = String(repeating: "八", count: 600)
        let all = PreviewEngine.preview(
            delivery: d, service: F.service(), profile: nil, appKey: nil, token: nil, now: F.now, locale: .all)
        let largest = try XCTUnwrap(PreviewEngine.largestPayload(delivery: d, service: F.service()))
        XCTAssertEqual(largest.bytes, all.targets.map(\.bytes).max())
        XCTAssertEqual(all.targets.first { $0.bytes == largest.bytes }?.locale, "zh-Hant")
        XCTAssertGreaterThan(
            largest.bytes,
            try XCTUnwrap(PreviewEngine.largestPayload(delivery: Self.summer(), service: F.service())).bytes)
    }

    /// Findings inside a variant name its field; `size.limit` names the locale.
    func testFindingsInAVariantNameItsFieldAndSizeNamesTheLocale() {
        var d = Self.summer()
        d.variants[1].body = String(repeating: "八", count: 1400)
        d.variants[1].variables = [VariableValue(name: "mediaUrl", value: "http://cdn.neotrips.example/zh.jpg")]
        d.variants[0].body = "Hallo <%= recipient.nickname %>"
        let all = p(d, .all)
        let zh = all.targets[2]
        XCTAssertEqual(zh.locale, "zh-Hant")
        let size = zh.diagnostics.first { $0.rule == "size.limit" }
        XCTAssertEqual(
            size?.message,
            "the zh-Hant variant's payload is \(zh.bytes) bytes, over the 4096-byte limit by \(zh.bytes - 4096); shorten the texts or variable values"
        )
        XCTAssertEqual(size?.field.description, "payload")
        XCTAssertEqual(
            all.diagnostics.map { "\($0.rule) \($0.field)" },
            ["personalization.unknown-field variant[de].body", "image.url variant[zh-Hant].values.mediaUrl"])
        XCTAssertNil(all.targets[0].diagnostics.first { $0.rule == "size.limit" })
        // validate checks every variant against every app.
        let found = DeliveryRules.check(delivery: d, service: F.service(), profiles: [], now: F.now)
        XCTAssertEqual(
            Set(found.filter { $0.severity == .error }.map { "\($0.rule) \($0.field)" }),
            ["size.limit payload", "image.url variant[zh-Hant].values.mediaUrl"])
        XCTAssertTrue(found.contains { $0.message.hasPrefix("the zh-Hant variant's payload is") })
    }
}
