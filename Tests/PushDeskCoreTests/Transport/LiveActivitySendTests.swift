import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// A Live Activity started, updated and ended through the loopback APNs mock (docs/PAYLOADS.md):
/// each result carries the `timestamp` sent, and the wire body is byte for byte the payload
/// of `preview --json --message-id M --at T` for that target.
final class LiveActivitySendTests: XCTestCase {
    typealias T = MockPushServices.Token

    private func json(_ r: CommandResult) throws -> [String: Any] {
        guard let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "no JSON", code: 0, userInfo: [NSLocalizedDescriptionKey: r.stdout + r.stderr])
        }
        return doc
    }

    private func delivery(_ event: String) -> Delivery {
        var d = Delivery(
            name: "flight-\(event)", label: "Flight NT 401", service: "neotrips",
            content: DeliveryContent(title: "Boarding", body: "Gate B12, 東京 bound"),
            ios: IOSOptions(type: .liveactivity, priority: .powerConsiderate),
            liveActivity: LiveActivity(
                event: event, staleDate: "2099-12-01T18:00:00Z",
                contentState: "{\"status\" : \"boarding\",\n \"gate\":\"B12\", \"eta\":1.7646120E9, \"path\":\"a/b\"}"))
        switch event {
        case "start":
            d.liveActivity?.attributesType = "TripAttributes"
            d.liveActivity?.attributes = #"{"flight":"NT 401","from":"LIS","to":"HND"}"#
            d.liveActivity?.inputPushToken = true
        case "end":
            d.content = DeliveryContent()
            d.liveActivity?.dismissalDate = ISOTime.string(Date().addingTimeInterval(3600))
        default: d.content.body = ""
        }
        return d
    }

    func testStartUpdateEndGoOutAsPreviewShowsThem() throws {
        let mock = try MockPushServices(self)
        let store = Store(root: mock.store)
        for event in ["start", "update", "end"] { try store.save(delivery(event)) }
        for (n, event) in ["start", "update", "end"].enumerated() {
            let before = Int(Date().timeIntervalSince1970.rounded(.down))
            let r = try runPushDesk(
                [
                    "send", "flight-\(event)", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok,
                    "--json",
                ], environment: mock.environment())
            let after = Int(Date().timeIntervalSince1970.rounded(.down))
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            let result = try XCTUnwrap((try json(r))["results"] as? [[String: Any]]).first
            XCTAssertEqual(result?["outcome"] as? String, "sent", "\(result ?? [:])")
            let id = try XCTUnwrap(result?["messageId"] as? String)
            let timestamp = try XCTUnwrap((result?["timestamp"] as? NSNumber)?.intValue, "\(result ?? [:])")
            XCTAssertTrue((before...after).contains(timestamp), "stamped when built: \(timestamp)")

            XCTAssertEqual(mock.apns.requests.count, n + 1)
            let sent = try XCTUnwrap(mock.apns.requests.last)
            XCTAssertEqual(sent.header("apns-push-type"), "liveactivity")
            XCTAssertEqual(sent.header("apns-topic"), MockPushServices.bundleId + ".push-type.liveactivity")
            XCTAssertEqual(sent.header("apns-priority"), "5")

            let printed = try runPushDesk([
                "preview", "flight-\(event)", "--store", mock.store.path, "--app", "neotrips-ios-dev",
                "--token", T.ok, "--message-id", id, "--at", String(timestamp), "--json",
            ])
            XCTAssertEqual(printed.status, 0, printed.stderr)
            let target = try XCTUnwrap((try json(printed))["targets"] as? [[String: Any]]).first
            let payload = try JSONSerialization.data(withJSONObject: try XCTUnwrap(target?["payload"]))
            // The printed document read back with key order and number spelling kept is the
            // wire body byte for byte.
            let printedPayload = try XCTUnwrap(
                try JSONReader.object(printed.stdout)["targets"].flatMap { t -> JSONValue? in
                    if case .array(let a) = t { return a.first?["payload"] }
                    return nil
                })
            XCTAssertEqual(String(decoding: sent.body, as: UTF8.self), printedPayload.compact)
            XCTAssertFalse(payload.isEmpty)
            let wire = String(decoding: sent.body, as: UTF8.self)
            XCTAssertTrue(
                wire.hasPrefix(
                    #"{"aps":{"timestamp":\#(timestamp),"event":"\#(event)","content-state":{"status":"boarding","gate":"B12","eta":1.7646120E9,"path":"a/b"}"#
                ),
                wire)
            XCTAssertEqual(target?["bytes"] as? Int, sent.body.count)
        }
        XCTAssertEqual(mock.problems, [], "what ActivityKit would refuse, as the mock saw it")
        let start = String(decoding: mock.apns.requests[0].body, as: UTF8.self)
        XCTAssertTrue(
            start.contains(
                #""attributes-type":"TripAttributes","attributes":{"flight":"NT 401","from":"LIS","to":"HND"}"#), start)
        XCTAssertTrue(
            start.hasSuffix(#""input-push-token":1,"alert":{"title":"Boarding","body":"Gate B12, 東京 bound"}}}"#), start)
        let end = String(decoding: mock.apns.requests[2].body, as: UTF8.self)
        XCTAssertTrue(end.contains(#""dismissal-date":"#), end)
        XCTAssertFalse(end.contains("alert"), end)
    }

    /// `preview --at` pins the timestamp; without it, it is now's second.
    func testPreviewAtPinsTheTimestamp() throws {
        let mock = try MockPushServices(self)
        try Store(root: mock.store).save(delivery("update"))
        let pinned = try runPushDesk([
            "preview", "flight-update", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--at", "1796148000",
            "--json",
        ])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        XCTAssertTrue(pinned.stdout.contains(#""timestamp": 1796148000,"#), pinned.stdout)
        let before = Int(Date().timeIntervalSince1970.rounded(.down))
        let now = try runPushDesk([
            "preview", "flight-update", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--json",
        ])
        let after = Int(Date().timeIntervalSince1970.rounded(.down))
        let doc = try JSONReader.object(now.stdout)
        guard case .array(let targets)? = doc["targets"],
            case .number(let ts)? = targets.first?["payload"]?["aps"]?["timestamp"]
        else { return XCTFail(now.stdout) }
        XCTAssertTrue((before...after).contains(Int(ts) ?? 0), ts)
        let bad = try runPushDesk(["preview", "flight-update", "--store", mock.store.path, "--at=-5"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--at takes a UNIX second"), bad.stderr)
    }

    /// A content state that is no JSON object blocks the send before any byte leaves, and
    /// the error is at its line:column in the file.
    func testABadContentStateBlocksTheSendWithItsPosition() throws {
        let mock = try MockPushServices(self)
        var d = delivery("update")
        d.liveActivity?.contentState = "{\"gate\":\"B12\",\n \"gate\":\"C3\"}"
        try Store(root: mock.store).save(d)
        let r = try runPushDesk(
            ["send", "flight-update", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok],
            environment: mock.environment())
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertEqual(mock.apns.requests.count, 0)
        let xml = try String(
            contentsOf: mock.store.appendingPathComponent("deliveries/flight-update.xml"), encoding: .utf8)
        let lines = xml.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try XCTUnwrap(lines.firstIndex { $0.contains(#" "gate":"C3"}"#) })
        XCTAssertTrue(
            (r.stdout + r.stderr).contains(
                "deliveries/flight-update.xml:\(row + 1):2: error: liveActivity.contentState: "),
            r.stdout + r.stderr)
        XCTAssertTrue((r.stdout + r.stderr).contains("[liveactivity.json]"), r.stdout + r.stderr)
    }

    /// `send --profile`: a start goes to the push-to-start tokens, an update to the
    /// activity's, never to a device token or an Android device.
    func testTheProfileSendsEachEventToItsTokenKind() throws {
        let mock = try MockPushServices(self)
        let store = Store(root: mock.store)
        for event in ["start", "update"] { try store.save(delivery(event)) }
        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: T.ok, label: "iPhone"),
            Subscription(app: "neotrips-ios-dev", token: T.busyOnce, label: "to start", kind: .pushToStart),
            Subscription(app: "neotrips-ios-dev", token: T.expiredOnce, label: "the activity", kind: .activity),
            Subscription(app: "neotrips-android", token: T.fcmOK, label: "Pixel"),
        ])
        for (event, token) in [("start", T.busyOnce), ("update", T.expiredOnce)] {
            let before = mock.apns.requests.count
            let r = try runPushDesk(
                ["send", "flight-\(event)", "--store", mock.store.path, "--profile", "ana", "--json"],
                environment: mock.environment())
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            let sent = try XCTUnwrap((try json(r))["results"] as? [[String: Any]]).filter {
                $0["outcome"] as? String == "sent"
            }
            XCTAssertEqual(sent.map { $0["token"] as? String }, [token], "\(event): \(r.stdout)")
            XCTAssertNotNil(sent.first?["timestamp"] as? NSNumber)
            XCTAssertTrue(
                mock.apns.requests[before...].allSatisfy { $0.path == "/3/device/" + token }, "\(event)")
        }
        XCTAssertEqual(mock.google.requests.filter { $0.path.hasSuffix("messages:send") }.count, 0)
        XCTAssertEqual(mock.problems, [])
    }
}
