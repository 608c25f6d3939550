import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk channels list|create|delete` against the loopback mock of Apple's channel
/// management API (docs/SENDING.md): what the mock received, what was printed, what the service
/// file holds afterwards.
final class ChannelsCommandTests: XCTestCase {
    private func json(_ r: CommandResult) throws -> [String: Any] {
        guard let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "no JSON", code: 0, userInfo: [NSLocalizedDescriptionKey: r.stdout + r.stderr])
        }
        return doc
    }

    private func storedChannels(_ mock: MockPushServices, app: String = "neotrips-ios-dev") throws
        -> [BroadcastChannel]
    {
        let s = try Store(root: mock.store).load(Service.self, "neotrips")
        guard case .ios(let a)? = s.app(integrationKey: app) else { return [] }
        return a.channels
    }

    private func channels(_ mock: MockPushServices, _ args: [String]) throws -> CommandResult {
        try runPushDesk(["channels"] + args + ["--store", mock.store.path], environment: mock.environment())
    }

    func testCreateListDeleteThroughApple() throws {
        let mock = try MockPushServices(self)
        // create: Apple's id lands in the service file with the label and storage.
        var r = try channels(mock, ["create", "--app", "neotrips-ios-dev", "--label", "Match 1204", "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        var doc = try json(r)
        let created = doc["channel"] as? [String: Any]
        let id = try XCTUnwrap(created?["id"] as? String)
        XCTAssertEqual(mock.channels.channels.map(\.id), [id])
        XCTAssertEqual(mock.channels.channels.map(\.storage), [0])
        XCTAssertEqual(try storedChannels(mock), [BroadcastChannel(id: id, label: "Match 1204", storage: .none)])
        XCTAssertEqual(doc["outcome"] as? String, "sent")
        XCTAssertEqual(doc["status"] as? Int, 201)
        XCTAssertEqual(doc["endpoint"] as? String, mock.channels.manage.baseURL + "/1/apps/com.neotrips.app/channels")
        let post = try XCTUnwrap(mock.channels.manage.requests.last)
        XCTAssertEqual(post.method, "POST")
        XCTAssertEqual(post.path, "/1/apps/com.neotrips.app/channels")
        XCTAssertEqual(
            String(decoding: post.body, as: UTF8.self), #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        XCTAssertTrue(post.header("authorization")?.hasPrefix("bearer ") ?? false)
        XCTAssertNil(post.header("apns-topic"))

        r = try channels(
            mock, ["create", "--app", "neotrips-ios-dev", "--label", "Match 1205", "--storage", "mostRecent"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("“Match 1205” storage mostRecent"), r.stdout)
        XCTAssertEqual(mock.channels.channels.map(\.storage), [0, 1])
        XCTAssertEqual(try storedChannels(mock).map(\.storage), [.none, .mostRecent])

        // A label already used: refused before any request.
        let before = mock.channels.manage.requests.count
        r = try channels(mock, ["create", "--app", "neotrips-ios-dev", "--label", "Match 1204"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("services/neotrips.xml:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("channel.label-duplicate"), r.stderr)
        XCTAssertEqual(mock.channels.manage.requests.count, before)

        // list: Apple's ids with the store's labels; one Apple has that the store has not, and
        // one the store has that Apple does not list (a warning, exit 0).
        mock.channels.addChannel("b3RoZXI=")
        var service = try Store(root: mock.store).load(Service.self, "neotrips")
        if case .ios(var a) = service.apps[0] {
            a.channels.append(BroadcastChannel(id: "Z29uZQ==", label: "Gone"))
            service.apps[0] = .ios(a)
        }
        try Store(root: mock.store).save(service)
        r = try channels(mock, ["list", "--app", "neotrips-ios-dev", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        doc = try json(r)
        let rows = doc["channels"] as? [[String: Any]] ?? []
        XCTAssertEqual(rows.map { $0["id"] as? String }, [id, mock.channels.channels[1].id, "b3RoZXI="])
        XCTAssertEqual(rows.map { $0["label"] as? String }, ["Match 1204", "Match 1205", nil])
        let diagnostics = doc["diagnostics"] as? [[String: Any]] ?? []
        XCTAssertEqual(diagnostics.map { $0["rule"] as? String }, ["channel.unknown-to-apple"])
        XCTAssertEqual(diagnostics.first?["severity"] as? String, "warning")
        XCTAssertEqual(diagnostics.first?["field"] as? String, "apps[0].channels[2].id")
        XCTAssertNotNil(diagnostics.first?["line"] as? Int)
        XCTAssertEqual(mock.channels.manage.requests.last?.method, "GET")
        XCTAssertEqual(mock.channels.manage.requests.last?.path, "/1/apps/com.neotrips.app/all-channels")
        r = try channels(mock, ["list", "--app", "neotrips-ios-dev"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("\(id)  Match 1204  storage none"), r.stdout)
        XCTAssertTrue(r.stdout.contains("b3RoZXI=  (not in the store)"), r.stdout)
        XCTAssertTrue(r.stderr.contains("warning: apps[0].channels[2].id: channel “Gone” (Z29uZQ==)"), r.stderr)

        // delete without a terminal and without --yes: refused, nothing asked of Apple.
        let requests = mock.channels.manage.requests.count
        r = try channels(mock, ["delete", "--app", "neotrips-ios-dev", "--label", "Match 1204"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("stdin is not a terminal; add --yes"), r.stderr)
        XCTAssertEqual(mock.channels.manage.requests.count, requests)
        XCTAssertEqual(mock.channels.channels.count, 3)

        r = try channels(mock, ["delete", "--app", "neotrips-ios-dev", "--label", "Match 1204", "--yes", "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(try json(r)["status"] as? Int, 204)
        let delete = try XCTUnwrap(mock.channels.manage.requests.last)
        XCTAssertEqual(delete.method, "DELETE")
        XCTAssertEqual(delete.header("apns-channel-id"), id)
        XCTAssertFalse(mock.channels.channels.contains { $0.id == id })
        XCTAssertEqual(try storedChannels(mock).map(\.label), ["Match 1205", "Gone"])

        // A channel Apple does not have: refused with Apple's reason and the hint; the file keeps it.
        r = try channels(mock, ["delete", "--app", "neotrips-ios-dev", "--label", "Gone", "--yes"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("rejected 400 ChannelNotRegistered"), r.stderr)
        XCTAssertTrue(r.stderr.contains("hint: Apple has no channel with this id"), r.stderr)
        XCTAssertEqual(try storedChannels(mock).map(\.label), ["Match 1205", "Gone"])
        XCTAssertEqual(mock.problems + mock.channels.problems, [])
    }

    func testAHostileChannelIdIsEscapedAndNeverSaved() throws {
        let mock = try MockPushServices(self)
        mock.channels.nextChannelId = "\u{1B}]0;owned\u{07}"
        let file = mock.store.appendingPathComponent("services/neotrips.xml")
        let before = try Data(contentsOf: file)
        var r = try channels(mock, ["create", "--app", "neotrips-ios-dev", "--label", "Evil"])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertFalse((r.stdout + r.stderr).contains("\u{1B}"), r.stderr)
        XCTAssertTrue(r.stderr.contains(#"\u{1B}]0;owned\u{7}"#), r.stderr)
        XCTAssertEqual(try Data(contentsOf: file), before)
        // The list shows Apple's ids escaped too, as text and as JSON.
        r = try channels(mock, ["list", "--app", "neotrips-ios-dev"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("\u{1B}"))
        XCTAssertTrue(r.stdout.contains(#"\u{1B}]0;owned\u{7}  (not in the store)"#), r.stdout)
        r = try channels(mock, ["list", "--app", "neotrips-ios-dev", "--json"])
        XCTAssertFalse(r.stdout.contains("\u{1B}"))
        XCTAssertEqual((try json(r)["channels"] as? [[String: Any]])?.first?["id"] as? String, "\u{1B}]0;owned\u{07}")
    }

    func testApplesRefusalsAndNoAnswer() throws {
        let mock = try MockPushServices(self)
        mock.channels.broadcastEnabled = false
        var r = try channels(mock, ["create", "--app", "neotrips-ios-dev", "--label", "A", "--json"])
        XCTAssertEqual(r.status, 1)
        let doc = try json(r)
        XCTAssertEqual(doc["reason"] as? String, "FeatureNotEnabled")
        XCTAssertTrue((doc["hint"] as? String)?.contains("Broadcast Capability") ?? false)
        XCTAssertNotNil(doc["apnsId"] as? String, "Apple's apns-request-id")
        XCTAssertTrue(doc["channel"] is NSNull)
        XCTAssertEqual(try storedChannels(mock), [])

        // Android apps have no channels; an unknown key is a usage error.
        r = try channels(mock, ["list", "--app", "neotrips-android"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("broadcast channels belong to iOS apps"), r.stderr)
        r = try channels(mock, ["list", "--app", "nope"])
        XCTAssertEqual(r.status, 2)

        // Nothing listening: no answer, exit 2.
        mock.channels.manage.stop()
        r = try channels(mock, ["list", "--app", "neotrips-ios-dev", "--json"])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertEqual(try json(r)["outcome"] as? String, "failed")
        XCTAssertEqual(try json(r)["reason"] as? String, "connection.tcp")
    }

    func testCertificateAuthUsesTheClientCertificate() throws {
        let mock = try MockPushServices(self, clientCA: true)
        try mock.installClientP12(password: "p12-Pa55word-for-the-test")
        let r = try channels(mock, ["create", "--app", "neotrips-ios", "--label", "Final", "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(mock.channels.manage.requests.count, 1)
        XCTAssertNil(mock.channels.manage.requests[0].header("authorization"))
        XCTAssertEqual(try storedChannels(mock, app: "neotrips-ios").map(\.label), ["Final"])
        XCTAssertFalse(r.stdout.contains("p12-Pa55word"))
    }
}
