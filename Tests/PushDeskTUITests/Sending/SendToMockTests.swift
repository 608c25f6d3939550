import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// The console's Send test, Dry run, Sends view and Check online against the loopback mocks
/// that speak the real protocols (Tests/PushDeskTestSupport: APNs over HTTP/2 + TLS with its
/// own test CA, Google's token endpoint, FCM), pointed at them the way an operator points
/// PushDesk at a test server: the SPEC §8.2 variables in the console's environment.
final class SendToMockTests: DemoStoreConsoleTestCase {
    typealias T = MockPushServices.Token
    var mock: MockPushServices!

    override func setUp() async throws {
        try await super.setUp()
        mock = try MockPushServices(store: root)
    }
    override func tearDown() async throws {
        mock = nil
        try await super.tearDown()
    }

    /// Saves profile `ana` with these devices through the core writer (as the file would be edited).
    func devices(_ subscriptions: [(app: String, token: String, label: String)]) throws {
        try mock.saveProfile(subscriptions.map { Subscription(app: $0.app, token: $0.token, label: $0.label) })
    }

    /// A console over the store, pointed at the mocks, with summer-sale open in the composer.
    func composer(environment: [String: String]? = nil) -> ConsoleApp {
        let a = app()
        a.background.environment = environment ?? mock.environment()
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: 80, height: 24)
        a.press(.deliveries)
        for _ in 0..<4 where (a.top as? DeliveriesListScreen)?.selected?.name != "summer-sale" { a.press(.down) }
        a.press(.open)
        XCTAssertTrue(a.top is ComposerScreen)
        return a
    }

    /// Send test (or Dry run) to every test device, confirmed, until the results are in (at most 20 s).
    func sendToAll(_ a: ConsoleApp, dryRun: Bool = false, file: StaticString = #filePath, line: UInt = #line)
        throws -> SendScreen
    {
        a.press(dryRun ? .dryRun : .sendTest, file: file, line: line)
        XCTAssertEqual(
            a.dialog?.title, "\(dryRun ? "Dry run" : "Send test"): which test devices?", file: file, line: line)
        a.handle(.enter)  // all test devices
        XCTAssertEqual(a.dialog?.title, dryRun ? "Dry run" : "Send test", file: file, line: line)
        a.handle(.enter)  // the focused button: Send / Run (no production app)
        XCTAssertNil(a.dialog, file: file, line: line)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            a.drainBackground()
            if let s = a.top as? SendScreen, s.phase == .done { return s }
            usleep(10_000)
        }
        XCTFail("the send did not finish in 20 s", file: file, line: line)
        return try XCTUnwrap(a.top as? SendScreen)
    }

    func lines(_ a: ConsoleApp) -> [String] {
        let b = a.render(width: 80, height: 24)
        return (0..<b.height).map {
            b.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    /// Whole-screen lines with run-dependent values (ms, ports, user@host, APNs ids) folded.
    func shown(_ a: ConsoleApp) -> [String] {
        let s = normalized(lines(a)).map {
            $0.replacingOccurrences(
                of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "UUID",
                options: .regularExpression
            )
            .replacingOccurrences(
                of: "\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d:\\d\\dZ?", with: "TIME", options: .regularExpression)
        }
        if ProcessInfo.processInfo.environment["PUSHDESK_PRINT_SCREENS"] == "1" {
            print(s.map { "            " + String(reflecting: $0) + "," }.joined(separator: "\n"))
        }
        return s
    }

    /// What the mock APNs received for `token`, in order.
    func apnsRequests(_ token: String) -> [MockHTTP2Server.Request] {
        mock.apns.requests.filter { $0.path == "/3/device/\(token)" }
    }

    /// The payload bytes `pushdesk preview` shows for this device (the stored delivery, no edits).
    func previewed(appKey: String, token: String) throws -> [UInt8] {
        let p = PreviewEngine.preview(
            delivery: try store.loadDelivery("summer-sale"), service: try store.loadService("neotrips"),
            profile: try store.loadProfile("ana"), appKey: appKey, token: token,
            now: Date(timeIntervalSince1970: 1_790_000_000))
        return try XCTUnwrap(p.targets.first).payload.compactBytes
    }

    /// The done-when walk: a send to two devices of the iOS sandbox app (.p8 key), one accepted,
    /// one BadDeviceToken with its hint; the results stay until Esc; the token fixed in the
    /// profile file, both are sent; the Sends view lists them newest first, nothing secret.
    func testSendTestRejectionHintThenTheFixedTokenSendsAndTheSendsViewListsThem() throws {
        let fixed = String(repeating: "a7", count: 32)
        try devices([("neotrips-ios-dev", T.ok, "Ana's iPhone"), ("neotrips-ios-dev", T.bad, "Ana's iPad")])
        let a = composer()
        let s = try sendToAll(a)
        XCTAssertEqual(s.results.map { $0?.outcome }, [.sent, .rejected])
        XCTAssertEqual(s.results.map { $0?.status }, [200, 400])
        XCTAssertEqual(s.results.map { $0?.reason }, [nil, "BadDeviceToken"])
        XCTAssertEqual(s.results[0]?.apnsId, mock.apnsIds[T.ok])
        XCTAssertEqual(
            shown(a),
            [
                " PushDesk — Send test › summer-sale                             ? help  default",
                " Done: 1 sent, 1 rejected. Esc closes.",
                "┌ Devices ─────────────────────────────────────────────────────────────────────┐",
                "│App                Device       Token         Outcome    Status Reason │",
                "│neotrips-ios-dev   Ana\'s iPhone a1a1a1…a1a1   sent       200 │",
                "│neotrips-ios-dev   Ana\'s iPad   b2b2b2…b2b2   rejected   400    BadDeviceToken│",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                "┌ Selected device ─────────────────────────────────────────────────────────────┐",
                "│ Outcome        sent │",
                "│ Status         200 │",
                "│ apns-id        UUID │",
                "│ apns-unique-id UUID │",
                "│ Attempts       1, 421 bytes, N ms │",
                "│ │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " / filter  ? help  Ctrl-Q quit  Ctrl-F findings  Esc back",
            ])
        a.press(.down)
        XCTAssertEqual(
            shown(a),
            [
                " PushDesk — Send test › summer-sale                             ? help  default",
                " Done: 1 sent, 1 rejected. Esc closes.",
                "┌ Devices ─────────────────────────────────────────────────────────────────────┐",
                "│App                Device       Token         Outcome    Status Reason │",
                "│neotrips-ios-dev   Ana\'s iPhone a1a1a1…a1a1   sent       200 │",
                "│neotrips-ios-dev   Ana\'s iPad   b2b2b2…b2b2   rejected   400    BadDeviceToken│",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                "┌ Selected device ─────────────────────────────────────────────────────────────┐",
                "│ Outcome        rejected │",
                "│ Status         400 │",
                "│ Reason         BadDeviceToken │",
                "│ Hint           this token is not a development token of this app: tokens from│",
                "│                a TestFlight or App Store build need the production app; check│",
                "│                the token was copied whole │",
                "│ apns-id        UUID │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " / filter  ? help  Ctrl-Q quit  Ctrl-F findings  Esc back",
            ])
        // What the mock received: one connection, the path, topic, push type, a verified
        // provider token (else it answers InvalidProviderToken), the previewed bytes.
        XCTAssertEqual(mock.problems, [])
        XCTAssertEqual(mock.apns.connections, 1)
        for token in [T.ok, T.bad] {
            let r = try XCTUnwrap(apnsRequests(token).first, token)
            XCTAssertEqual(apnsRequests(token).count, 1)
            XCTAssertEqual(r.method, "POST")
            XCTAssertEqual(r.header("apns-topic"), "com.neotrips.app")
            XCTAssertEqual(r.header("apns-push-type"), "alert")
            XCTAssertTrue(r.header("authorization")?.hasPrefix("bearer ") == true)
            XCTAssertEqual(r.body, try previewed(appKey: "neotrips-ios-dev", token: token))
        }
        XCTAssertEqual(mock.providerTokens.count, 1, "one provider token for both requests")

        // The results stay open (a resize, a key) until Esc.
        a.handle(.resize)
        a.handle(.char("x"))
        XCTAssertTrue(a.top === s)
        a.press(.back)
        XCTAssertTrue(a.top is ComposerScreen)

        // The operator fixes the token in profiles/ana.xml and sends again (a console opened anew
        // reads the file): both are sent.
        try devices([("neotrips-ios-dev", T.ok, "Ana's iPhone"), ("neotrips-ios-dev", fixed, "Ana's iPad")])
        let again = composer()
        let s2 = try sendToAll(again)
        XCTAssertEqual(s2.results.map { $0?.outcome }, [.sent, .sent])
        XCTAssertEqual(s2.results.map { $0?.status }, [200, 200])
        XCTAssertEqual(apnsRequests(fixed).count, 1)
        XCTAssertEqual(apnsRequests(fixed).first?.body, try previewed(appKey: "neotrips-ios-dev", token: fixed))
        XCTAssertNotNil(again.render(width: 80, height: 24).row(containing: "Done: 2 sent. Esc closes."))

        // The delivery's Sends view: newest first, tokens shortened, nothing secret.
        again.press(.back)
        again.press(.back)
        XCTAssertTrue(again.top is DeliveriesListScreen)
        again.press(.sends)
        let sends = try XCTUnwrap(again.top as? SendsScreen)
        XCTAssertEqual(sends.entries.map { $0["outcome"] as? String }, ["sent", "sent", "rejected", "sent"])
        XCTAssertEqual(
            sends.entries.map { $0["token"] as? String },
            ["a7a7a7…a7a7", "a1a1a1…a1a1", "b2b2b2…b2b2", "a1a1a1…a1a1"])
        XCTAssertEqual(
            shown(again),
            [
                " PushDesk — Sends of summer-sale                                ? help  default",
                "┌ 4 sends, newest first ───────────────────────────────────────────────────────┐",
                "│Time                App                Token         Outcome   Status Reason │",
                "│TIME neotrips-ios-dev   a7a7a7…a7a7   sent      200 │",
                "│TIME neotrips-ios-dev   a1a1a1…a1a1   sent      200 │",
                "│TIME neotrips-ios-dev   b2b2b2…b2b2   rejected  400    BadDevi…│",
                "│TIME neotrips-ios-dev   a1a1a1…a1a1   sent      200 │",
                "│ │",
                "│ │",
                "│ │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                "┌ Selected send ───────────────────────────────────────────────────────────────┐",
                "│ Time           TIME │",
                "│ Sent by USER@HOST │",
                "│ App            neotrips-ios-dev │",
                "│ Profile        ana │",
                "│ Token          a7a7a7…a7a7 │",
                "│ Outcome        sent │",
                "│ Status         200 │",
                "│ Reason │",
                "│ apns-id        UUID │",
                "│ apns-unique-id UUID │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " / filter  ? help  Ctrl-Q quit  Ctrl-F findings  Esc back",
            ])
        let log = try String(contentsOf: root.appendingPathComponent(SendLog.relativePath), encoding: .utf8)
        for secret in mock.providerTokens + [T.ok, T.bad, fixed, "BEGIN PRIVATE KEY", "bearer"] {
            XCTAssertFalse(log.contains(secret), "the send log holds \(secret.prefix(12))…")
            XCTAssertFalse(again.render(width: 200, height: 50).text.contains(secret), "shown: \(secret.prefix(12))…")
        }
    }
}
