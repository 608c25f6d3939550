import Foundation
import XCTest

@testable import PushDeskCore

/// `pushdesk preview --locale` and `validate` on a delivery file in several languages.
extension PayloadCLITests {
    static let multilingual = """
        <?xml version="1.0" encoding="UTF-8"?>
        <delivery format="1" name="multi" label="Summer" service="neotrips">
          <content>
            <title>Summer is here</title>
            <body>Hi &lt;%= recipient.firstName %&gt;, 20% off until Sunday.</body>
            <localized bodyKey="SALE_BODY">
              <bodyArg>&lt;%= recipient.firstName %&gt;</bodyArg>
            </localized>
          </content>
          <variants>
            <variant locale="de">
              <title>Der Sommer ist da</title>
              <body>Hallo &lt;%= recipient.firstName %&gt;, 20 % Rabatt bis Sonntag.</body>
            </variant>
            <variant locale="zh-Hant">
              <title>夏天來了</title>
              <body>週日前八折。</body>
              <variables><value name="mediaUrl">https://cdn.neotrips.example/summer-zh.jpg</value></variables>
            </variant>
          </variants>
          <tracking messageId="5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10" deliveryId="56c4"/>
          <android type="notification"/>
          <variables>
            <value name="mediaUrl">https://cdn.neotrips.example/summer.jpg</value>
          </variables>
        </delivery>

        """

    func testPreviewLocaleBuildsTheVariantATagLooksUp() throws {
        try write("deliveries/multi.xml", Self.multilingual)
        let r = try pushdesk("preview", "multi", "--profile", "ana", "--locale", "zh_hant_tw", "--json")
        XCTAssertEqual(r.code, 0, r.err)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let targets = try XCTUnwrap(doc["targets"] as? [[String: Any]])
        XCTAssertEqual(targets.map { $0["locale"] as? String }, ["zh-Hant", "zh-Hant", "zh-Hant"])
        let ios = try XCTUnwrap(targets[1]["payload"] as? [String: Any])
        XCTAssertEqual(
            (ios["aps"] as? [String: Any])?["alert"] as? NSDictionary,
            ["title": "夏天來了", "body": "週日前八折。", "loc-key": "SALE_BODY", "loc-args": ["Ana"]] as NSDictionary)
        XCTAssertEqual(ios["mediaUrl"] as? String, "https://cdn.neotrips.example/summer-zh.jpg")
        let message = try XCTUnwrap((targets[2]["payload"] as? [String: Any])?["message"] as? [String: Any])
        XCTAssertEqual(
            (message["android"] as? [String: Any])?["notification"] as? NSDictionary,
            ["body_loc_key": "SALE_BODY", "body_loc_args": ["Ana"]] as NSDictionary)
        // The command prints what the engine builds from the same files.
        let store = Store(root: self.store)
        let engine = PreviewEngine.preview(
            delivery: try store.load(Delivery.self, "multi"), service: try store.load(Service.self, "neotrips"),
            profile: try store.load(Profile.self, "ana"), appKey: nil, token: nil, now: Date(),
            locale: .tag(LocaleTag("zh-Hant-TW")!))
        XCTAssertEqual(r.out.trimmingCharacters(in: .newlines), engine.json.pretty)
        // A language without a variant gets the default: "locale": null.
        let pt = try pushdesk("preview", "multi", "--locale", "pt-BR", "--json", "--app", "neotrips-ios")
        XCTAssertEqual(pt.code, 0, pt.err)
        XCTAssertTrue(pt.out.contains(#""locale": null,"#), pt.out)
        XCTAssertTrue(pt.out.contains(#""title": "Summer is here""#), pt.out)
    }

    func testPreviewLocaleAllListsEachAppsDefaultThenItsVariants() throws {
        try write("deliveries/multi.xml", Self.multilingual)
        let r = try pushdesk("preview", "multi", "--profile", "ana", "--locale", "all")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("multi → service neotrips, 9 targets\n"), r.out)
        let titles = r.out.split(separator: "\n").filter { $0.hasPrefix("== ") }
        XCTAssertEqual(
            titles,
            [
                "== neotrips-ios-dev · Neotrips iOS (sandbox) · ios sandbox · apns",
                "== neotrips-ios-dev · Neotrips iOS (sandbox) · ios sandbox · apns · variant de",
                "== neotrips-ios-dev · Neotrips iOS (sandbox) · ios sandbox · apns · variant zh-Hant",
                "== neotrips-ios · Neotrips iOS · ios production · apns",
                "== neotrips-ios · Neotrips iOS · ios production · apns · variant de",
                "== neotrips-ios · Neotrips iOS · ios production · apns · variant zh-Hant",
                "== neotrips-android · Neotrips Android · android · httpv1",
                "== neotrips-android · Neotrips Android · android · httpv1 · variant de",
                "== neotrips-android · Neotrips Android · android · httpv1 · variant zh-Hant",
            ])
        XCTAssertTrue(r.out.contains(#""body": "Hallo Ana, 20 % Rabatt bis Sonntag.","#), r.out)
    }

    func testPreviewLocaleRefusesWhatIsNoTag() throws {
        try write("deliveries/multi.xml", Self.multilingual)
        let r = try pushdesk("preview", "multi", "--locale", "german")
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(
            r.err.contains(
                "--locale takes a language tag, language[-Script][-REGION] (de, pt-BR, zh-Hant, es-419), or all"),
            r.err)
        XCTAssertEqual(r.out, "")
        let simulator = try pushdesk("preview", "multi", "--locale", "all", "--app", "neotrips-ios", "--simulator")
        XCTAssertEqual(simulator.code, 2)
        XCTAssertTrue(
            simulator.err.contains(
                "--simulator makes one file: give --locale one language tag (the variant that device gets), not all"),
            simulator.err)
        XCTAssertEqual(simulator.out, "")
    }

    /// `validate` checks every variant against every app, positioned in the file.
    func testValidateReportsFindingsInsideVariantsAtTheirLines() throws {
        let broken = Self.multilingual
            .replacingOccurrences(
                of: "https://cdn.neotrips.example/summer-zh.jpg", with: "http://cdn.neotrips.example/summer-zh.jpg"
            )
            .replacingOccurrences(of: #"<variant locale="de">"#, with: #"<variant locale="deutsch">"#)
        try write("deliveries/multi.xml", broken)
        let r = try pushdesk("validate")
        XCTAssertEqual(r.code, 1, r.out + r.err)
        let lines = (r.out + r.err).split(separator: "\n").filter { $0.contains("deliveries/multi.xml") }
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix(
                    "deliveries/multi.xml:11:14: error: variant[deutsch].locale: locale \"deutsch\" is no language tag")
                    && $0.hasSuffix("[variant.locale]")
            }, lines.joined(separator: "\n"))
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix("deliveries/multi.xml:18:18: error: variant[zh-Hant].values.mediaUrl:")
                    && $0.hasSuffix("[image.url]")
            }, lines.joined(separator: "\n"))
    }
}
