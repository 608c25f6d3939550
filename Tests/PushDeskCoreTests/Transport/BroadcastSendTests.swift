import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk send --channel` and `preview --channel` (docs/SENDING.md) against the loopback
/// broadcast mock: the request's headers and body, the result, the log line, and the
/// findings that block a broadcast before anything leaves.
final class BroadcastSendTests: XCTestCase {
    private let noneId = "bWF0Y2gtMTIwNA=="
    private let keptId = "bWF0Y2gtMTIwNQ=="

    /// The demo store with two channels of the sandbox app (both known to Apple) and a Live
    /// Activity update delivery `match`.
    private func prepare(
        _ mock: MockPushServices, event: String = "update", expiration: String? = nil,
        contentState: String = #"{"score":"2-1","minute":67.50}"#
    ) throws {
        let store = Store(root: mock.store)
        var service = try store.load(Service.self, "neotrips")
        if case .ios(var a) = service.apps[0] {
            a.channels = [
                BroadcastChannel(id: noneId, label: "Match 1204"),
                BroadcastChannel(id: keptId, label: "Match 1205", storage: .mostRecent),
            ]
            service.apps[0] = .ios(a)
        }
        try store.save(service)
        mock.channels.addChannel(noneId, storage: 0)
        mock.channels.addChannel(keptId, storage: 1)
        try store.save(
            Delivery(
                name: "match", label: "Match", service: "neotrips",
                content: DeliveryContent(title: "Goal!", body: "2-1"),
                ios: IOSOptions(type: .liveactivity, expiration: expiration),
                liveActivity: LiveActivity(event: event, contentState: contentState)))
    }

    private func send(_ mock: MockPushServices, _ extra: [String]) throws -> CommandResult {
        try runPushDesk(
            ["send", "match", "--store", mock.store.path, "--app", "neotrips-ios-dev"] + extra,
            environment: mock.environment())
    }

    private func json(_ r: CommandResult) throws -> [String: Any] {
        guard let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "no JSON", code: 0, userInfo: [NSLocalizedDescriptionKey: r.stdout + r.stderr])
        }
        return doc
    }

    func testABroadcastIsThePreviewedRequest() throws {
        let mock = try MockPushServices(self)
        try prepare(mock)
        let r = try send(mock, ["--channel", "Match 1204", "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let doc = try json(r)
        let result = try XCTUnwrap((doc["results"] as? [[String: Any]])?.first)
        XCTAssertEqual((doc["results"] as? [Any])?.count, 1)
        XCTAssertEqual(result["channel"] as? String, noneId)
        XCTAssertTrue(result["token"] is NSNull)
        XCTAssertTrue(result["device"] is NSNull)
        XCTAssertEqual(result["outcome"] as? String, "sent")
        XCTAssertEqual(result["status"] as? Int, 200)
        XCTAssertEqual(
            result["endpoint"] as? String, mock.channels.broadcast.baseURL + "/4/broadcasts/apps/com.neotrips.app")
        XCTAssertNotNil(result["apnsId"] as? String, "apns-request-id")
        XCTAssertNotNil(result["apnsUniqueId"] as? String)
        XCTAssertEqual(mock.apns.requests.count, 0, "nothing to the device endpoint")

        let request = try XCTUnwrap(mock.channels.broadcast.requests.first)
        XCTAssertEqual(mock.channels.broadcast.requests.count, 1)
        XCTAssertEqual(request.path, "/4/broadcasts/apps/com.neotrips.app")
        XCTAssertEqual(request.header("apns-channel-id"), noneId)
        XCTAssertEqual(request.header("apns-push-type"), "liveactivity")
        XCTAssertEqual(request.header("apns-priority"), "10")
        XCTAssertEqual(request.header("apns-expiration"), "0")
        XCTAssertNil(request.header("apns-topic"))
        XCTAssertTrue(request.header("authorization")?.hasPrefix("bearer ") ?? false)

        // The wire body is `preview --channel --json --message-id M --at T`'s payload, compact.
        let sent = try JSONReader.object(request.body)
        guard case .number(let at)? = sent["aps"]?["timestamp"] else { return XCTFail("no timestamp") }
        let messageId = try XCTUnwrap(result["messageId"] as? String)
        let p = try runPushDesk(
            [
                "preview", "match", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--channel", noneId,
                "--message-id", messageId, "--at", at, "--json",
            ], environment: mock.environment())
        XCTAssertEqual(p.status, 0, p.stderr)
        let preview = try JSONReader.object(p.stdout)
        guard case .array(let targets)? = preview["targets"], let target = targets.first else {
            return XCTFail(p.stdout)
        }
        XCTAssertEqual(target["payload"]?.compactBytes, request.body)
        XCTAssertEqual(target["limit"], .int(5120))
        XCTAssertEqual(
            target["endpoint"], .string("https://api.sandbox.push.apple.com/4/broadcasts/apps/com.neotrips.app"))
        XCTAssertEqual(
            String(decoding: request.body, as: UTF8.self),
            #"{"aps":{"timestamp":\#(at),"event":"update","content-state":{"score":"2-1","minute":67.50},"alert":{"title":"Goal!","body":"2-1"}}}"#
        )

        // One send-log line: the channel, no token.
        let log = try String(
            contentsOf: mock.store.appendingPathComponent(SendLog.relativePath), encoding: .utf8)
        let lines = log.split(separator: "\n")
        XCTAssertEqual(lines.count, 1)
        let line = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(line["channel"] as? String, noneId)
        XCTAssertTrue(line["token"] is NSNull)
        XCTAssertEqual(line["outcome"] as? String, "sent")
        XCTAssertEqual(Set(line.keys), Set(SendLog.keys))
        XCTAssertEqual(mock.problems + mock.channels.problems, [])
    }

    func testAChannelThatKeepsAMessageTakesTheDeliverysExpirationAndFiveKilobytes() throws {
        let mock = try MockPushServices(self)
        // Between APNs' 4096 device limit and the broadcast's 5120.
        let big = #"{"log":""# + String(repeating: "x", count: 4500) + #""}"#
        try prepare(mock, expiration: "2099-01-01T00:00:00Z", contentState: big)
        let r = try send(mock, ["--channel", keptId, "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let request = try XCTUnwrap(mock.channels.broadcast.requests.first)
        XCTAssertEqual(request.header("apns-expiration"), "4070908800")
        XCTAssertGreaterThan(request.body.count, 4096)
    }

    func testFindingsBlockABroadcastBeforeAnythingLeaves() throws {
        let mock = try MockPushServices(self)
        try prepare(mock, event: "start")
        var r = try send(mock, ["--channel", "Match 1204", "--json"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        var blocked = try json(r)["blocked"] as? [[String: Any]] ?? []
        XCTAssertTrue(blocked.contains { $0["rule"] as? String == "channel.start" }, "\(blocked)")
        XCTAssertEqual(
            blocked.first { $0["rule"] as? String == "channel.start" }?["field"] as? String, "liveActivity.event")

        try prepare(mock, expiration: "2099-01-01T00:00:00Z")
        r = try send(mock, ["--channel", "Match 1204", "--json"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        blocked = try json(r)["blocked"] as? [[String: Any]] ?? []
        XCTAssertEqual(blocked.map { $0["rule"] as? String }, ["channel.expiration"])
        XCTAssertNotNil(blocked.first?["line"] as? Int, "positioned in the delivery file")

        try prepare(mock, contentState: #"{"log":""# + String(repeating: "x", count: 5200) + #""}"#)
        r = try send(mock, ["--channel", "Match 1204", "--json"])
        XCTAssertEqual(r.status, 1)
        blocked = try json(r)["blocked"] as? [[String: Any]] ?? []
        XCTAssertEqual(blocked.map { $0["rule"] as? String }, ["size.limit"])
        XCTAssertTrue((blocked.first?["message"] as? String)?.contains("5120-byte limit") ?? false)
        XCTAssertEqual(mock.channels.broadcast.requests.count, 0)

        // A channel the app does not have is a usage error.
        r = try send(mock, ["--channel", "Match 9999"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("its channels: Match 1204, Match 1205"), r.stderr)
    }

    func testDryRunAndApplesRefusal() throws {
        let mock = try MockPushServices(self)
        try prepare(mock)
        var r = try send(mock, ["--channel", "Match 1204", "--dry-run", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let result = (try json(r)["results"] as? [[String: Any]])?.first
        XCTAssertEqual(result?["outcome"] as? String, "skipped")
        XCTAssertEqual(result?["reason"] as? String, "apns.no-dry-run")
        XCTAssertEqual(mock.channels.broadcast.requests.count, 0)

        // Deleted at Apple (or never made there): Apple's reason and the channel table's hint.
        let store = Store(root: mock.store)
        var service = try store.load(Service.self, "neotrips")
        if case .ios(var a) = service.apps[0] {
            a.channels.append(BroadcastChannel(id: "bm90LWF0LWFwcGxl", label: "Stale"))
            service.apps[0] = .ios(a)
        }
        try store.save(service)
        r = try send(mock, ["--channel", "Stale"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("channel bm90LWF0LWFwcGxl  rejected 400 ChannelNotRegistered"), r.stdout)
        XCTAssertTrue(r.stdout.contains("hint: Apple has no channel with this id"), r.stdout)
    }
}
