import Foundation
import XCTest

@testable import PushDeskCore

/// Exact APNs requests (docs/PAYLOADS.md).
final class PayloadAPNsTests: XCTestCase {
    let tracking = #""_mId":"5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10","_dId":"56c4""#
    let variables = #""mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers""#

    func testAlertWithEveryIOSOption() throws {
        let d = PayloadFixture.delivery(
            subtitle: "Trips from 199 EUR",
            ios: IOSOptions(
                type: .alert, sound: "chime.caf", critical: false, volume: "1", badge: "3", category: "image",
                mutableContent: true, contentAvailable: true, threadId: "trips", interruptionLevel: .timeSensitive,
                relevanceScore: "0.8", targetContentId: "offers", launchImage: "Launch.png", priority: .immediate,
                collapseId: "summer", expiration: "2026-12-01T00:00:00Z"))
        let t = PayloadFixture.target(d, app: "neotrips-ios")
        let expected =
            #"{"aps":{"alert":{"title":"Summer is here","subtitle":"Trips from 199 EUR","body":"Hi Ana, 20% off until Sunday.","launch-image":"Launch.png"},"badge":3,"sound":"chime.caf","thread-id":"trips","category":"image","content-available":1,"mutable-content":1,"interruption-level":"time-sensitive","relevance-score":0.8,"target-content-id":"offers"},"#
            + variables + "," + tracking + "}"
        XCTAssertEqual(t.payload.compact, expected)
        XCTAssertEqual(t.bytes, expected.utf8.count)
        XCTAssertEqual(t.limit, 4096)
        XCTAssertEqual(t.endpoint, "https://api.push.apple.com/3/device/DEVICE_TOKEN")
        XCTAssertEqual(t.api, .apns)
        XCTAssertEqual(t.environment, .production)
        // apns-expiration checked against Foundation's own ISO 8601 parser.
        let exp = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-01T00:00:00Z"))
        XCTAssertEqual(Int(exp.timeIntervalSince1970), 1_796_083_200)
        XCTAssertEqual(
            t.headers.map { "\($0.name): \($0.value)" },
            [
                "apns-push-type: alert", "apns-priority: 10", "apns-topic: com.neotrips.app",
                "apns-expiration: 1796083200", "apns-collapse-id: summer",
            ])
        XCTAssertEqual(t.diagnostics, [], t.diagnostics.map(\.formatted).joined(separator: "\n"))
    }

    func testSandboxEndpointAndGivenToken() {
        let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
        let t = PayloadFixture.target(PayloadFixture.delivery(), app: "neotrips-ios-dev", token: token)
        XCTAssertEqual(t.endpoint, "https://api.sandbox.push.apple.com/3/device/" + token)
        XCTAssertEqual(t.environment, .sandbox)
        XCTAssertFalse(t.diagnostics.contains { $0.rule == "token.format" })
    }

    func testMinimalAlertDefaultsAndNoTracking() {
        let d = PayloadFixture.delivery(title: "", body: "Hello", variables: [], tracking: nil)
        let t = PayloadFixture.target(d, app: "neotrips-ios")
        XCTAssertEqual(
            t.payload.compact,
            #"{"aps":{"alert":{"body":"Hello"}},"_mId":"00000000-0000-0000-0000-000000000000","_dId":"00000000"}"#)
        XCTAssertEqual(t.headers.map(\.name), ["apns-push-type", "apns-priority", "apns-topic"])
        XCTAssertEqual(t.headers[1].value, "10")
    }

    func testSilentIsContentAvailableOnlyWithBackgroundHeaders() {
        let d = PayloadFixture.delivery(title: "", body: "", ios: IOSOptions(type: .silent))
        let t = PayloadFixture.target(d, app: "neotrips-ios")
        XCTAssertEqual(t.payload.compact, #"{"aps":{"content-available":1},"# + variables + "," + tracking + "}")
        XCTAssertEqual(
            t.headers.map { "\($0.name): \($0.value)" },
            ["apns-push-type: background", "apns-priority: 5", "apns-topic: com.neotrips.app"])
        XCTAssertEqual(t.diagnostics, [])
    }

    func testCriticalSoundIsADictionary() {
        let d = PayloadFixture.delivery(
            body: "Gate changed",
            ios: IOSOptions(
                sound: "chime.caf", critical: true, volume: "0.5",
                interruptionLevel: .critical))
        let t = PayloadFixture.target(d, app: "neotrips-ios")
        XCTAssertEqual(
            t.payload.compact,
            #"{"aps":{"alert":{"title":"Summer is here","body":"Gate changed"},"sound":{"critical":1,"name":"chime.caf","volume":0.5},"interruption-level":"critical"},"#
                + variables + "," + tracking + "}")
        XCTAssertEqual(
            t.diagnostics.map { "\($0.severity) \($0.rule) \($0.field)" },
            ["warning interruption.critical ios.interruptionLevel", "warning interruption.critical ios.critical"])
    }

    func testInvalidNumbersAreLeftOutAndReported() {
        let d = PayloadFixture.delivery(
            ios: IOSOptions(critical: true, volume: "1.5", badge: "-1", relevanceScore: ".8"))
        let t = PayloadFixture.target(d, app: "neotrips-ios")
        XCTAssertEqual(
            t.payload["aps"]?.compact,
            #"{"alert":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday."},"sound":{"critical":1,"name":"default"}}"#
        )
        let rules = Set(t.diagnostics.map(\.rule))
        XCTAssertTrue(rules.isSuperset(of: ["badge.range", "volume.range", "relevance.range"]), "\(rules)")
    }

    func testUndeclaredVariableIsNotSentAndReserved() {
        var ios = PayloadFixture.iosApp(.production)
        ios.variables = [AppVariable(name: "VAR"), AppVariable(name: "aps")]
        let service = Service(name: "neotrips", label: "N", apps: [.ios(ios)])
        let d = PayloadFixture.delivery(variables: [
            VariableValue(name: "aps", value: "x"), VariableValue(name: "mediaUrl", value: "https://a.example/i.png"),
            VariableValue(name: "VAR", value: "v"),
        ])
        let p = PayloadFixture.preview(d, service: service)
        XCTAssertEqual(
            p.targets[0].payload.compact,
            #"{"aps":{"alert":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday."}},"VAR":"v","# + tracking
                + "}")
        XCTAssertEqual(p.diagnostics.map(\.rule), ["variable.reserved"])
        XCTAssertEqual(
            p.targets[0].diagnostics.filter { $0.file == "deliveries/summer-sale.xml" }.map {
                "\($0.rule) \($0.field)"
            },
            ["variable.undeclared variables.mediaUrl"])
        // The app's own declaration of `aps` is the service rules' finding, shown on the target.
        XCTAssertTrue(
            p.targets[0].diagnostics.contains { $0.rule == "variable.reserved" && $0.file == "services/neotrips.xml" })
    }
}
