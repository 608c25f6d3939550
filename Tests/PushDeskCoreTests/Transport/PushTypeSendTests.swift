import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// Every push type of docs/PAYLOADS.md but `liveactivity` sent by `pushdesk send --profile` through
/// the loopback APNs mock, which checks topic, push type, priority, expiration and size per
/// type as Apple does: the wire body is `preview --json --message-id …` byte for byte, the
/// profile's subscription of the type's token kind is used, and Android devices of an
/// iOS-only type are `skipped` (`type.ios-only`).
final class PushTypeSendTests: XCTestCase {
    typealias T = MockPushServices.Token

    private func json(_ r: CommandResult) throws -> [String: Any] {
        guard let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "no JSON", code: 0, userInfo: [NSLocalizedDescriptionKey: r.stdout + r.stderr])
        }
        return doc
    }

    /// type → (token kind, apns-push-type, apns-topic, apns-priority), from docs/PAYLOADS.md.
    static let types: [(String, TokenKind, String, String, String)] = [
        ("alert", .device, "alert", "com.neotrips.app", "10"),
        ("silent", .device, "background", "com.neotrips.app", "5"),
        ("widgets", .widgets, "widgets", "com.neotrips.app.push-type.widgets", "10"),
        ("controls", .controls, "controls", "com.neotrips.app.push-type.controls", "10"),
        ("voip", .voip, "voip", "com.neotrips.app.voip", "10"),
        ("location", .location, "location", "com.neotrips.app.location-query", "10"),
        ("pushtotalk", .pushToTalk, "pushtotalk", "com.neotrips.app.voip-ptt", "10"),
    ]

    func testEveryTypeSendsTheBodyPreviewShowsToItsTokenKind() throws {
        let mock = try MockPushServices(self)
        let store = Store(root: mock.store)
        // One token per kind: the device token answers like T.ok, the others are their own.
        func token(_ kind: TokenKind) -> String {
            kind == .device
                ? T.ok
                : String(repeating: String(format: "%02x", 0x10 + TokenKind.allCases.firstIndex(of: kind)!), count: 32)
        }
        try mock.saveProfile(
            TokenKind.allCases.map {
                Subscription(app: "neotrips-ios-dev", token: token($0), label: "iPhone \($0)", kind: $0)
            }
                + [Subscription(app: "neotrips-android", token: T.fcmOK, label: "Pixel")])
        for (name, kind, pushType, topic, priority) in Self.types {
            var d = DemoStore.catalogRefresh
            d.name = "type-\(name)"
            d.ios = IOSOptions(type: PushType(rawValue: name))
            if name == "alert" { d.content = DeliveryContent(title: "Gate B12", body: "Boarding now") }
            try store.save(d)
            let before = mock.apns.requests.count
            let r = try runPushDesk(
                [
                    "send", d.name, "--store", mock.store.path, "--profile", "ana", "--app", "neotrips-ios-dev",
                    "--json",
                ],
                environment: mock.environment())
            XCTAssertEqual(r.status, 0, "\(name): \(r.stdout)\(r.stderr)")
            let results = try json(r)["results"] as? [[String: Any]] ?? []
            XCTAssertEqual(results.count, 1, "\(name): one subscription of kind \(kind): \(r.stdout)")
            let result = try XCTUnwrap(results.first, name)
            XCTAssertEqual(result["outcome"] as? String, "sent", "\(name): \(result)")
            XCTAssertEqual(result["token"] as? String, token(kind), name)
            XCTAssertEqual(mock.apns.requests.count, before + 1, name)
            let sent = try XCTUnwrap(mock.apns.requests.last, name)
            XCTAssertTrue(sent.path.hasSuffix(token(kind)), name)
            XCTAssertEqual(sent.header("apns-push-type"), pushType, name)
            XCTAssertEqual(sent.header("apns-topic"), topic, name)
            XCTAssertEqual(sent.header("apns-priority"), priority, name)
            XCTAssertEqual(sent.header("apns-expiration"), name == "pushtotalk" ? "0" : nil, name)

            // The body is the one preview prints for that id, token and profile.
            let id = try XCTUnwrap(result["messageId"] as? String, name)
            let printed = try runPushDesk([
                "preview", d.name, "--store", mock.store.path, "--profile", "ana", "--app", "neotrips-ios-dev",
                "--token", token(kind), "--message-id", id, "--json",
            ])
            let target = try XCTUnwrap((try json(printed)["targets"] as? [[String: Any]])?.first, printed.stdout)
            let wire = try JSONSerialization.jsonObject(with: Data(sent.body)) as? NSDictionary
            XCTAssertEqual(
                target["payload"] as? NSDictionary, wire, "\(name): \(String(decoding: sent.body, as: UTF8.self))")
            XCTAssertEqual(target["bytes"] as? Int, sent.body.count, name)
            let snapshot = store.loadAll(readOnly: true)
            let preview = PreviewEngine.preview(
                delivery: snapshot.deliveries.first { $0.name == d.name }!, service: snapshot.services[0],
                profile: snapshot.profiles.first { $0.name == "ana" }, appKey: "neotrips-ios-dev", token: token(kind),
                now: Date(), messageId: id
            ).targets[0]
            XCTAssertEqual(sent.body, preview.payload.compactBytes, "\(name): byte for byte")
        }
        XCTAssertEqual(mock.problems, [])
        XCTAssertEqual(mock.pushTypes, Self.types.map(\.2), "every request passed the mock's per-type checks")
    }

    func testAnIOSOnlyTypeSkipsAndroidAndAMissingKindSaysWhichAndHow() throws {
        let mock = try MockPushServices(self)
        let store = Store(root: mock.store)
        var d = DemoStore.catalogRefresh
        d.name = "reload-widgets"
        d.ios = IOSOptions(type: .widgets)
        try store.save(d)
        // Only device tokens: no widgets token to send to, so nothing is sent.
        var r = try runPushDesk(
            ["send", d.name, "--store", mock.store.path, "--profile", "ana", "--json"], environment: mock.environment())
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let blocked = try json(r)["blocked"] as? [[String: Any]] ?? []
        XCTAssertEqual(blocked.map { $0["rule"] as? String }, ["subscription.kind-missing"], r.stdout)
        let message = blocked.first?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("no widgets token"), message)
        XCTAssertTrue(message.contains(#"kind="widgets""#), message)
        XCTAssertEqual(mock.apns.requests.count + mock.google.requests.count, 0, "a blocked send sends nothing")

        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: T.ok, label: "iPhone", kind: .widgets),
            Subscription(app: "neotrips-android", token: T.fcmOK, label: "Pixel"),
        ])
        r = try runPushDesk(
            ["send", d.name, "--store", mock.store.path, "--profile", "ana", "--json"], environment: mock.environment())
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let results = try json(r)["results"] as? [[String: Any]] ?? []
        XCTAssertEqual(results.map { $0["outcome"] as? String }, ["sent", "skipped"], r.stdout)
        XCTAssertEqual(results.last?["reason"] as? String, "type.ios-only")
        XCTAssertEqual(results.last?["platform"] as? String, "android")
        XCTAssertEqual(mock.google.requests.count, 0, "no request of any kind to Google")
        // preview lists no Android target for it.
        let printed = try runPushDesk(["preview", d.name, "--store", mock.store.path, "--json"])
        let targets = try json(printed)["targets"] as? [[String: Any]] ?? []
        XCTAssertEqual(targets.map { $0["platform"] as? String }, ["ios", "ios"])
    }

    /// The mock refuses what Apple refuses: a priority the type does not take, a topic
    /// without the type's suffix, push-to-talk without `apns-expiration: 0`, an oversized
    /// payload, an unknown push type.
    func testTheMockAnswersWrongTypeHeadersAsAppleDoes() throws {
        let mock = try MockPushServices(self)
        let settings = try TransportSettings.fromEnvironment(mock.environment())
        let tls = PushSender(settings: settings, storeRoot: mock.store, environment: mock.environment())
            .tlsConfiguration(nil)
        let base = try XCTUnwrap(URL(string: mock.apns.baseURL))
        let connection = try HTTP2Connection.connect(
            host: try XCTUnwrap(base.host), port: try XCTUnwrap(base.port), tls: tls, settings: settings)
        defer { connection.close() }
        func post(_ headers: [(String, String)], body: String = #"{"aps":{"content-changed":true}}"#) throws -> String?
        {
            let answer = try connection.request(
                path: "/3/device/" + T.ok, headers: headers + [("authorization", "bearer x")], body: Array(body.utf8))
            let reason = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            return reason?["reason"] as? String
        }
        let topic = MockPushServices.bundleId
        XCTAssertEqual(
            try post([("apns-push-type", "widgets"), ("apns-topic", topic), ("apns-priority", "10")]), "TopicDisallowed"
        )
        XCTAssertEqual(
            try post([
                ("apns-push-type", "widgets"), ("apns-topic", topic + ".push-type.widgets"), ("apns-priority", "1"),
            ]),
            "BadPriority")
        XCTAssertEqual(
            try post([("apns-push-type", "pushtotalk"), ("apns-topic", topic + ".voip-ptt"), ("apns-priority", "10")]),
            "BadExpirationDate")
        XCTAssertEqual(
            try post([("apns-push-type", "newsstand"), ("apns-topic", topic), ("apns-priority", "10")]),
            "InvalidPushType")
        XCTAssertEqual(
            try post(
                [("apns-push-type", "voip"), ("apns-topic", topic + ".voip"), ("apns-priority", "10")],
                body: "{\"x\":\"" + String(repeating: "a", count: 5200) + "\"}"),
            "PayloadTooLarge")
    }

    /// A certificate pushes only to the topics it lists: a VoIP push with a certificate made
    /// for the bundle id alone ends `failed`, `type.certificate-topic`, and makes no request;
    /// `credentials check` says so before.
    func testACertificateWithoutTheTypesTopicFailsBeforeAnyRequest() throws {
        let mock = try MockPushServices(self, clientCA: true)
        try mock.installClientP12(password: "p12-secret-pass")
        var d = DemoStore.catalogRefresh
        d.name = "call"
        d.ios = IOSOptions(type: .voip)
        try Store(root: mock.store).save(d)
        let r = try runPushDesk(
            ["send", d.name, "--store", mock.store.path, "--app", "neotrips-ios", "--token", T.ok, "--json"],
            environment: mock.environment())
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        let result = try XCTUnwrap((try json(r)["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(result["outcome"] as? String, "failed")
        XCTAssertEqual(result["reason"] as? String, "type.certificate-topic")
        XCTAssertTrue((result["hint"] as? String)?.contains("com.neotrips.app.voip") ?? false, "\(result)")
        XCTAssertEqual(mock.apns.requests.count, 0)

        let check = try runPushDesk(
            ["credentials", "check", "--store", mock.store.path, "--app", "neotrips-ios", "--json"],
            environment: mock.environment())
        XCTAssertTrue(check.stdout.contains("pushTypes"), check.stdout)
        XCTAssertTrue(
            check.stdout.contains(
                "alert, silent; not liveactivity (token auth only), widgets (topic com.neotrips.app.push-type.widgets not in the certificate)"
            ),
            check.stdout)
    }
}
