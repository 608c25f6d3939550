import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `listen --profile` with an app that registers its Firebase installation ID (docs/SENDING.md):
/// the device is saved with `kind="fid"`, and `send` then targets it as `message.fid`.
final class ListenFIDTests: XCTestCase {
    typealias T = MockPushServices.Token

    func testAnFIDRegistrationIsSavedAsKindFidAndSentAsMessageFid() throws {
        let mock = try MockPushServices(self)
        try Store(root: mock.store).save(Profile(name: "qa", fields: [("firstName", "Quinn")]))
        let listen = try ListenProcess(store: mock.store, ["--profile", "qa", "--count", "2", "--for", "55"])
        let client = try listen.client()
        for name in ["QA Pixel 9", "QA Pixel 9 Pro"] {
            let a = try client.exchange(
                CampaignSDK.androidRegistration(
                    token: T.fid, integrationKey: "neotrips-android", userKey: "qa@neotrips.example",
                    deviceName: name, params: [("loyaltyId", "42")]
                ).bytes(host: "localhost:\(listen.port)"))
            XCTAssertEqual(a.status, 200, a.body)
        }
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)
        let lines = listen.lines
        XCTAssertEqual(lines.count, 2, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[0].contains("added to profile qa"), lines[0])
        XCTAssertTrue(lines[1].contains("updated in profile qa"), lines[1])
        XCTAssertTrue(lines[0].contains("registration.fid"), lines[0])
        XCTAssertEqual(try listenLog(mock.store).map { rules($0) }, [["registration.fid"], ["registration.fid"]])

        // Saved once, as an installation ID, updated in place.
        let profile = try Store(root: mock.store).load(Profile.self, "qa")
        XCTAssertEqual(
            profile.subscriptions,
            [
                Subscription(
                    app: "neotrips-android", token: T.fid, userKey: "qa@neotrips.example", label: "QA Pixel 9 Pro",
                    kind: .fid, locale: "en-US")
            ])
        let xml = try String(contentsOf: mock.store.appendingPathComponent("profiles/qa.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains(#"label="QA Pixel 9 Pro" kind="fid" locale="en-US"/>"#), xml)

        // The captured device is sent to by its FID.
        let sent = try runPushDesk(
            [
                "send", "summer-sale", "--store", mock.store.path, "--profile", "qa", "--app", "neotrips-android",
                "--json",
            ],
            environment: mock.environment())
        XCTAssertEqual(sent.status, 0, sent.stdout + sent.stderr)
        let request = try XCTUnwrap(mock.google.requests.last { $0.path.hasSuffix("messages:send") })
        let message =
            (try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["message"]
            as? [String: Any]
        XCTAssertEqual(message?["fid"] as? String, T.fid)
        XCTAssertNil(message?["token"])
        XCTAssertEqual(mock.problems, [])
    }

    /// An ordinary FCM registration token stays a `device`.
    func testARegistrationTokenStaysADevice() throws {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        let listen = try ListenProcess(store: store, ["--profile", "qa", "--count", "1", "--for", "50"])
        let token = "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
        let a = try listen.client().exchange(
            CampaignSDK.androidRegistration(token: token, integrationKey: "neotrips-android", userKey: "u")
                .bytes(host: "localhost:\(listen.port)"))
        XCTAssertEqual(a.status, 200, a.body)
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)
        XCTAssertEqual(try Store(root: store).load(Profile.self, "qa").subscriptions.map(\.kind), [.device])
        XCTAssertFalse(try listenLog(store).flatMap { rules($0) }.contains("registration.fid"))
    }
}
