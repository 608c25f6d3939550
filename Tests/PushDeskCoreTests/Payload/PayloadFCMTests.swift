import XCTest

@testable import PushDeskCore

/// Exact FCM HTTP v1 and legacy requests (docs/PAYLOADS.md).
final class PayloadFCMTests: XCTestCase {
    let custom =
        #""mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","_mId":"5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10","_dId":"56c4""#
    let everyOption = AndroidOptions(
        type: .notification, priority: .high, ttl: "86400", collapseKey: "summer", channelId: "offers",
        sound: "default",
        icon: "ic_offer", color: "#FF6600", tag: "summer", clickAction: "OPEN_OFFER",
        image: "https://cdn.neotrips.example/summer.jpg",
        ticker: "Summer sale", sticky: false, visibility: .public, notificationPriority: .high, notificationCount: "1")

    func testDataMessage() {
        let d = PayloadFixture.delivery(
            subtitle: "not sent on Android",
            android: AndroidOptions(type: .data, priority: .high, ttl: "86400", collapseKey: "summer"))
        let t = PayloadFixture.target(d, app: "neotrips-android")
        XCTAssertEqual(
            t.payload.compact,
            #"{"message":{"token":"DEVICE_TOKEN","data":{"title":"Summer is here","_msg":"Hi Ana, 20% off until Sunday.","#
                + custom + #"},"android":{"priority":"HIGH","ttl":"86400s","collapse_key":"summer"}}}"#)
        // bytes = the message object without "token" (docs/PAYLOADS.md).
        let counted =
            #"{"data":{"title":"Summer is here","_msg":"Hi Ana, 20% off until Sunday.","#
            + custom + #"},"android":{"priority":"HIGH","ttl":"86400s","collapse_key":"summer"}}"#
        XCTAssertEqual(t.bytes, counted.utf8.count)
        XCTAssertEqual(t.endpoint, "https://fcm.googleapis.com/v1/projects/neotrips-12345/messages:send")
        XCTAssertEqual(t.api, .httpv1)
        XCTAssertNil(t.environment)
        XCTAssertTrue(t.headers.isEmpty)
        XCTAssertEqual(t.diagnostics, [])
    }

    func testDataMessageIsTheDefaultAndLeavesOutEmptyTexts() {
        let d = PayloadFixture.delivery(
            title: "", body: "Hi", variables: [VariableValue(name: "VAR", value: "")], tracking: nil)
        let t = PayloadFixture.target(d, app: "neotrips-android")
        XCTAssertEqual(
            t.payload.compact,
            #"{"message":{"token":"DEVICE_TOKEN","data":{"_msg":"Hi","_mId":"00000000-0000-0000-0000-000000000000","_dId":"00000000"}}}"#
        )
    }

    func testNotificationMessageWithEveryAndroidOption() {
        let d = PayloadFixture.delivery(android: everyOption)
        let t = PayloadFixture.target(d, app: "neotrips-android", token: "fcm-token-1")
        let message =
            #"{"notification":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday.","image":"https://cdn.neotrips.example/summer.jpg"},"data":{"#
            + custom
            + ##"},"android":{"priority":"HIGH","ttl":"86400s","collapse_key":"summer","notification":{"channel_id":"offers","sound":"default","icon":"ic_offer","color":"#FF6600","tag":"summer","click_action":"OPEN_OFFER","ticker":"Summer sale","sticky":false,"visibility":"PUBLIC","notification_priority":"PRIORITY_HIGH","notification_count":1}}}"##
        XCTAssertEqual(t.payload.compact, #"{"message":{"token":"fcm-token-1","# + message.dropFirst() + "}")
        XCTAssertEqual(t.bytes, message.utf8.count)
        XCTAssertEqual(t.diagnostics, [])
    }

    func testEnumSpellingsOfTheV1Reference() {
        for (v, s) in [(NotificationVisibility.public, "PUBLIC"), (.private, "PRIVATE"), (.secret, "SECRET")] {
            var o = everyOption
            o.visibility = v
            let n = PayloadFixture.target(PayloadFixture.delivery(android: o), app: "neotrips-android").payload[
                "message"]?["android"]?["notification"]
            XCTAssertEqual(n?["visibility"], .string(s))
        }
        for (p, s) in [
            (NotificationPriority.min, "PRIORITY_MIN"), (.low, "PRIORITY_LOW"), (.default, "PRIORITY_DEFAULT"),
            (.high, "PRIORITY_HIGH"), (.max, "PRIORITY_MAX"),
        ] {
            var o = everyOption
            o.notificationPriority = p
            let n = PayloadFixture.target(PayloadFixture.delivery(android: o), app: "neotrips-android").payload[
                "message"]?["android"]?["notification"]
            XCTAssertEqual(n?["notification_priority"], .string(s))
        }
        var o = everyOption
        o.priority = .normal
        XCTAssertEqual(
            PayloadFixture.target(PayloadFixture.delivery(android: o), app: "neotrips-android")
                .payload["message"]?["android"]?["priority"], .string("NORMAL"))
    }

    func testNotificationOptionsOnADataMessageAreNotSentButReported() {
        var o = everyOption
        o.type = .data
        let t = PayloadFixture.target(PayloadFixture.delivery(android: o), app: "neotrips-android")
        XCTAssertNil(t.payload["message"]?["notification"])
        XCTAssertNil(t.payload["message"]?["android"]?["notification"])
        XCTAssertEqual(
            t.diagnostics.filter { $0.rule == "android.ignored-option" }.map(\.field),
            [
                "android.channelId", "android.sound", "android.icon", "android.color", "android.tag",
                "android.clickAction",
                "android.image", "android.ticker", "android.sticky", "android.visibility",
                "android.notificationPriority",
                "android.notificationCount",
            ])
    }

    func testLegacyRequestAlwaysWarns() {
        let d = PayloadFixture.delivery(android: everyOption)
        let t = PayloadFixture.target(d, app: "neotrips-android", service: PayloadFixture.service(api: .legacy))
        let body =
            #"{"priority":"high","time_to_live":86400,"collapse_key":"summer","data":{"# + custom
            + ##"},"notification":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday.","icon":"ic_offer","sound":"default","tag":"summer","color":"#FF6600","click_action":"OPEN_OFFER"}}"##
        XCTAssertEqual(t.payload.compact, #"{"to":"DEVICE_TOKEN","# + body.dropFirst())
        XCTAssertEqual(t.bytes, body.utf8.count)
        XCTAssertEqual(t.endpoint, "https://fcm.googleapis.com/fcm/send")
        XCTAssertEqual(t.api, .legacy)
        XCTAssertEqual(
            t.diagnostics.filter { $0.severity == .warning }.map { "\($0.rule) \($0.field)" },
            [
                "fcm.legacy-api apps[2].api",
                "legacy.ignored-option android.channelId", "legacy.ignored-option android.image",
                "legacy.ignored-option android.ticker", "legacy.ignored-option android.sticky",
                "legacy.ignored-option android.visibility", "legacy.ignored-option android.notificationPriority",
                "legacy.ignored-option android.notificationCount",
            ])
        XCTAssertEqual(t.diagnostics.first?.file, "services/neotrips.xml")
    }

    func testLegacyDataMessage() {
        let d = PayloadFixture.delivery(android: AndroidOptions(priority: .normal))
        let t = PayloadFixture.target(d, app: "neotrips-android", service: PayloadFixture.service(api: .legacy))
        XCTAssertEqual(
            t.payload.compact,
            #"{"to":"DEVICE_TOKEN","priority":"normal","data":{"title":"Summer is here","_msg":"Hi Ana, 20% off until Sunday.","#
                + custom + "}}")
        XCTAssertEqual(t.diagnostics.map(\.rule), ["fcm.legacy-api"])
    }

    func testTitleVariableCollidesOnlyInDataMessages() {
        var app = PayloadFixture.androidApp()
        app.variables = [AppVariable(name: "title")]
        let service = Service(name: "neotrips", label: "N", apps: [.android(app)])
        let values = [VariableValue(name: "title", value: "x")]
        let data = PayloadFixture.target(
            PayloadFixture.delivery(variables: values), app: "neotrips-android", service: service)
        XCTAssertEqual(data.payload["message"]?["data"]?["title"], .string("Summer is here"))
        XCTAssertEqual(data.diagnostics.map(\.rule), ["variable.collision"])
        let notif = PayloadFixture.target(
            PayloadFixture.delivery(android: AndroidOptions(type: .notification), variables: values),
            app: "neotrips-android", service: service)
        XCTAssertEqual(notif.payload["message"]?["data"]?["title"], .string("x"))
        XCTAssertEqual(notif.diagnostics, [])
    }
}
