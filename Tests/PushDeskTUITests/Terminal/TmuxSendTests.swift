import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

/// Sending in a real terminal: the built binary in tmux, pointed at a loopback listener
/// that speaks no TLS (PUSHDESK_APNS_*_URL), driven as an operator would — Send test from
/// the composer, the answers per device with their hint, then the delivery's Sends view —
/// and the same against the loopback APNs mock (Tests/PushDeskTestSupport), which the binary
/// reaches through the docs/SENDING.md variables of its environment.
final class TmuxSendTests: TmuxTestCase {
    func testSendFromTheComposerThenReadTheSendsView() throws {
        let creds = store.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: creds, withIntermediateDirectories: true)
        let (status, out) = try TmuxHarness.spawn(
            "/usr/bin/openssl",
            [
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out",
                creds.appendingPathComponent("AuthKey_ABC123DEFG.p8").path,
            ])
        XCTAssertEqual(status, 0, out)
        var ana = DemoStore.ana
        ana.subscriptions = [
            Subscription(app: "neotrips-ios-dev", token: String(repeating: "b2", count: 32), label: "Ana's iPhone")
        ]
        try Store(root: store).save(ana)
        let server = try LoopbackListener(.closeAtOnce)
        defer { server.stop() }
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path],
            env: [
                "PUSHDESK_APNS_SANDBOX_URL": "https://127.0.0.1:\(server.port)", "https_proxy": "", "HTTPS_PROXY": "",
            ])
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("Deliveries of neotrips")
        t.waitFor("summer-sale")
        t.keys("G")  // the last row: summer-sale (the list is sorted by name)
        t.keys("Enter")
        t.waitFor("Delivery summer-sale")
        t.keys("C-g")
        t.waitFor("which test devices?")
        t.keys("Enter")
        t.waitFor("Send summer-sale to 1 device?")
        t.waitFor("Every app is an iOS sandbox app.")
        t.keys("Enter")
        t.waitFor("Done: 1 failed")
        t.waitFor("connection.tls")
        t.waitFor("Hint")
        XCTAssertEqual(server.connections, 1)
        t.keys("Escape")
        t.waitFor("Delivery summer-sale")
        t.keys("Escape")
        t.waitFor("Deliveries of neotrips")
        t.keys("s")
        t.waitFor("1 send, newest first")
        t.waitFor("failed")
        t.keys("C-q")
    }

    func testSendToTheMockAPNsShowsTheAcceptedAndTheRejectionsHint() throws {
        let mock = try MockPushServices(store: store)
        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: MockPushServices.Token.ok, label: "Ana's iPhone"),
            Subscription(app: "neotrips-ios-dev", token: MockPushServices.Token.bad, label: "Ana's iPad"),
        ])
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: mock.environment())
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("summer-sale")
        t.keys("G")
        t.keys("Enter")
        t.waitFor("Delivery summer-sale")
        t.keys("C-g")
        t.waitFor("which test devices?")
        t.keys("Enter")
        t.waitFor("Send summer-sale to 2 devices?")
        t.keys("Enter")
        t.waitFor("Done: 1 sent, 1 rejected. Esc closes.")
        t.waitFor("apns-unique-id")
        t.keys("Down")
        t.waitFor("BadDeviceToken")
        t.waitFor("this token is not a development token of this app")
        XCTAssertEqual(mock.problems, [], "the mock verified the provider token")
        XCTAssertEqual(
            mock.apns.requests.map(\.path).sorted(),
            ["/3/device/" + MockPushServices.Token.ok, "/3/device/" + MockPushServices.Token.bad].sorted())
        t.keys("Escape")
        t.waitFor("Delivery summer-sale")
        t.keys("C-q")
    }
}
