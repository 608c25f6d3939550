import XCTest

@testable import PushDeskCore

/// The size rules count a payload's bytes with the same builder that makes the payload
/// (`JSONByteCount`), without building it. The count must equal the bytes of the payload
/// a preview shows, for every platform and option, and the rules must report the same
/// findings either way.
final class PayloadByteCountTests: XCTestCase {
    /// Deliveries touching every key of every builder: each option set or not, strings with
    /// quotes, backslashes, control characters and non-ASCII, both types per platform.
    func deliveries() -> [Delivery] {
        var rng = SystemRandomNumberGenerator()
        let texts = [
            "", "Summer is here", "Quote \" and \\ backslash", "Tab\tnew\nline\u{1}", "Café 旅 🚀",
            String(repeating: "x", count: 300), String(repeating: "y", count: 4100),
        ]
        func text() -> String { texts.randomElement(using: &rng)! }
        func maybe<T>(_ v: T) -> T? { Bool.random(using: &rng) ? v : nil }
        var out: [Delivery] = []
        for _ in 0..<300 {
            let ios = IOSOptions(
                type: maybe(PushType.allCases.randomElement(using: &rng)!), sound: maybe(text()),
                critical: maybe(Bool.random(using: &rng)),
                volume: maybe(["0.5", "1", "2", "x"].randomElement(using: &rng)!),
                badge: maybe(["0", "3", "-1", "x"].randomElement(using: &rng)!), category: maybe(text()),
                mutableContent: maybe(Bool.random(using: &rng)), contentAvailable: maybe(Bool.random(using: &rng)),
                threadId: maybe(text()), interruptionLevel: maybe(.timeSensitive),
                relevanceScore: maybe(["0.25", "7"].randomElement(using: &rng)!), targetContentId: maybe(text()),
                launchImage: maybe(text()))
            let android = AndroidOptions(
                type: maybe(AndroidDeliveryType.allCases.randomElement(using: &rng)!),
                priority: maybe(AndroidPriority.allCases.randomElement(using: &rng)!),
                ttl: maybe(["86400", "-5", "x"].randomElement(using: &rng)!), collapseKey: maybe(text()),
                channelId: maybe(text()), sound: maybe(text()), icon: maybe(text()),
                color: maybe(["#FF6600", "red"].randomElement(using: &rng)!), tag: maybe(text()),
                clickAction: maybe(text()), image: maybe("https://cdn.example/i.jpg"), ticker: maybe(text()),
                sticky: maybe(Bool.random(using: &rng)), visibility: maybe(.secret),
                notificationPriority: maybe(.high), notificationCount: maybe(["4", "x"].randomElement(using: &rng)!))
            var vars = [VariableValue(name: "mediaUrl", value: text()), VariableValue(name: "VAR", value: text())]
            if Bool.random(using: &rng) { vars.append(VariableValue(name: "VAR", value: "twice")) }
            if Bool.random(using: &rng) { vars.append(VariableValue(name: "title", value: "collides")) }
            out.append(
                PayloadFixture.delivery(
                    title: text(), subtitle: text(), body: text(), ios: ios, android: android, variables: vars))
        }
        return out
    }

    func testCountEqualsTheBytesOfThePayload() {
        var service = PayloadFixture.service()
        for i in service.apps.indices { service.apps[i].variables.append(AppVariable(name: "title", label: "Title")) }
        let legacy = PayloadFixture.androidApp(api: .legacy)
        let tracking = Tracking(messageId: PayloadFixture.messageId, deliveryId: "56c4")
        for d in deliveries() {
            for case .ios(let app) in service.apps {
                XCTAssertEqual(
                    APNsRequest.payloadBytes(delivery: d, app: app, tracking: tracking, timestamp: 1_764_612_000),
                    APNsRequest.payload(delivery: d, app: app, tracking: tracking, timestamp: 1_764_612_000)
                        .compactBytes.count)
            }
            for case .android(let app) in service.apps {
                // FCM v1: the message without its token; legacy: the body without `to`.
                guard
                    case .object(let top) = FCMv1Message.payload(delivery: d, app: app, tracking: tracking, token: "T"),
                    case .object(let message) = top[0].1
                else { return XCTFail("no message") }
                XCTAssertEqual(message.first?.0, "token")
                XCTAssertEqual(
                    FCMv1Message.payloadBytes(delivery: d, app: app, tracking: tracking),
                    JSONValue.object(Array(message.dropFirst())).compactBytes.count)
                guard
                    case .object(let body) = FCMLegacyMessage.payload(
                        delivery: d, app: legacy, tracking: tracking, token: "T")
                else {
                    return XCTFail("no body")
                }
                XCTAssertEqual(body.first?.0, "to")
                XCTAssertEqual(
                    FCMLegacyMessage.payloadBytes(delivery: d, app: legacy, tracking: tracking),
                    JSONValue.object(Array(body.dropFirst())).compactBytes.count)
            }
        }
    }

    /// The rules (counting only) and the preview (building) report the same findings and sizes.
    func testRulesWithoutPayloadsSeeWhatThePreviewSees() {
        let service = PayloadFixture.service()
        var over = 0
        for d in deliveries() {
            let shown = PreviewEngine.preview(
                delivery: d, service: service, profile: nil, appKey: nil, token: nil,
                now: PayloadFixture.now, serviceFindings: [], payloads: true)
            let counted = PreviewEngine.preview(
                delivery: d, service: service, profile: nil, appKey: nil, token: nil,
                now: PayloadFixture.now, serviceFindings: [], payloads: false)
            XCTAssertEqual(shown.diagnostics, counted.diagnostics)
            XCTAssertEqual(shown.targets.map(\.bytes), counted.targets.map(\.bytes))
            XCTAssertEqual(shown.targets.map(\.diagnostics), counted.targets.map(\.diagnostics))
            XCTAssertTrue(counted.targets.allSatisfy { $0.payload == .null })
            over += shown.targets.filter { $0.bytes > $0.limit }.count
        }
        XCTAssertGreaterThan(over, 0, "some deliveries cross the size limit")
    }

    /// A deliveries list shows the largest payload per row, counted without a preview: the
    /// same number as the largest target of the preview the composer shows, with v1 and
    /// legacy Android apps, and nothing for a service without apps.
    func testLargestPayloadIsThePreviewsLargestTarget() {
        var legacyService = PayloadFixture.service()
        legacyService.apps.append(.android(PayloadFixture.androidApp(api: .legacy)))
        var over = 0
        for service in [PayloadFixture.service(), legacyService] {
            for d in deliveries() {
                let shown = PreviewEngine.preview(
                    delivery: d, service: service, profile: nil, appKey: nil, token: nil,
                    now: PayloadFixture.now)
                let largest = PreviewEngine.largestPayload(delivery: d, service: service)
                XCTAssertEqual(largest?.bytes, shown.targets.map(\.bytes).max())
                XCTAssertEqual(largest?.limit, shown.targets.first?.limit)
                if let l = largest, l.bytes > l.limit { over += 1 }
            }
        }
        XCTAssertGreaterThan(over, 0, "some deliveries cross the size limit")
        var empty = PayloadFixture.service()
        empty.apps = []
        XCTAssertNil(PreviewEngine.largestPayload(delivery: deliveries()[0], service: empty))
    }
}
