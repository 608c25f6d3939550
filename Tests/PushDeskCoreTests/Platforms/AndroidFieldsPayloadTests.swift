import XCTest

@testable import PushDeskCore

/// The Android fields of 2025 (docs/PAYLOADS.md), pinned as JSON: each alone and all together, in a
/// notification message, a data message and on the legacy API. firebase-admin 7.7 encodes
/// them the same way: `android.bandwidth_constrained_ok` and `restricted_satellite_ok` after
/// `direct_boot_ok`, `android.notification.proxy` after `notification_count`, and
/// `fcm_options.analytics_label` last in the message.
final class AndroidFieldsPayloadTests: XCTestCase {
    let custom =
        #""mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","_mId":"5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10","_dId":"56c4""#
    let notification = #""notification":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday."}"#
    var dataData: String { #""data":{"title":"Summer is here","_msg":"Hi Ana, 20% off until Sunday.","# + custom + "}" }
    var notificationData: String { #""data":{"# + custom + "}" }

    private func message(_ o: AndroidOptions, fid: Bool = false) -> (payload: String, target: PreviewTarget) {
        let p = PreviewEngine.preview(
            delivery: PayloadFixture.delivery(android: o), service: PayloadFixture.service(),
            profile: PayloadFixture.ana,
            appKey: "neotrips-android", token: fid ? "dAbCdEfGhIjKlMnOpQrStU" : nil, fid: fid, now: PayloadFixture.now)
        return (p.targets[0].payload.compact, p.targets[0])
    }

    private func rules(_ t: PreviewTarget) -> [String] { t.diagnostics.map { "\($0.rule) \($0.field)" } }

    func testEachFieldAloneInANotificationMessage() {
        let n = AndroidDeliveryType.notification
        let head = #"{"message":{"token":"DEVICE_TOKEN","# + notification + "," + notificationData
        let cases: [(AndroidOptions, String)] = [
            (AndroidOptions(type: n, bandwidthConstrainedOk: true), #","android":{"bandwidth_constrained_ok":true}}}"#),
            (
                AndroidOptions(type: n, bandwidthConstrainedOk: false),
                #","android":{"bandwidth_constrained_ok":false}}}"#
            ),
            (AndroidOptions(type: n, restrictedSatelliteOk: true), #","android":{"restricted_satellite_ok":true}}}"#),
            (AndroidOptions(type: n, restrictedSatelliteOk: false), #","android":{"restricted_satellite_ok":false}}}"#),
            (AndroidOptions(type: n, proxy: .allow), #","android":{"notification":{"proxy":"ALLOW"}}}}"#),
            (AndroidOptions(type: n, proxy: .deny), #","android":{"notification":{"proxy":"DENY"}}}}"#),
            (
                AndroidOptions(type: n, proxy: .ifPriorityLowered),
                #","android":{"notification":{"proxy":"IF_PRIORITY_LOWERED"}}}}"#
            ),
            (
                AndroidOptions(type: n, analyticsLabel: "summer-sale"),
                #","fcm_options":{"analytics_label":"summer-sale"}}}"#
            ),
        ]
        for (o, tail) in cases {
            let (payload, t) = message(o)
            XCTAssertEqual(payload, head + tail)
            XCTAssertEqual(rules(t), [], payload)
            // bytes: the message without its token (docs/PAYLOADS.md).
            XCTAssertEqual(
                t.bytes, ("{" + (head + tail).dropFirst(#"{"message":{"token":"DEVICE_TOKEN","#.count)).utf8.count - 1)
        }
    }

    func testAllTogetherInANotificationMessageAfterTheOlderFieldsInTheirPlaces() {
        let o = AndroidOptions(
            type: .notification, priority: .high, ttl: "60", directBootOk: true, channelId: "offers",
            notificationCount: "2", bandwidthConstrainedOk: true, restrictedSatelliteOk: false,
            proxy: .ifPriorityLowered, analyticsLabel: "summer-sale_2026.%7E~")
        let (payload, t) = message(o)
        XCTAssertEqual(
            payload,
            #"{"message":{"token":"DEVICE_TOKEN","# + notification + "," + notificationData
                + #","android":{"priority":"HIGH","ttl":"60s","direct_boot_ok":true,"bandwidth_constrained_ok":true,"restricted_satellite_ok":false,"notification":{"channel_id":"offers","notification_count":2,"proxy":"IF_PRIORITY_LOWERED"}},"fcm_options":{"analytics_label":"summer-sale_2026.%7E~"}}}"#
        )
        XCTAssertEqual(rules(t), [])
        // An installation ID takes the token's place; the rest is the same.
        XCTAssertEqual(
            message(o, fid: true).payload,
            payload.replacingOccurrences(of: #""token":"DEVICE_TOKEN""#, with: #""fid":"dAbCdEfGhIjKlMnOpQrStU""#))
    }

    func testInADataMessageProxyIsLeftOutAndTheOthersAreSent() {
        for (o, tail) in [
            (AndroidOptions(bandwidthConstrainedOk: true), #","android":{"bandwidth_constrained_ok":true}}}"#),
            (AndroidOptions(restrictedSatelliteOk: true), #","android":{"restricted_satellite_ok":true}}}"#),
            (AndroidOptions(analyticsLabel: "x"), #","fcm_options":{"analytics_label":"x"}}}"#),
        ] {
            let (payload, t) = message(o)
            XCTAssertEqual(payload, #"{"message":{"token":"DEVICE_TOKEN","# + dataData + tail)
            XCTAssertEqual(rules(t), [])
        }
        let (payload, t) = message(AndroidOptions(proxy: .deny))
        XCTAssertEqual(payload, #"{"message":{"token":"DEVICE_TOKEN","# + dataData + "}}")
        XCTAssertEqual(rules(t), ["android.ignored-option android.proxy"])
        let all = message(
            AndroidOptions(
                directBootOk: false, bandwidthConstrainedOk: false, restrictedSatelliteOk: true, proxy: .allow,
                analyticsLabel: "campaign-7"))
        XCTAssertEqual(
            all.payload,
            #"{"message":{"token":"DEVICE_TOKEN","# + dataData
                + #","android":{"direct_boot_ok":false,"bandwidth_constrained_ok":false,"restricted_satellite_ok":true},"fcm_options":{"analytics_label":"campaign-7"}}}"#
        )
        XCTAssertEqual(rules(all.target), ["android.ignored-option android.proxy"])
    }

    func testTheLegacyAPISendsNoneOfThem() {
        let legacy = PayloadFixture.service(api: .legacy)
        for type in [AndroidDeliveryType.notification, .data] {
            let o = AndroidOptions(
                type: type, bandwidthConstrainedOk: true, restrictedSatelliteOk: true, proxy: .allow,
                analyticsLabel: "summer")
            let t = PayloadFixture.target(PayloadFixture.delivery(android: o), app: "neotrips-android", service: legacy)
            let body = t.payload.compact
            for key in [
                "bandwidth_constrained_ok", "restricted_satellite_ok", "proxy", "analytics_label", "fcm_options",
            ] {
                XCTAssertFalse(body.contains(key), "\(type): \(body)")
            }
            let expected =
                type == .notification
                ? [
                    "legacy.ignored-option android.bandwidthConstrainedOk",
                    "legacy.ignored-option android.restrictedSatelliteOk", "legacy.ignored-option android.proxy",
                    "legacy.ignored-option android.analyticsLabel",
                ]
                : [
                    "android.ignored-option android.proxy",
                    "legacy.ignored-option android.bandwidthConstrainedOk",
                    "legacy.ignored-option android.restrictedSatelliteOk",
                    "legacy.ignored-option android.analyticsLabel",
                ]
            XCTAssertEqual(rules(t).filter { !$0.hasPrefix("fcm.legacy-api") }, expected, "\(type)")
            let legacyBody =
                type == .notification
                ? #"{"to":"DEVICE_TOKEN","data":{"# + custom
                    + #"},"notification":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday."}}"#
                : #"{"to":"DEVICE_TOKEN","data":{"title":"Summer is here","_msg":"Hi Ana, 20% off until Sunday.","#
                    + custom + "}}"
            XCTAssertEqual(body, legacyBody)
        }
    }

    func testAMalformedLabelIsAnErrorAndNotSent() {
        for bad in ["summer sale", "", String(repeating: "a", count: 51), "été", "a/b"] where !bad.isEmpty {
            let (payload, t) = message(AndroidOptions(analyticsLabel: bad))
            XCTAssertFalse(payload.contains("fcm_options"), payload)
            XCTAssertEqual(rules(t), ["android.analytics-label android.analyticsLabel"], bad)
            XCTAssertEqual(t.diagnostics.first?.severity, .error)
        }
        XCTAssertEqual(rules(message(AndroidOptions(analyticsLabel: String(repeating: "a", count: 50))).target), [])
    }

    func testTheNewAttributesAreWrittenInTheirPlacesAndReadBack() throws {
        var d = PayloadFixture.delivery(
            android: AndroidOptions(
                type: .notification, directBootOk: true, notificationCount: "1", bandwidthConstrainedOk: true,
                restrictedSatelliteOk: false, proxy: .ifPriorityLowered, analyticsLabel: "summer"))
        d.variables = []
        let xml = try DeliveryXML.encode(d)
        XCTAssertTrue(
            xml.contains(
                #"<android type="notification" directBootOk="true" bandwidthConstrainedOk="true" restrictedSatelliteOk="false" notificationCount="1" proxy="ifPriorityLowered" analyticsLabel="summer"/>"#
            ), xml)
        XCTAssertEqual(try DeliveryXML.decode(Data(xml.utf8), file: "deliveries/summer-sale.xml").0, d)
        let bad = xml.replacingOccurrences(of: #"proxy="ifPriorityLowered""#, with: #"proxy="IF_PRIORITY_LOWERED""#)
        XCTAssertThrowsError(try DeliveryXML.decode(Data(bad.utf8), file: "deliveries/summer-sale.xml")) {
            XCTAssertTrue("\($0)".contains("allow|deny|ifPriorityLowered"), "\($0)")
        }
    }
}
