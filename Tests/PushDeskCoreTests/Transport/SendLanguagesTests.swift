import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk send` of one delivery to four test devices in four languages, through the
/// loopback APNs and FCM mocks: each device receives its variant byte for byte.
final class SendLanguagesTests: XCTestCase {
    typealias T = MockPushServices.Token

    func testFourDevicesInFourLanguagesEachGetTheirVariant() throws {
        let mock = try MockPushServices(self)
        let multi = PayloadCLITests.multilingual
            .replacingOccurrences(
                of: "  </variants>",
                with:
                    "    <variant locale=\"fr\"><title>L'été est là</title><body>Bonjour</body></variant>\n  </variants>"
            )
        try Data(multi.utf8).write(to: mock.store.appendingPathComponent("deliveries/multi.xml"))
        let de = String(repeating: "11", count: 32)
        let zh = String(repeating: "22", count: 32)
        let pt = String(repeating: "33", count: 32)
        var ana = DemoStore.ana
        ana.fields.append(("locale", "pt-BR"))
        ana.subscriptions = [
            Subscription(app: "neotrips-ios-dev", token: de, label: "iPhone DE", locale: "de_AT"),
            Subscription(app: "neotrips-ios-dev", token: zh, label: "iPhone TW", locale: "zh-Hant-TW"),
            Subscription(app: "neotrips-ios-dev", token: pt, label: "iPhone BR"),
            Subscription(app: "neotrips-android", token: T.fcmOK, label: "Pixel CA", locale: "fr-CA"),
        ]
        try Store(root: mock.store).save(ana)
        let r = try runPushDesk(
            ["send", "multi", "--store", mock.store.path, "--profile", "ana", "--json"],
            environment: mock.environment())
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap(doc["results"] as? [[String: Any]])
        XCTAssertEqual(results.map { $0["outcome"] as? String }, ["sent", "sent", "sent", "sent"])
        XCTAssertEqual(
            results.map { ($0["locale"] as? String) ?? "null" }, ["de", "zh-Hant", "null", "fr"])
        XCTAssertEqual(mock.problems, [])

        // The wire body of each is `preview --locale TAG --message-id ID` for that device.
        for (i, (token, tag)) in [(de, "de_AT"), (zh, "zh-Hant-TW"), (pt, "pt-BR"), (T.fcmOK, "fr-CA")].enumerated() {
            let id = try XCTUnwrap(results[i]["messageId"] as? String)
            let app = token == T.fcmOK ? "neotrips-android" : "neotrips-ios-dev"
            let printed = try runPushDesk([
                "preview", "multi", "--store", mock.store.path, "--profile", "ana", "--app", app, "--token", token,
                "--message-id", id, "--locale", tag, "--json",
            ])
            XCTAssertEqual(printed.status, 0, printed.stderr)
            let target = try XCTUnwrap(
                ((try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])?["targets"]
                    as? [[String: Any]])?.first)
            let sent = try XCTUnwrap(
                token == T.fcmOK
                    ? mock.google.requests.first { $0.path.hasSuffix("messages:send") }
                    : mock.apns.requests.first { $0.path.hasSuffix(token) })
            let wire = try JSONSerialization.jsonObject(with: Data(sent.body)) as? NSDictionary
            XCTAssertEqual(target["payload"] as? NSDictionary, wire, tag)
            XCTAssertEqual(target["bytes"] as? Int, results[i]["bytes"] as? Int, tag)
        }
        let texts = [de, zh, pt].map { token in
            String(decoding: mock.apns.requests.first { $0.path.hasSuffix(token) }!.body, as: UTF8.self)
        }
        XCTAssertTrue(texts[0].contains(#""title":"Der Sommer ist da""#), texts[0])
        XCTAssertTrue(texts[1].contains(#""title":"夏天來了""#), texts[1])
        XCTAssertTrue(texts[1].contains(#""mediaUrl":"https://cdn.neotrips.example/summer-zh.jpg""#), texts[1])
        XCTAssertTrue(texts[2].contains(#""title":"Summer is here""#), texts[2])
        let fcm = String(
            decoding: mock.google.requests.first { $0.path.hasSuffix("messages:send") }!.body, as: UTF8.self)
        XCTAssertTrue(fcm.contains(#""title":"L'été est là""#), fcm)

        // The send log says which variant each device got.
        let lines = try String(
            contentsOf: mock.store.appendingPathComponent(".pushdesk/sent.jsonl"), encoding: .utf8
        ).split(separator: "\n")
        let logged = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(logged.map { ($0["locale"] as? String) ?? "null" }, ["de", "zh-Hant", "null", "fr"])
        XCTAssertTrue(logged.allSatisfy { Set($0.keys) == Set(SendLog.keys) })
    }
}
