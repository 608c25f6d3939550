import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// A server that does not agree to `h2` (ALPN) gets no HTTP/2 from PushDesk: the `tls` step
/// fails naming ALPN and not one byte is written after the handshake — in `send` and in
/// `credentials check --online`. The server records what it receives (docs/SENDING.md).
final class ALPNRefusalTests: XCTestCase {
    typealias T = MockPushServices.Token

    /// The mocks' store and CA, with the APNs sandbox endpoint at a TLS server that agrees to `alpn`.
    private func refusingServer(alpn: [String]) throws -> (MockPushServices, MockTLSRecorder, [String: String]) {
        let mock = try MockPushServices(self)
        let server = try MockTLSRecorder(identity: try mock.pki.issue(), alpn: alpn)
        addTeardownBlock { server.stop() }
        var env = mock.environment()
        env["PUSHDESK_APNS_SANDBOX_URL"] = server.baseURL
        return (mock, server, env)
    }

    /// The handshake happened, then nothing: no connection preface, no frame.
    private func assertNothingWrittenAfterTheHandshake(_ server: MockTLSRecorder, line: UInt = #line) {
        XCTAssertTrue(
            server.waitUntilClientsLeft(timeout: 30), "the client never shook hands or never left", line: line)
        XCTAssertGreaterThan(server.handshakes, 0, line: line)
        XCTAssertEqual(server.agreed.compactMap { $0 }, [], "ALPN agreed nothing", line: line)
        XCTAssertEqual(
            server.received.count, 0,
            "bytes written after the handshake: \(String(decoding: server.received.prefix(40), as: UTF8.self).debugDescription)",
            line: line)
    }

    func testSendFailsAtTLSNamingALPNAndWritesNothing() throws {
        for alpn in [[], ["http/1.1"]] {
            let (mock, server, env) = try refusingServer(alpn: alpn)
            let r = try runPushDesk(
                [
                    "send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok,
                    "--json",
                ],
                environment: env)
            XCTAssertEqual(r.status, 2, "server ALPN \(alpn): \(r.stdout) \(r.stderr)")
            let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let result = (doc?["results"] as? [[String: Any]])?.first { $0["token"] as? String == T.ok }
            XCTAssertEqual(result?["outcome"] as? String, "failed", "server ALPN \(alpn): \(r.stdout)")
            XCTAssertEqual(result?["reason"] as? String, "connection.tls", "server ALPN \(alpn)")
            let hint = result?["hint"] as? String ?? ""
            XCTAssertTrue(hint.contains("ALPN"), "server ALPN \(alpn): \(hint)")
            XCTAssertTrue(hint.contains("did not agree to HTTP/2"), "server ALPN \(alpn): \(hint)")
            assertNothingWrittenAfterTheHandshake(server)
        }
    }

    func testTheOnlineCheckFailsAtTLSNamingALPNAndWritesNothing() throws {
        for alpn in [[], ["http/1.1"]] {
            let (mock, server, env) = try refusingServer(alpn: alpn)
            let r = try runPushDesk(
                [
                    "credentials", "check", "--online", "--app", "neotrips-ios-dev", "--store", mock.store.path,
                    "--json",
                ],
                environment: env)
            XCTAssertEqual(r.status, 1, "server ALPN \(alpn): \(r.stderr)")
            let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let report = (doc?["reports"] as? [[String: Any]])?.first { $0["app"] as? String == "neotrips-ios-dev" }
            let steps = report?["online"] as? [[String: Any]] ?? []
            XCTAssertEqual(
                steps.map { $0["step"] as? String }, ["dns", "tcp", "tls"], "server ALPN \(alpn): \(r.stdout)")
            XCTAssertEqual(steps.map { $0["ok"] as? Bool }, [true, true, false], "server ALPN \(alpn)")
            XCTAssertEqual(steps.last?["rule"] as? String, "connection.tls", "server ALPN \(alpn)")
            let message = steps.last?["message"] as? String ?? ""
            XCTAssertTrue(message.contains("ALPN"), "server ALPN \(alpn): \(message)")
            XCTAssertTrue(message.contains("did not agree to HTTP/2"), "server ALPN \(alpn): \(message)")
            assertNothingWrittenAfterTheHandshake(server)
        }
    }
}
