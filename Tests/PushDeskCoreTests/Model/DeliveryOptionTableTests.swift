import Foundation
import XCTest

@testable import PushDeskCore

/// The option tables against docs/FORMATS.md, and the two options added through them alone
/// (`filterCriteria`, `directBootOk`) end to end: file, preview, rules, recovery.
final class DeliveryOptionTableTests: XCTestCase {
    /// The complete attribute lists of docs/FORMATS.md and docs/schema/delivery.xsd, in the file's order.
    func testTablesAreTheSpecAttributeLists() {
        XCTAssertEqual(
            IOSOptions.definitions.names().joined(separator: " "),
            "type sound critical volume badge category mutableContent contentAvailable threadId interruptionLevel relevanceScore filterCriteria targetContentId launchImage priority collapseId expiration"
        )
        XCTAssertEqual(
            AndroidOptions.definitions.names().joined(separator: " "),
            "type priority ttl collapseKey directBootOk bandwidthConstrainedOk restrictedSatelliteOk channelId sound icon color tag clickAction image ticker sticky visibility notificationPriority notificationCount proxy analyticsLabel"
        )
    }

    func testNewOptionsAreWrittenInPlaceAndReadBack() throws {
        var d = Delivery(name: "focus", service: "neotrips", content: DeliveryContent(body: "Hi"))
        d.ios = IOSOptions(relevanceScore: "0.8", filterCriteria: "work", targetContentId: "offers")
        d.android = AndroidOptions(collapseKey: "summer", directBootOk: false, channelId: "offers")
        let xml = try DeliveryXML.encode(d)
        XCTAssertEqual(
            xml,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <delivery format="1" name="focus" label="" service="neotrips">
              <content>
                <body>Hi</body>
              </content>
              <ios relevanceScore="0.8" filterCriteria="work" targetContentId="offers"/>
              <android collapseKey="summer" directBootOk="false" channelId="offers"/>
            </delivery>

            """)
        let (back, _) = try DeliveryXML.decode(Data(xml.utf8), file: "deliveries/focus.xml")
        XCTAssertEqual(back, d)
        XCTAssertEqual(try DeliveryXML.encode(back), xml, "saving an unchanged record rewrites identical bytes")
    }

    func testADirectBootOkThatIsNoBooleanIsAPositionedError() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <delivery format="1" name="x" service="s">
              <android directBootOk="yes"/>
            </delivery>
            """
        XCTAssertThrowsError(try DeliveryXML.decode(Data(xml.utf8), file: "deliveries/x.xml")) { e in
            XCTAssertEqual(
                "\(e)", "deliveries/x.xml:3:12: error: `directBootOk` on <android> is \"yes\"; expected true|false")
        }
    }

    func testFilterCriteriaSitsBetweenRelevanceScoreAndTargetContentId() {
        let d = PayloadFixture.delivery(
            ios: IOSOptions(relevanceScore: "0.8", filterCriteria: "work", targetContentId: "offers"))
        let t = PayloadFixture.target(d, app: "neotrips-ios")
        XCTAssertEqual(
            t.payload.compact,
            #"{"aps":{"alert":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday."},"relevance-score":0.8,"filter-criteria":"work","target-content-id":"offers"},"mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","_mId":"5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10","_dId":"56c4"}"#
        )
        XCTAssertEqual(t.bytes, t.payload.compact.utf8.count)
        XCTAssertEqual(t.diagnostics, [])
    }

    func testFilterCriteriaIsNotSentSilently() {
        let d = PayloadFixture.delivery(title: "", body: "", ios: IOSOptions(type: .silent, filterCriteria: "work"))
        let t = PayloadFixture.target(d, app: "neotrips-ios")
        XCTAssertFalse(t.payload.compact.contains("filter-criteria"), t.payload.compact)
        XCTAssertEqual(
            t.diagnostics.map { "\($0.rule) \($0.field)" }, ["type.ignored-option ios.filterCriteria"])
    }

    func testDirectBootOkFollowsCollapseKeyOnV1ForDataAndNotificationMessages() {
        for type in AndroidDeliveryType.allCases {
            for value in [true, false] {
                let d = PayloadFixture.delivery(
                    android: AndroidOptions(type: type, collapseKey: "summer", directBootOk: value))
                let t = PayloadFixture.target(d, app: "neotrips-android")
                XCTAssertTrue(
                    t.payload.compact.hasSuffix(#""android":{"collapse_key":"summer","direct_boot_ok":\#(value)}}}"#),
                    t.payload.compact)
                XCTAssertEqual(t.diagnostics, [], "\(type) \(value)")
            }
        }
    }

    func testDirectBootOkIsNotSentOnLegacyAndSaysSo() {
        let d = PayloadFixture.delivery(android: AndroidOptions(collapseKey: "summer", directBootOk: true))
        let t = PayloadFixture.target(d, app: "neotrips-android", service: PayloadFixture.service(api: .legacy))
        XCTAssertFalse(t.payload.compact.contains("direct_boot"), t.payload.compact)
        XCTAssertEqual(
            t.diagnostics.filter { $0.field.description.hasPrefix("android.") }.map { "\($0.rule) \($0.field)" },
            ["legacy.ignored-option android.directBootOk"])
        XCTAssertTrue(t.diagnostics.contains { $0.rule == "fcm.legacy-api" })
    }

    /// A character XML cannot store becomes U+FFFD in a recovery file; the rest is kept.
    func testRecoveryKeepsTheNewOptions() throws {
        var d = Delivery(name: "focus", service: "neotrips")
        d.ios.filterCriteria = "work\u{1B}"
        d.android.directBootOk = true
        let (bytes, replaced) = RecoveryXML.delivery(d)
        XCTAssertTrue(replaced)
        let back = try DeliveryXML.decode(Data(bytes), file: "deliveries/focus.xml").0
        XCTAssertEqual(back.ios.filterCriteria, "work\u{FFFD}")
        XCTAssertEqual(back.android.directBootOk, true)
    }
}
