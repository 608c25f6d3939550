import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The composer's Send test and Dry run, driven by action names: the device choice, the
/// confirmation naming production apps, one row per device filled in off the input loop
/// (against a loopback listener that speaks no TLS: each device fails at tls with the
/// core's hint), results that stay until Esc, the send log, and a blocked send.
final class SendScreenTests: DemoStoreConsoleTestCase {
    static let iosToken = String(repeating: "b2", count: 32)

    /// The demo store with a usable APNs key (made now) and Ana's two test devices.
    func prepare(iosToken: String = iosToken) throws {
        let creds = root.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: creds, withIntermediateDirectories: true)
        let p8 = creds.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        let (status, out) = try TmuxHarness.spawn(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8])
        XCTAssertEqual(status, 0, out)
        var ana = DemoStore.ana
        ana.subscriptions = [
            Subscription(app: "neotrips-ios-dev", token: iosToken, label: "Ana's iPhone"),
            Subscription(app: "neotrips-ios", token: String(repeating: "c3", count: 32), label: "Ana's iPad"),
        ]
        try store.save(ana)
    }

    func composer() -> ConsoleApp {
        let a = app()
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: 80, height: 24)
        a.press(.deliveries)
        for _ in 0..<4 where (a.top as? DeliveriesListScreen)?.selected?.name != "summer-sale" { a.press(.down) }
        a.press(.open)
        return a
    }

    func wait(_ a: ConsoleApp, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            a.takeJobEvents()
            if let s = a.top as? SendScreen, s.phase == .done { return }
            usleep(10_000)
        }
        XCTFail("the send did not finish in 60 s", file: file, line: line)
    }

    func testSendTestToEveryDeviceFailsAtTLSWithTheHintAndLogsIt() throws {
        try prepare()
        let server = try LoopbackListener(.closeAtOnce)
        defer { server.stop() }
        let a = composer()
        a.environment = [
            "PUSHDESK_APNS_SANDBOX_URL": "https://127.0.0.1:\(server.port)",
            "PUSHDESK_APNS_PRODUCTION_URL": "https://127.0.0.1:\(server.port)",
        ]
        a.press(.sendTest)
        XCTAssertEqual(a.dialog?.title, "Send test: which test devices?")
        a.handle(.enter)  // all test devices
        XCTAssertEqual(a.dialog?.title, "Send test")
        // How many devices, and the production apps named.
        assertScreen(a, "confirmTwoDevices", width: 80, height: 24, machine: true)
        a.handle(.char("S"))  // the first letter presses Send (Cancel has focus)
        XCTAssertNil(a.dialog)
        wait(a)
        let s = try XCTUnwrap(a.top as? SendScreen)
        XCTAssertEqual(s.results.map { $0?.outcome }, [.failed, .failed])
        // The production app's .p12 has no password stored: it fails before any connection.
        XCTAssertEqual(s.results.map { $0?.reason }, ["connection.tls", "secret.missing"])
        XCTAssertEqual(server.connections, 1)
        let shown = normalized(lines(a))
        assertScreen(
            text: shown.joined(separator: "\n"), "sendTestToEveryDeviceFailsAtTLSWithTheHintAndLogsIt", size: "80x24")
        // The results stay until Esc; the send log has both requests.
        a.handle(.resize)
        XCTAssertTrue(a.top is SendScreen)
        let log = SendLog.entries(storeRoot: root, delivery: "summer-sale")
        XCTAssertEqual(log.map { $0["outcome"] as? String }, ["failed"], "only requests made are logged")
        a.press(.back)
        XCTAssertTrue(a.top is ComposerScreen)
    }

    /// A type only iOS has: the confirmation counts the devices it reaches (the profile's
    /// token of the type's kind) and says the Android ones are skipped.
    func testAnIOSOnlyTypeCountsOnlyTheDevicesItReaches() throws {
        try prepare()
        var d = DemoStore.summerSale
        d.ios = IOSOptions(type: .widgets)
        d.content = DeliveryContent()
        d.variables = []
        try store.save(d)
        var ana = DemoStore.ana
        ana.subscriptions.append(
            Subscription(
                app: "neotrips-ios-dev", token: String(repeating: "d4", count: 32), label: "Widgets", kind: .widgets))
        try store.save(ana)
        let a = composer()
        a.press(.sendTest)
        a.handle(.enter)  // all test devices
        // One device, and why the Android one is skipped.
        assertScreen(a, "confirmOneDeviceAndroidSkipped", width: 80, height: 24, machine: true)
        a.handle(.char("C"))
        XCTAssertNil(a.dialog)
    }

    func testBlockedSendShowsTheFindingsAndSendsNothing() throws {
        try prepare(iosToken: "not-a-token")
        // Every endpoint on a loopback listener: a request that left would be counted there.
        let server = try LoopbackListener(.closeAtOnce)
        defer { server.stop() }
        let a = composer()
        a.environment = [
            "PUSHDESK_APNS_SANDBOX_URL": "https://127.0.0.1:\(server.port)",
            "PUSHDESK_APNS_PRODUCTION_URL": "https://127.0.0.1:\(server.port)",
            "PUSHDESK_FCM_URL": "https://127.0.0.1:\(server.port)", "PUSHDESK_SYSTEM_TRUST": "0",
        ]
        a.press(.sendTest)
        a.handle(.enter)
        let s = try XCTUnwrap(a.top as? SendScreen)
        XCTAssertEqual(s.phase, .blocked, a.render(width: 80, height: 24).text)
        XCTAssertNil(a.dialog)
        XCTAssertEqual(a.jobs.runningJobs, 0, "a blocked send starts no job")
        XCTAssertEqual(server.accepted, 0, "nothing connected")
        XCTAssertEqual(SendLog.entries(storeRoot: root, delivery: "summer-sale").count, 0)
        XCTAssertNotNil(a.render(width: 80, height: 24).row(containing: "Blocked: nothing was sent."))
    }

    func testNoTestDeviceSaysHowToAddOne() throws {
        // The demo's profile has test devices: a store whose profile has none.
        var ana = DemoStore.ana
        ana.subscriptions = []
        try store.save(ana)
        let a = composer()
        a.press(.dryRun)
        XCTAssertEqual(a.dialog?.title, "Dry run")
        XCTAssertEqual(
            a.dialog?.message,
            "No test device subscribes to an app of neotrips.\nAdd one in Test devices: t on the services list (Esc to get there)."
        )
        XCTAssertTrue(a.top is ComposerScreen)
    }

    func lines(_ a: ConsoleApp) -> [String] {
        let b = a.render(width: 80, height: 24)
        return (0..<b.height).map {
            b.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}
