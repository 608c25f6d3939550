import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// Send benchmark rows of `make bench` (docs/PERFORMANCE.md), run only when asked, against the loopback APNs mock:
///
///     PUSHDESK_SEND_BENCH=1 PUSHDESK_BENCH_BIN=.build-static/release/pushdesk \
///       swift test --disable-swift-testing --filter SendBenchmarkTests
///
/// 1. one send, command start to exit, against `curl --http2` with the same pre-signed token;
/// 2. 50 test devices of one app in one send: wall time and connections opened, against 50
///    sequential curl requests over one connection (one curl invocation, 50 URLs);
/// 3. peak RSS of the 50-device send (`/usr/bin/time -f %M`).
final class SendBenchmarkTests: XCTestCase {
    typealias T = MockPushServices.Token

    func testSendRows() throws {
        guard ProcessInfo.processInfo.environment["PUSHDESK_SEND_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: PUSHDESK_SEND_BENCH=1 runs it")
        }
        let bin =
            ProcessInfo.processInfo.environment["PUSHDESK_BENCH_BIN"]
            ?? packageRoot.appendingPathComponent(".build/debug/pushdesk").path
        let runs = 9
        let mock = try MockPushServices(self)
        let env = mock.environment()

        // Row 1: one send.
        func timed(_ body: () throws -> CommandResult) rethrows -> (Double, CommandResult) {
            let start = Date()
            let r = try body()
            return (Date().timeIntervalSince(start) * 1000, r)
        }
        var pushdesk: [Double] = []
        for _ in 0..<runs {
            let (ms, r) = try timed {
                try runProcess(
                    bin,
                    ["send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok],
                    environment: env)
            }
            XCTAssertEqual(r.status, 0, r.stderr)
            pushdesk.append(ms)
        }
        let snapshot = Store(root: mock.store).loadAll(readOnly: true)
        let target = PreviewEngine.preview(
            delivery: snapshot.deliveries.first { $0.name == "summer-sale" }!, service: snapshot.services[0],
            profile: nil, appKey: "neotrips-ios-dev", token: T.ok, now: Date()
        ).targets[0]
        let token = try APNsProviderToken(
            keyId: MockPushServices.keyId, teamId: MockPushServices.teamId, key: APNsAuthKey(privateKey: mock.apnsKey),
            issuedAt: Date())
        let body = mock.store.deletingLastPathComponent().appendingPathComponent("payload.json")
        try Data(target.payload.compactBytes).write(to: body)
        var curlArgs = [
            "--http2", "-s", "-o", "/dev/null", "--cacert", mock.caFile.path, "--data-binary", "@" + body.path,
        ]
        for (n, v) in target.headers { curlArgs += ["-H", "\(n): \(v)"] }
        curlArgs += ["-H", "authorization: \(token.authorizationHeaderValue)", "-H", "content-type: application/json"]
        var curl: [Double] = []
        for _ in 0..<runs {
            let (ms, r) = try timed {
                try runProcess("/usr/bin/curl", curlArgs + ["\(mock.apns.baseURL)/3/device/\(T.ok)"], environment: env)
            }
            XCTAssertEqual(r.status, 0, r.stderr)
            curl.append(ms)
        }

        // Row 2: 50 devices of one app.
        let tokens = (0..<50).map { String(format: "%064x", 0xA0_0000 + $0) }
        try mock.saveProfile(tokens.map { Subscription(app: "neotrips-ios-dev", token: $0) })
        let before = mock.apns.connections
        var fifty: [Double] = []
        var connections: [Int] = []
        for _ in 0..<3 {
            let c0 = mock.apns.connections
            let (ms, r) = try timed {
                try runProcess(
                    bin, ["send", "summer-sale", "--store", mock.store.path, "--profile", "ana"], environment: env)
            }
            XCTAssertEqual(r.status, 0, r.stderr)
            fifty.append(ms)
            connections.append(mock.apns.connections - c0)
        }
        XCTAssertGreaterThan(mock.apns.connections, before)
        var curl50: [Double] = []
        let urls = tokens.map { "\(mock.apns.baseURL)/3/device/\($0)" }
        for _ in 0..<3 {
            let c0 = mock.apns.connections
            let (ms, r) = try timed { try runProcess("/usr/bin/curl", curlArgs + urls, environment: env) }
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(mock.apns.connections - c0, 1, "curl reused its connection")
            curl50.append(ms)
        }

        // Row 3: peak RSS of the 50-device send.
        let rss = try runProcess(
            "/usr/bin/time",
            ["-f", "%M", bin, "send", "summer-sale", "--store", mock.store.path, "--profile", "ana"], environment: env)
        let peakKB = rss.stderr.split(separator: "\n").last.map(String.init) ?? "?"

        func med(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        let rows = [
            String(
                format:
                    "send, 1 device (command start to exit)   pushdesk %.1f ms   curl --http2 %.1f ms   ratio %.2f×",
                med(pushdesk), med(curl), med(pushdesk) / med(curl)),
            String(
                format:
                    "send, 50 devices of one app              pushdesk %.1f ms, %d connection(s)   curl 50 URLs on one connection %.1f ms   ratio %.2f×",
                med(fifty), connections.max() ?? -1, med(curl50), med(fifty) / med(curl50)),
            "peak RSS, 50-device send                 \(peakKB) KB",
        ]
        print("SEND BENCH (\(bin))\n" + rows.joined(separator: "\n"))
        XCTAssertEqual(connections, [1, 1, 1])
    }

    /// Broadcast row: `send --channel` of a Live Activity update, command start to exit,
    /// against `curl --http2` posting the same body and headers with the same pre-signed
    /// token to the same broadcast mock (target ≤ 1.5×).
    func testBroadcastRow() throws {
        guard ProcessInfo.processInfo.environment["PUSHDESK_SEND_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: PUSHDESK_SEND_BENCH=1 runs it")
        }
        let bin =
            ProcessInfo.processInfo.environment["PUSHDESK_BENCH_BIN"]
            ?? packageRoot.appendingPathComponent(".build/debug/pushdesk").path
        let runs = 9
        let mock = try MockPushServices(self)
        let env = mock.environment()
        let channelId = "bWF0Y2gtMTIwNA=="
        let store = Store(root: mock.store)
        var service = try store.load(Service.self, "neotrips")
        guard case .ios(var app) = service.apps[0] else { return XCTFail("no iOS app") }
        app.channels = [BroadcastChannel(id: channelId, label: "Match 1204")]
        service.apps[0] = .ios(app)
        try store.save(service)
        mock.channels.addChannel(channelId)
        let delivery = Delivery(
            name: "match", label: "Match", service: "neotrips", content: DeliveryContent(title: "Goal!", body: "2-1"),
            ios: IOSOptions(type: .liveactivity),
            liveActivity: LiveActivity(event: "update", contentState: #"{"score":"2-1","minute":67}"#))
        try store.save(delivery)

        func timed(_ body: () throws -> CommandResult) rethrows -> (Double, CommandResult) {
            let start = Date()
            let r = try body()
            return (Date().timeIntervalSince(start) * 1000, r)
        }
        let target = BroadcastRequest.preview(
            delivery: delivery, service: service, app: app, channel: app.channels[0], now: Date()
        ).targets[0]
        let token = try APNsProviderToken(
            keyId: MockPushServices.keyId, teamId: MockPushServices.teamId, key: APNsAuthKey(privateKey: mock.apnsKey),
            issuedAt: Date())
        let body = mock.store.deletingLastPathComponent().appendingPathComponent("broadcast.json")
        try Data(target.payload.compactBytes).write(to: body)
        var curlArgs = [
            "--http2", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", mock.caFile.path, "--data-binary",
            "@" + body.path,
        ]
        for (n, v) in target.headers { curlArgs += ["-H", "\(n): \(v)"] }
        curlArgs += ["-H", "authorization: \(token.authorizationHeaderValue)", "-H", "content-type: application/json"]
        let url = mock.channels.broadcast.baseURL + "/4/broadcasts/apps/" + MockPushServices.bundleId
        var pushdesk: [Double] = []
        var curl: [Double] = []
        // Alternated, so both see the same machine load.
        for _ in 0..<runs {
            let (ours, r) = try timed {
                try runProcess(
                    bin,
                    ["send", "match", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--channel", channelId],
                    environment: env)
            }
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            pushdesk.append(ours)
            let (ref, c) = try timed { try runProcess("/usr/bin/curl", curlArgs + [url], environment: env) }
            XCTAssertEqual(c.stdout, "200", c.stderr)
            curl.append(ref)
        }
        XCTAssertEqual(mock.channels.problems, [])
        func med(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        let ratio = med(pushdesk) / med(curl)
        print(
            "SEND BENCH (\(bin))\n"
                + String(
                    format:
                        "broadcast send, 1 channel (start to exit) pushdesk %.1f ms   curl --http2 %.1f ms   ratio %.2f×   target ≤ 1.5×   %@",
                    med(pushdesk), med(curl), ratio, ratio <= 1.5 ? "ok" : "FAIL"))
    }
}
