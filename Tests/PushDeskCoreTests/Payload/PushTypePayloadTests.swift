import XCTest

@testable import PushDeskCore

/// Each push type of docs/PAYLOADS.md previewed: headers, topic, payload shape, limit, and no
/// Android target for an iOS-only type. The expectations are docs/PAYLOADS.md's table, written out
/// here, not read from `PushType.all`.
final class PushTypePayloadTests: XCTestCase {
    typealias F = PayloadFixture

    static let custom =
        #""mediaUrl":"https://cdn.neotrips.example/summer.jpg","VAR":"offers","_mId":"5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10","_dId":"56c4""#

    /// type → (apns-push-type, topic, priority, limit, payload, Android target).
    static let table: [(String, String, String, String, Int, String, Bool)] = [
        (
            "alert", "alert", "com.neotrips.app", "10", 4096,
            #"{"aps":{"alert":{"title":"Summer is here","body":"Hi Ana, 20% off until Sunday."}},"# + custom + "}", true
        ),
        (
            "silent", "background", "com.neotrips.app", "5", 4096, #"{"aps":{"content-available":1},"# + custom + "}",
            true
        ),
        (
            "widgets", "widgets", "com.neotrips.app.push-type.widgets", "10", 4096,
            #"{"aps":{"content-changed":true}}"#, false
        ),
        (
            "controls", "controls", "com.neotrips.app.push-type.controls", "10", 4096,
            #"{"aps":{"content-changed":true}}"#, false
        ),
        ("voip", "voip", "com.neotrips.app.voip", "10", 5120, "{" + custom + "}", false),
        ("location", "location", "com.neotrips.app.location-query", "10", 4096, "{" + custom + "}", false),
        ("pushtotalk", "pushtotalk", "com.neotrips.app.voip-ptt", "10", 4096, "{" + custom + "}", false),
    ]

    func testEveryTypeHasItsHeadersTopicPayloadAndLimit() throws {
        for (name, pushType, topic, priority, limit, payload, android) in Self.table {
            let type = try XCTUnwrap(PushType(rawValue: name), name)
            // Texts a type does not send are left out, so they are empty here except for alert.
            let texts = name == "alert"
            let d = F.delivery(
                title: texts ? "Summer is here" : "",
                body: texts ? "Hi <%= recipient.firstName %>, 20% off until Sunday." : "",
                ios: IOSOptions(type: type))
            let p = F.preview(d)
            XCTAssertEqual(p.targets.contains { $0.platform == .android }, android, name)
            let t = try XCTUnwrap(p.targets.first { $0.app == "neotrips-ios" }, name)
            // Push-to-talk: Apple requires apns-expiration 0.
            XCTAssertEqual(
                t.headers.map { "\($0.name): \($0.value)" },
                ["apns-push-type: \(pushType)", "apns-priority: \(priority)", "apns-topic: \(topic)"]
                    + (name == "pushtotalk" ? ["apns-expiration: 0"] : []), name)
            XCTAssertEqual(t.payload.compact, payload, name)
            XCTAssertEqual(t.limit, limit, name)
            XCTAssertEqual(t.bytes, payload.utf8.count, name)
            XCTAssertEqual(p.allFindings.filter { $0.severity == .error }, [], name)
        }
    }

    func testEveryTypeIsTheTablesAndTheSchemasChoice() {
        XCTAssertEqual(
            PushType.all.map(\.name),
            ["alert", "silent", "liveactivity", "widgets", "controls", "voip", "location", "pushtotalk"])
        guard case .choice(let values, let dflt) = IOSOptions.definitions.named("type")?.kind else {
            return XCTFail("ios.type is a choice")
        }
        XCTAssertEqual(values, PushType.all.map(\.name))
        XCTAssertEqual(dflt, "alert")
    }

    /// Without its `<liveActivity>` element a Live Activity is blocked (`liveactivity.event`
    /// on the type); the request is iOS only, on the type's topic.
    func testLiveActivityWithoutItsElementIsBlocked() throws {
        let d = F.delivery(ios: IOSOptions(type: .liveactivity))
        let p = F.preview(d)
        XCTAssertFalse(p.targets.contains { $0.platform == .android })
        let t = try XCTUnwrap(p.targets.first { $0.app == "neotrips-ios" })
        XCTAssertEqual(t.headers[0].value, "liveactivity")
        XCTAssertEqual(t.headers[2].value, "com.neotrips.app.push-type.liveactivity")
        XCTAssertTrue(
            t.diagnostics.contains {
                $0.rule == "liveactivity.event" && $0.severity == .error && $0.field == "ios.type"
            })
    }

    /// `size.limit` takes the type's limit: 4,500 bytes pass as VoIP, not as an alert.
    func testSizeLimitIsTheTypesLimit() throws {
        let big = [VariableValue(name: "VAR", value: String(repeating: "x", count: 4400))]
        for (type, limit, over) in [(PushType.voip, 5120, false), (.silent, 4096, true)] {
            let d = F.delivery(title: "", body: "", ios: IOSOptions(type: type), variables: big)
            let t = try XCTUnwrap(F.preview(d).targets.first { $0.app == "neotrips-ios" })
            XCTAssertGreaterThan(t.bytes, 4400)
            XCTAssertEqual(t.limit, limit, type.name)
            XCTAssertEqual(t.diagnostics.contains { $0.rule == "size.limit" }, over, type.name)
        }
    }
}
