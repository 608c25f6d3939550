import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `TransportCancellation` (the console's Esc, docs/SENDING.md): a cancel from another thread
/// ends the request waiting for an answer, the TLS handshake and a retry's back-off at once,
/// and the sender sends nothing after it.
final class TransportCancellationTests: XCTestCase {
    func plan(_ mock: MockPushServices, token: String) -> SendPlan {
        let snapshot = Store(root: mock.store).loadAll(readOnly: true)
        return SendPlan.make(
            delivery: snapshot.deliveries.first { $0.name == "summer-sale" }!, service: snapshot.services[0],
            profile: nil, appKey: "neotrips-ios-dev", token: token, allServices: snapshot.services, now: Date())
    }

    /// Cancels `c` after `seconds` from another thread.
    func cancel(_ c: TransportCancellation, after seconds: TimeInterval) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            c.cancel()
        }
    }

    func testACancelEndsTheWaitForAnAnswerAndNothingIsSentAfterIt() throws {
        let mock = try MockPushServices(self)
        let cancellation = TransportCancellation()
        let sender = PushSender(
            settings: try TransportSettings.fromEnvironment(mock.environment()), storeRoot: mock.store,
            environment: [:], cancellation: cancellation)
        defer { sender.closeAll() }
        cancel(cancellation, after: 0.3)
        let started = Date()
        let hung = sender.send(plan(mock, token: MockPushServices.Token.silent), dryRun: false)
        // About 0.3 s when quiet; the limit is only far below the 30 s time-out it must beat.
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "ended by the cancel, not the 30 s time-out")
        let r = try XCTUnwrap(hung.results.first)
        XCTAssertEqual(r.outcome, .failed)
        XCTAssertNil(r.status)
        XCTAssertEqual(r.reason, "connection.auth")
        XCTAssertTrue(r.hint?.contains("cancelled while waiting for the answer") ?? false, "\(r)")
        XCTAssertTrue(r.madeRequest, "the request was made: it has its send-log line (docs/SENDING.md)")
        XCTAssertEqual(mock.apns.requests.count, 1)

        let after = sender.send(plan(mock, token: MockPushServices.Token.ok), dryRun: false)
        XCTAssertEqual(after.results.map(\.outcome), [.skipped])
        XCTAssertEqual(after.results.map(\.madeRequest), [false])
        XCTAssertEqual(mock.apns.requests.count, 1, "nothing sent after the cancel")
    }

    func testACancelEndsAHandshakeThatWaits() throws {
        // A TCP listener that accepts and never speaks: the TLS handshake waits.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        XCTAssertEqual(listen(fd, 4), 0)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        let port = Int(UInt16(bigEndian: addr.sin_port))
        let settings = try TransportSettings.fromEnvironment([
            "PUSHDESK_APNS_SANDBOX_URL": "https://127.0.0.1:\(port)", "https_proxy": "",
        ])
        let cancellation = TransportCancellation()
        cancel(cancellation, after: 0.3)
        let started = Date()
        let tls = PushSender(settings: settings, storeRoot: URL(fileURLWithPath: "/"), environment: [:])
            .tlsConfiguration(nil)
        XCTAssertThrowsError(
            try HTTP2Connection.connect(
                host: "127.0.0.1", port: port, tls: tls, settings: settings, cancellation: cancellation)
        ) { error in
            XCTAssertEqual((error as? TransportError)?.step, .tls)
            XCTAssertEqual((error as? TransportError)?.cancelled, true)
        }
        // `cancelled` above says the cancel ended it; the time only has to beat the 10 s time-out.
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "ended by the cancel, not the 10 s time-out")
    }

    func testACancelEndsABackOffSleep() {
        let c = TransportCancellation()
        cancel(c, after: 0.2)
        let started = Date()
        c.sleep(120)
        // About 0.2 s when quiet: ended by the cancel, far before the 120 s back-off.
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertTrue(c.isCancelled)
    }
}
