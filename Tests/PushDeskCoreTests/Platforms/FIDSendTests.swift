import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// Firebase installation IDs (docs/SENDING.md) as an operator meets them: a test device of kind
/// `fid`, `send` and `preview` with `--fid`, through the loopback FCM mock, which refuses a
/// message that names both a token and an FID.
final class FIDSendTests: XCTestCase {
    typealias T = MockPushServices.Token

    private func json(_ r: CommandResult) throws -> [String: Any] {
        guard let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "no JSON", code: 0, userInfo: [NSLocalizedDescriptionKey: r.stdout + r.stderr])
        }
        return doc
    }

    private func fcmSends(_ mock: MockPushServices) -> [MockHTTP2Server.Request] {
        mock.google.requests.filter { $0.path.hasSuffix("messages:send") }
    }

    func testAProfilesFIDDeviceGetsMessageFidByteForByteThePreview() throws {
        let mock = try MockPushServices(self)
        try mock.saveProfile([
            Subscription(app: "neotrips-android", token: T.fid, label: "Ana's Pixel 9", kind: .fid),
            Subscription(app: "neotrips-android", token: T.fcmOK, label: "Ana's old Pixel"),
        ])
        let r = try runPushDesk(
            [
                "send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--app", "neotrips-android",
                "--json",
            ],
            environment: mock.environment())
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let results = try json(r)["results"] as? [[String: Any]] ?? []
        XCTAssertEqual(results.map { $0["outcome"] as? String }, ["sent", "sent"])
        XCTAssertEqual(results.map { $0["token"] as? String }, [T.fid, T.fcmOK])
        XCTAssertEqual(mock.problems, [])

        let sends = fcmSends(mock)
        XCTAssertEqual(sends.count, 2)
        let fidSend = try XCTUnwrap(sends.first { String(decoding: $0.body, as: UTF8.self).contains(T.fid) })
        let wire = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fidSend.body)) as? [String: Any])
        let message = try XCTUnwrap(wire["message"] as? [String: Any])
        XCTAssertEqual(message["fid"] as? String, T.fid)
        XCTAssertNil(message["token"], "an FID is sent as message.fid, never under the deprecated token")
        XCTAssertTrue(String(decoding: fidSend.body, as: UTF8.self).hasPrefix(#"{"message":{"fid":"\#(T.fid)","#))

        // Byte for byte what `preview --fid … --message-id <the reported id>` shows.
        let id = try XCTUnwrap(results[0]["messageId"] as? String)
        let printed = try runPushDesk([
            "preview", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--app", "neotrips-android",
            "--fid", T.fid, "--message-id", id, "--json",
        ])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let target = try XCTUnwrap((try json(printed)["targets"] as? [[String: Any]])?.first)
        XCTAssertEqual(target["payload"] as? NSDictionary, wire as NSDictionary)
        let snapshot = Store(root: mock.store).loadAll(readOnly: true)
        let preview = PreviewEngine.preview(
            delivery: snapshot.deliveries.first { $0.name == "summer-sale" }!, service: snapshot.services[0],
            profile: snapshot.profiles.first { $0.name == "ana" }, appKey: "neotrips-android", token: T.fid, fid: true,
            now: Date(), messageId: id
        ).targets[0]
        XCTAssertEqual(fidSend.body, preview.payload.compactBytes)
        XCTAssertEqual(results[0]["bytes"] as? Int, preview.bytes, "the FID, like the token, is not counted")

        // The registration token is still sent under `token`.
        let tokenSend = try XCTUnwrap(sends.first { String(decoding: $0.body, as: UTF8.self).contains(T.fcmOK) })
        XCTAssertTrue(String(decoding: tokenSend.body, as: UTF8.self).hasPrefix(#"{"message":{"token":"#))
    }

    func testSendAppFidSendsToOneInstallationAndDryRunValidatesIt() throws {
        let mock = try MockPushServices(self)
        let r = try runPushDesk(
            [
                "send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-android", "--fid", T.fid,
                "--dry-run", "--json",
            ], environment: mock.environment())
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let result = try XCTUnwrap((try json(r)["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(result["outcome"] as? String, "validated")
        XCTAssertEqual(result["token"] as? String, T.fid)
        let body = String(decoding: try XCTUnwrap(fcmSends(mock).first).body, as: UTF8.self)
        XCTAssertTrue(body.hasPrefix(#"{"message":{"fid":"\#(T.fid)","#), body)
        XCTAssertTrue(body.hasSuffix(#","validate_only":true}"#), body)
        XCTAssertEqual(mock.problems, [])
    }

    func testFIDUsageErrorsSayWhatToDoAndSendNothing() throws {
        let mock = try MockPushServices(self)
        func run(_ extra: [String]) throws -> CommandResult {
            try runPushDesk(
                ["send", "summer-sale", "--store", mock.store.path] + extra, environment: mock.environment())
        }
        let short = try run(["--app", "neotrips-android", "--fid", String(T.fid.dropLast())])
        XCTAssertEqual(short.status, 2)
        XCTAssertTrue(short.stderr.contains("(21 characters) is not a Firebase installation ID"), short.stderr)
        let ios = try run(["--app", "neotrips-ios-dev", "--fid", T.fid])
        XCTAssertEqual(ios.status, 2)
        XCTAssertTrue(ios.stderr.contains("neotrips-ios-dev is an iOS app"), ios.stderr)
        let both = try run(["--app", "neotrips-android", "--fid", T.fid, "--token", T.fcmOK])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("--token T or --fid FID, not both"), both.stderr)
        let preview = try runPushDesk(["preview", "summer-sale", "--store", mock.store.path, "--fid", T.fid])
        XCTAssertEqual(preview.status, 2)
        XCTAssertTrue(preview.stderr.contains("--fid goes with --app KEY"), preview.stderr)
        XCTAssertEqual(mock.google.requests.count, 0)
    }

    /// Without `--fid` or `--token` the placeholder stays under `token`.
    func testPreviewKeepsThePlaceholderUnderTokenWithoutEither() throws {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        let r = try runPushDesk([
            "preview", "summer-sale", "--store", store.path, "--app", "neotrips-android", "--json",
        ])
        let target = try XCTUnwrap((try json(r)["targets"] as? [[String: Any]])?.first)
        let message = (target["payload"] as? [String: Any])?["message"] as? [String: Any]
        XCTAssertEqual(message?["token"] as? String, "DEVICE_TOKEN")
        XCTAssertNil(message?["fid"])
    }

    func testUnregisteredTokenHintPointsAtTheFIDAndAnFIDsDoesNot() throws {
        let mock = try MockPushServices(self)
        try mock.saveProfile([
            Subscription(app: "neotrips-android", token: T.fcmUnregistered, label: "Old Pixel"),
            Subscription(app: "neotrips-android", token: "cZZZZZZZZZZZZZZZZZZZZZ", label: "Gone FID", kind: .fid),
        ])
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--json"],
            environment: mock.environment())
        let results = try json(r)["results"] as? [[String: Any]] ?? []
        let android = results.filter { $0["app"] as? String == "neotrips-android" }
        XCTAssertEqual(android.map { $0["reason"] as? String }, ["UNREGISTERED", "UNREGISTERED"])
        let tokenHint = android[0]["hint"] as? String ?? ""
        let fidHint = android[1]["hint"] as? String ?? ""
        XCTAssertTrue(tokenHint.contains("no longer valid"), tokenHint)
        XCTAssertTrue(
            tokenHint.contains(
                "an app that moved to installation IDs no longer answers to its old token: register its FID"),
            tokenHint)
        XCTAssertFalse(fidHint.contains("register its FID"), fidHint)
    }
}
