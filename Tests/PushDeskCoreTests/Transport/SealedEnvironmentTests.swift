import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The suite is sealed off from real servers by construction (Tests/PushDeskTestSeal): the
/// test process and every child it starts see every endpoint and the proxy on a refused
/// loopback port and no system trust anchors, so a send no test aimed at a mock fails at
/// `tcp` on 127.0.0.1 and never reaches Apple or Google.
final class SealedEnvironmentTests: XCTestCase {
    typealias T = MockPushServices.Token

    func testTheTestProcessAndItsChildrenRunSealed() throws {
        let port = SealedEnvironment.port
        XCTAssertGreaterThan(port, 0)
        let own = ProcessInfo.processInfo.environment
        let child = try runProcess("/usr/bin/env", [])
        XCTAssertEqual(child.status, 0, child.stderr)
        var childEnv: [String: String] = [:]
        for line in child.stdout.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            childEnv[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        for (name, value) in SealedEnvironment.expected {
            XCTAssertEqual(own[name], value, "\(name) in the test process")
            XCTAssertEqual(childEnv[name], value, "\(name) in a child")
        }
        let settings = try TransportSettings.fromEnvironment(own)
        for e in [settings.apnsSandbox, settings.apnsProduction, settings.fcm] {
            XCTAssertEqual(e, TransportSettings.Endpoint(host: "127.0.0.1", port: port))
        }
        XCTAssertEqual(settings.proxy(for: "oauth2.googleapis.com")?.shown, "http://127.0.0.1:\(port)")
        XCTAssertFalse(settings.systemTrust)
        XCTAssertNil(settings.caFile)
        // The port refuses: held bound by the test process, never listened on.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        XCTAssertEqual(rc, -1)
        XCTAssertEqual(errno, ECONNREFUSED)
    }

    /// Every `PUSHDESK_…_URL` the sources read is one the seal covers (a new endpoint
    /// variable fails here until it is sealed too).
    func testTheSealCoversEveryEndpointVariableOfTheSources() throws {
        let sources = packageRoot.appendingPathComponent("Sources")
        var found: Set<String> = []
        let e = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let pattern = try NSRegularExpression(pattern: "\"(PUSHDESK_[A-Z_]+_URL)\"")
        while let u = e.nextObject() as? URL {
            guard u.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: u, encoding: .utf8)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                found.insert((text as NSString).substring(with: m.range(at: 1)))
            }
        }
        XCTAssertTrue(found.isSuperset(of: ["PUSHDESK_APNS_SANDBOX_URL", "PUSHDESK_FCM_URL"]), "\(found)")
        XCTAssertEqual(found.subtracting(SealedEnvironment.endpointVariables), [], "endpoint variables not sealed")
    }

    /// `pushdesk send` with the mock's store and credentials but not its environment: every
    /// device fails at `tcp`, on the sealed loopback port, and the mocks see nothing.
    func testASendWithNoMockFailsAtTCPOnLoopback() throws {
        let mock = try MockPushServices(self)
        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: T.ok, label: "iPhone"),
            Subscription(app: "neotrips-android", token: T.fcmOK, label: "Pixel"),
        ])
        let r = try runPushDesk(["send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--json"])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap(doc["results"] as? [[String: Any]])
        XCTAssertEqual(
            results.map { $0["app"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") },
            [
                "neotrips-android", "neotrips-ios-dev",
            ])
        for x in results {
            XCTAssertEqual(x["outcome"] as? String, "failed", "\(x)")
            XCTAssertEqual(x["reason"] as? String, "connection.tcp", "\(x)")
            XCTAssertTrue(x["status"] is NSNull, "\(x)")
        }
        XCTAssertTrue(
            r.stdout.contains("127.0.0.1:\(SealedEnvironment.port)"), "the refused port is named: \(r.stdout)")
        XCTAssertEqual(mock.apns.requests.count, 0)
        XCTAssertEqual(mock.google.requests.count, 0)
        XCTAssertEqual(mock.apns.connections + mock.google.connections, 0)
    }
}
