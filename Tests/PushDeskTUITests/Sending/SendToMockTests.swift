import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// The console's Send test, Dry run, Sends view and Check online against the loopback mocks
/// that speak the real protocols (Tests/PushDeskTestSupport: APNs over HTTP/2 + TLS with its
/// own test CA, Google's token endpoint, FCM), pointed at them the way an operator points
/// PushDesk at a test server: the docs/SENDING.md variables in the console's environment.
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
        a.environment = environment ?? mock.environment()
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: 80, height: 24)
        a.press(.deliveries)
        for _ in 0..<4 where (a.top as? DeliveriesListScreen)?.selected?.name != "summer-sale" { a.press(.down) }
        a.press(.open)
        XCTAssertTrue(a.top is ComposerScreen)
        return a
    }

    /// Send test (or Dry run) to every test device, confirmed, until the results are in (at most 60 s).
    func sendToAll(_ a: ConsoleApp, dryRun: Bool = false, file: StaticString = #filePath, line: UInt = #line)
        throws -> SendScreen
    {
        a.press(dryRun ? .dryRun : .sendTest, file: file, line: line)
        XCTAssertEqual(
            a.dialog?.title, "\(dryRun ? "Dry run" : "Send test"): which test devices?", file: file, line: line)
        a.handle(.enter)  // all test devices
        XCTAssertEqual(a.dialog?.title, dryRun ? "Dry run" : "Send test", file: file, line: line)
        a.handle(.char(dryRun ? "R" : "S"))  // the first letter presses Send / Run whatever has focus
        XCTAssertNil(a.dialog, file: file, line: line)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            a.takeJobEvents()
            if let s = a.top as? SendScreen, s.phase == .done { return s }
            usleep(10_000)
        }
        XCTFail("the send did not finish in 60 s", file: file, line: line)
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
                of: "(\\d{4}-)?\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d:\\d\\dZ?", with: "TIME", options: .regularExpression)
        }
        return s
    }

    /// What the mock APNs received for `token`, in order.
    func apnsRequests(_ token: String) -> [MockHTTP2Server.Request] {
        mock.apns.requests.filter { $0.path == "/3/device/\(token)" }
    }

    /// The payload bytes `pushdesk preview` shows for this device (the stored delivery, no edits).
    /// The payload previewed with the `_mId` the send gave this device (each target its own).
    func previewed(appKey: String, token: String, in results: [SendResult?]) throws -> [UInt8] {
        let id = try XCTUnwrap(results.compactMap { $0 }.first { $0.token == token }?.messageId, token)
        let p = PreviewEngine.preview(
            delivery: try store.load(Delivery.self, "summer-sale"), service: try store.load(Service.self, "neotrips"),
            profile: try store.load(Profile.self, "ana"), appKey: appKey, token: token,
            now: Date(timeIntervalSince1970: 1_790_000_000), messageId: id)
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
        assertScreen(
            text: shown(a).joined(separator: "\n"),
            "sendTestRejectionHintThenTheFixedTokenSendsAndTheSendsViewListsThem", size: "80x24")
        a.press(.down)
        assertScreen(
            text: shown(a).joined(separator: "\n"),
            "sendTestRejectionHintThenTheFixedTokenSendsAndTheSendsViewListsThem-2", size: "80x24")
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
            XCTAssertEqual(r.body, try previewed(appKey: "neotrips-ios-dev", token: token, in: s.results))
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
        XCTAssertEqual(
            apnsRequests(fixed).first?.body, try previewed(appKey: "neotrips-ios-dev", token: fixed, in: s2.results))
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
        assertScreen(
            text: shown(again).joined(separator: "\n"),
            "sendTestRejectionHintThenTheFixedTokenSendsAndTheSendsViewListsThem-sendsView", size: "80x24")
        let log = try String(contentsOf: root.appendingPathComponent(SendLog.relativePath), encoding: .utf8)
        for secret in mock.providerTokens + [T.ok, T.bad, fixed, "BEGIN PRIVATE KEY", "bearer"] {
            XCTAssertFalse(log.contains(secret), "the send log holds \(secret.prefix(12))…")
            XCTAssertFalse(again.render(width: 200, height: 50).text.contains(secret), "shown: \(secret.prefix(12))…")
        }
    }

    /// An Android app (FCM v1, service account): the access token from the mock token
    /// endpoint, then FCM; an UNREGISTERED token is rejected with its hint and FCM's message.
    func testFCMSendGetsAnAccessTokenAndShowsTheUnregisteredHint() throws {
        try devices([
            ("neotrips-android", T.fcmOK, "Ana's Pixel"), ("neotrips-android", T.fcmUnregistered, "Old Pixel"),
        ])
        let a = composer()
        let s = try sendToAll(a)
        XCTAssertEqual(s.results.map { $0?.outcome }, [.sent, .rejected])
        XCTAssertEqual(s.results.map { $0?.status }, [200, 404])
        XCTAssertEqual(s.results.map { $0?.reason }, [nil, "UNREGISTERED"])
        XCTAssertEqual(mock.problems, [])
        let paths = mock.google.requests.map(\.path)
        XCTAssertEqual(paths, ["/token"] + Array(repeating: "/v1/projects/neotrips-12345/messages:send", count: 2))
        XCTAssertEqual(mock.accessTokens.count, 1, "one access token for both requests")
        for (r, token) in zip(mock.google.requests.dropFirst(), [T.fcmOK, T.fcmUnregistered]) {
            XCTAssertEqual(r.header("authorization"), "Bearer " + mock.accessTokens[0])
            XCTAssertEqual(r.body, try previewed(appKey: "neotrips-android", token: token, in: s.results))
        }
        a.press(.down)
        assertScreen(
            text: shown(a).joined(separator: "\n"), "fCMSendGetsAnAccessTokenAndShowsTheUnregisteredHint", size: "80x24"
        )
    }

    /// Dry run from the composer: FCM gets validate_only true, APNs is skipped (it has no dry
    /// run) without a connection.
    func testDryRunValidatesWithFCMAndSkipsAPNs() throws {
        try devices([("neotrips-ios-dev", T.ok, "Ana's iPhone"), ("neotrips-android", T.fcmOK, "Ana's Pixel")])
        let a = composer()
        let s = try sendToAll(a, dryRun: true)
        XCTAssertEqual(s.results.map { $0?.outcome }, [.skipped, .validated])
        XCTAssertEqual(s.results.map { $0?.reason }, ["apns.no-dry-run", nil])
        XCTAssertEqual(mock.apns.connections, 0)
        XCTAssertEqual(mock.apns.requests.count, 0)
        let send = try XCTUnwrap(mock.google.requests.last)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(send.body)) as? [String: Any])
        XCTAssertEqual(doc["validate_only"] as? Bool, true)
        assertScreen(text: shown(a).joined(separator: "\n"), "dryRunValidatesWithFCMAndSkipsAPNs", size: "80x24")
        let log = SendLog.entries(storeRoot: root, delivery: "summer-sale")
        XCTAssertEqual(log.map { $0["outcome"] as? String }, ["validated"], "skipped is not logged")
        XCTAssertEqual(log.first?["dryRun"] as? Bool, true)
    }

    // MARK: Check online

    /// The demo service's app `index` on its Credentials tab, the console pointed at the mocks.
    func credentialsTab(app index: Int, environment: [String: String]? = nil) -> ConsoleApp {
        let a = app()
        a.environment = environment ?? mock.environment()
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: 80, height: 24)
        a.press(.open)
        a.focus(field: "apps")
        for _ in 0..<index { a.press(.down) }
        a.press(.open)
        a.focus(field: "credentials.mode")
        return a
    }

    func checkOnline(_ a: ConsoleApp, file: StaticString = #filePath, line: UInt = #line) throws -> OnlineCheckScreen {
        a.press(.checkOnline, file: file, line: line)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            a.takeJobEvents()
            if let c = a.top as? OnlineCheckScreen, c.finished { return c }
            usleep(10_000)
        }
        XCTFail("the check did not finish in 60 s", file: file, line: line)
        return try XCTUnwrap(a.top as? OnlineCheckScreen)
    }

    func testCheckOnlinePassesEveryStepAgainstTheMocks() throws {
        let a = credentialsTab(app: 0)
        let check = try checkOnline(a)
        XCTAssertEqual(check.steps.map(\.step), [.dns, .tcp, .tls, .auth])
        XCTAssertEqual(check.steps.map(\.ok), [true, true, true, true])
        let probe = try XCTUnwrap(mock.apns.requests.last)
        XCTAssertEqual(probe.path, "/3/device/" + String(repeating: "0", count: 64))
        XCTAssertEqual(probe.header("apns-push-type"), "background")
        XCTAssertEqual(mock.problems, [])
        assertScreen(text: shown(a).joined(separator: "\n"), "checkOnlinePassesEveryStepAgainstTheMocks", size: "80x24")
        a.press(.back)
        XCTAssertTrue(a.top is AppEditorScreen)

        // The Android app: an access token from the mock token endpoint, then the validate_only probe.
        let android = try checkOnline(credentialsTab(app: 2))
        XCTAssertEqual(android.steps.map(\.ok), [true, true, true, true], "\(android.steps)")
        XCTAssertEqual(mock.google.requests.map(\.path), ["/token", "/v1/projects/neotrips-12345/messages:send"])
    }

    func testCheckOnlineTrustingAnotherCAFailsAtTLS() throws {
        var env = mock.environment()
        env["PUSHDESK_CA_FILE"] = try mock.otherCAFile().path
        let a = credentialsTab(app: 0, environment: env)
        let check = try checkOnline(a)
        XCTAssertEqual(check.steps.map(\.step), [.dns, .tcp, .tls])
        XCTAssertEqual(check.steps.map(\.ok), [true, true, false])
        XCTAssertEqual(check.steps.last?.finding?.rule, "connection.tls")
        XCTAssertEqual(mock.apns.requests.count, 0)
        assertScreen(text: shown(a).joined(separator: "\n"), "checkOnlineTrustingAnotherCAFailsAtTLS", size: "80x24")
    }

    // MARK: Esc on hung work

    /// Waits until the console's background jobs have all finished, 10 s at most: milliseconds
    /// when quiet, and well inside the 30 s response time-out, so only the cancel can have
    /// ended a request the mock never answers. How long it took.
    func workerFinishes(_ a: ConsoleApp) -> TimeInterval {
        let started = Date()
        while a.jobs.runningJobs > 0 && Date().timeIntervalSince(started) < 10 { usleep(1_000) }
        let took = Date().timeIntervalSince(started)
        print("\(name): after Esc the worker finished in \(Int(took * 1000)) ms")  // docs/SENDING.md quotes it
        return took
    }

    func testEscCancelsAHungSendAtOnceAndLogsOnlyTheRequestMade() throws {
        try devices([("neotrips-ios-dev", T.silent, "Hung iPhone"), ("neotrips-ios-dev", T.ok, "Ana's iPhone")])
        let a = composer()
        a.press(.sendTest)
        a.handle(.enter)
        a.handle(.char("S"))
        // The mock has the request and never answers.
        let deadline = Date().addingTimeInterval(30)
        while apnsRequests(T.silent).isEmpty && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(apnsRequests(T.silent).count, 1)
        a.takeJobEvents()
        XCTAssertNotNil(a.render(width: 80, height: 24).row(containing: "Send test: 0 of 2 answered… (Esc stops)"))
        a.press(.back)
        XCTAssertTrue(a.top is ComposerScreen)
        XCTAssertEqual(a.message, "Send test stopped after 0 of 2 devices; the send log has what was sent.")
        let took = workerFinishes(a)
        XCTAssertEqual(a.jobs.runningJobs, 0, "the send's thread still runs after \(took) s")
        // docs/SENDING.md: the hung device made a request, so it has its one line (failed, no status);
        // the device after it was never sent to and has none.
        XCTAssertEqual(apnsRequests(T.ok).count, 0)
        let log = SendLog.entries(storeRoot: root, delivery: "summer-sale")
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(log.first?["token"] as? String, "909090…9090")
        XCTAssertEqual(log.first?["outcome"] as? String, "failed")
        XCTAssertTrue(log.first?["status"] is NSNull)
        XCTAssertEqual(log.first?["reason"] as? String, "connection.auth")
        XCTAssertEqual(log.first?["attempts"] as? Int, 1)
    }

    func testEscCancelsAHungCheckAtOnce() throws {
        mock.answerNothing = true
        let a = credentialsTab(app: 0)
        a.press(.checkOnline)
        let deadline = Date().addingTimeInterval(30)
        while mock.apns.requests.isEmpty && Date() < deadline { usleep(5_000) }
        a.takeJobEvents()
        let check = try XCTUnwrap(a.top as? OnlineCheckScreen)
        XCTAssertEqual(check.steps.map(\.ok), [true, true, true], "auth waits for its answer")
        a.press(.back)
        XCTAssertTrue(a.top is AppEditorScreen)
        let took = workerFinishes(a)
        XCTAssertEqual(a.jobs.runningJobs, 0, "the check's thread still runs after \(took) s")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(SendLog.relativePath).path))
    }
}
