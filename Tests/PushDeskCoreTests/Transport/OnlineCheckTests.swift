import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk credentials check --online` (docs/SENDING.md) against the loopback mocks.
final class OnlineCheckTests: XCTestCase {
    private func online(_ r: CommandResult, app: String) throws -> [[String: Any]] {
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let report = (doc?["reports"] as? [[String: Any]])?.first { $0["app"] as? String == app }
        return report?["online"] as? [[String: Any]] ?? []
    }

    func testEveryStepPassesForAGoodKeyAndServiceAccount() throws {
        let mock = try MockPushServices(self)
        for app in ["neotrips-ios-dev", "neotrips-android"] {
            let r = try runPushDesk(
                ["credentials", "check", "--online", "--app", app, "--store", mock.store.path, "--json"],
                environment: mock.environment())
            let steps = try online(r, app: app)
            XCTAssertEqual(steps.map { $0["step"] as? String }, ["dns", "tcp", "tls", "auth"], r.stdout + r.stderr)
            XCTAssertEqual(steps.map { $0["ok"] as? Bool }, [true, true, true, true], "\(steps)")
            XCTAssertTrue(steps.allSatisfy { $0["rule"] == nil && $0["ms"] is Int })
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let text = try runPushDesk(
            ["credentials", "check", "--online", "--app", "neotrips-ios-dev", "--store", mock.store.path],
            environment: mock.environment())
        print(text.stdout)
        let lines = text.stdout.split(separator: "\n").filter { $0.hasPrefix("  online ") }
        XCTAssertEqual(lines.count, 4, text.stdout)
        XCTAssertTrue(lines[3].hasPrefix("  online auth  ok "), String(lines[3]))
        XCTAssertTrue(
            lines[3].hasSuffix(
                "credential and topic com.neotrips.app accepted (400 BadDeviceToken for the probe token)"))
        let probe = mock.apns.requests.first!
        XCTAssertEqual(probe.path, "/3/device/" + String(repeating: "0", count: 64))
        XCTAssertEqual(probe.header("apns-push-type"), "background")
        XCTAssertEqual(probe.header("apns-priority"), "5")
        XCTAssertEqual(probe.header("apns-topic"), "com.neotrips.app")
        XCTAssertEqual(String(decoding: probe.body, as: UTF8.self), #"{"aps":{"content-available":1}}"#)
        let fcm = mock.google.requests.first { $0.path.hasSuffix("messages:send") }!
        XCTAssertEqual(
            String(decoding: fcm.body, as: UTF8.self),
            #"{"message":{"token":"pushdesk-connection-check"},"validate_only":true}"#)
        XCTAssertEqual(mock.problems, [])
    }

    func testAWrongCAStopsAtTLSAndAnUnusableCredentialFailsAtAuth() throws {
        let mock = try MockPushServices(self)
        let other = try TestPKI(name: "Another CA")
        let wrong = mock.store.deletingLastPathComponent().appendingPathComponent("other.pem")
        try other.caPEM.write(to: wrong, atomically: true, encoding: .utf8)
        let r = try runPushDesk(
            ["credentials", "check", "--online", "--app", "neotrips-ios-dev", "--store", mock.store.path, "--json"],
            environment: mock.environment(ca: wrong.path))
        XCTAssertEqual(r.status, 1, r.stderr)
        let steps = try online(r, app: "neotrips-ios-dev")
        XCTAssertEqual(steps.map { $0["step"] as? String }, ["dns", "tcp", "tls"])
        XCTAssertEqual(steps.last?["ok"] as? Bool, false)
        XCTAssertEqual(steps.last?["rule"] as? String, "connection.tls")
        XCTAssertEqual(steps.last?["severity"] as? String, "error")
        XCTAssertTrue((steps.last?["message"] as? String)?.contains("PUSHDESK_CA_FILE") ?? false)
        XCTAssertEqual(mock.apns.requests.count, 0)

        // The production app's .p12 is missing: the connection works, auth names the offline finding.
        let p = try runPushDesk(
            ["credentials", "check", "--online", "--app", "neotrips-ios", "--store", mock.store.path],
            environment: mock.environment())
        XCTAssertEqual(p.status, 1)
        XCTAssertTrue(p.stdout.contains("online auth  FAILED"), p.stdout)
        XCTAssertTrue(p.stderr.contains("[connection.auth]"), p.stderr)
        XCTAssertTrue(p.stderr.contains("certificate.unreadable") || p.stderr.contains("secret.missing"), p.stderr)
    }

    func testAPortThatDoesNotAnswerFailsAtTCP() throws {
        let mock = try MockPushServices(self)
        // A port just closed: connection refused on 127.0.0.1.
        let closed = try MockHTTP2Server(identity: try mock.pki.issue()) { _ in nil }
        let port = closed.port
        closed.stop()
        var env = mock.environment()
        env["PUSHDESK_APNS_SANDBOX_URL"] = "https://127.0.0.1:\(port)"
        let r = try runPushDesk(
            ["credentials", "check", "--online", "--app", "neotrips-ios-dev", "--store", mock.store.path, "--json"],
            environment: env)
        let steps = try online(r, app: "neotrips-ios-dev")
        XCTAssertEqual(steps.map { $0["step"] as? String }, ["dns", "tcp"], r.stdout)
        XCTAssertEqual(steps.last?["rule"] as? String, "connection.tcp")
        XCTAssertTrue((steps.last?["message"] as? String)?.contains("port \(port)") ?? false, "\(steps)")
        // The system's words for the refusal, not NIO's description of the call that saw it.
        XCTAssertEqual(
            steps.last?["message"] as? String,
            "cannot connect to 127.0.0.1:\(port) (Connection refused); check the firewall (outgoing port \(port)) or the proxy settings"
        )
    }
}
