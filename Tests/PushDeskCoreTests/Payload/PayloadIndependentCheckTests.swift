import Foundation
import XCTest

@testable import PushDeskCore
@testable import PushDeskFuzzing

/// The independent check of the issue: for a few hundred generated deliveries, the preview
/// document parses with Foundation's JSONSerialization (not our code), each target's
/// `payload` holds only keys docs/PAYLOADS.md names, its byte count — computed here from the parsed
/// values with the escaping of docs/PAYLOADS.md — equals `bytes`, and the texts survive the round trip.
final class PayloadIndependentCheckTests: XCTestCase {
    /// SplitMix64: a tiny seeded generator, so a failure replays exactly.
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
        mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }
        mutating func maybe<T>(_ percent: Int, _ make: (inout Rng) -> T) -> T? { chance(percent) ? make(&self) : nil }
    }

    // U+FEFF never starts a piece: swift-corelibs JSONSerialization drops a *leading* BOM
    // from every string it parses (it builds them with String(bytes:encoding:)), which
    // would make the parser, not the payload, disagree.
    static let pieces: [String] = [
        "Summer", " ", "sale", "\"", "\\", "/", "\\\"", "</script>", "東京", "へようこそ", "한국어", "🎉", "👩‍👩‍👧",
        "🇯🇵", "e\u{301}", "\u{2028}", "x\u{FEFF}", "\u{7F}", "%", "<%=", "<%= recipient.firstName %>",
        "<%= recipient.city %>", "https://cdn.example/x.jpg", "&", "<", ">", "'", "\u{10FFFF}",
    ]

    static func text(_ r: inout Rng) -> String {
        var s = ""
        let n = r.chance(5) ? 400 + r.int(600) : r.int(12)
        for _ in 0..<n {
            if r.chance(15) { s.unicodeScalars.append(Unicode.Scalar(UInt8(r.int(0x20)))) } else { s += r.pick(pieces) }
        }
        return s
    }

    static let numbers = ["0", "1", "0.5", "0.25", "0.75", "3", "17", "-1", "1.5", ".8", "x", ""]
    static let variableNames = ["mediaUrl", "VAR", "promo", "aps", "title", "_mId", "googleX", "from", "x"]

    static func delivery(_ r: inout Rng, index: Int) -> Delivery {
        let ios = IOSOptions(
            type: r.maybe(70) { $0.pick(PushType.all.filter { !$0.iosOnly }) },  // the shapes read here
            sound: r.maybe(40) { $0.pick(["default", "chime.caf", "bell.caf", "é\"/"]) },
            critical: r.maybe(30) { $0.chance(50) }, volume: r.maybe(30) { $0.pick(numbers) },
            badge: r.maybe(40) { $0.pick(numbers) },
            category: r.maybe(30) { text(&$0) }, mutableContent: r.maybe(40) { $0.chance(50) },
            contentAvailable: r.maybe(30) { $0.chance(50) },
            threadId: r.maybe(30) { text(&$0) }, interruptionLevel: r.maybe(40) { $0.pick(InterruptionLevel.allCases) },
            relevanceScore: r.maybe(40) { $0.pick(numbers) }, targetContentId: r.maybe(30) { text(&$0) },
            launchImage: r.maybe(20) { text(&$0) }, priority: r.maybe(40) { $0.pick(APNsPriority.allCases) },
            collapseId: r.maybe(30) { text(&$0) },
            expiration: r.maybe(30) { $0.pick(["2026-12-01T00:00:00Z", "2020-01-01T00:00:00Z", "soon"]) })
        let android = AndroidOptions(
            type: r.maybe(70) { $0.pick(AndroidDeliveryType.allCases) },
            priority: r.maybe(50) { $0.pick(AndroidPriority.allCases) },
            ttl: r.maybe(40) { $0.pick(numbers + ["86400", "2419201"]) }, collapseKey: r.maybe(30) { text(&$0) },
            channelId: r.maybe(40) { text(&$0) }, sound: r.maybe(40) { text(&$0) }, icon: r.maybe(40) { text(&$0) },
            color: r.maybe(40) { $0.pick(["#FF6600", "#ff66", "red"]) }, tag: r.maybe(40) { text(&$0) },
            clickAction: r.maybe(40) { text(&$0) },
            image: r.maybe(40) { $0.pick(["https://cdn.example/a.jpg", "http://x", text(&$0)]) },
            ticker: r.maybe(40) { text(&$0) }, sticky: r.maybe(40) { $0.chance(50) },
            visibility: r.maybe(40) { $0.pick(NotificationVisibility.allCases) },
            notificationPriority: r.maybe(40) { $0.pick(NotificationPriority.allCases) },
            notificationCount: r.maybe(40) { $0.pick(numbers) })
        var values: [VariableValue] = []
        for _ in 0..<r.int(5) {
            values.append(VariableValue(name: r.pick(variableNames), value: r.chance(10) ? "" : text(&r)))
        }
        return Delivery(
            name: "gen-\(index)", service: "neotrips",
            content: DeliveryContent(
                title: r.chance(80) ? text(&r) : "", subtitle: r.chance(40) ? text(&r) : "",
                body: r.chance(80) ? text(&r) : ""),
            tracking: r.maybe(50) { Tracking(messageId: text(&$0), deliveryId: text(&$0)) },
            ios: ios, android: android, variables: values)
    }

    static func service(_ r: inout Rng) -> Service {
        var apps: [MobileApp] = [
            .ios(PayloadFixture.iosApp(.sandbox, connector: r.pick(IOSConnector.allCases))),
            .ios(PayloadFixture.iosApp(.production)),
        ]
        var android = PayloadFixture.androidApp(api: r.pick(AndroidAPI.allCases))
        android.variables += [
            AppVariable(name: "title"), AppVariable(name: "aps"), AppVariable(name: "promo"), AppVariable(name: "VAR"),
        ]
        apps.append(.android(android))
        return Service(name: "neotrips", label: "Neotrips", apps: apps)
    }

    // MARK: the key names of docs/PAYLOADS.md, per place in each payload

    static let aps: Set = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "interruption-level", "relevance-score", "target-content-id",
        // A Live Activity's (docs/PAYLOADS.md).
        "timestamp", "event", "content-state", "attributes-type", "attributes", "stale-date", "dismissal-date",
        "input-push-token", "input-push-channel",
    ]
    /// `sound` sits in `alert` for a Live Activity.
    static let alert: Set = ["title", "subtitle", "body", "launch-image", "sound"]
    static let criticalSound: Set = ["critical", "name", "volume"]
    static let v1Message: Set = ["token", "notification", "data", "android"]
    static let v1Notification: Set = ["title", "body", "image"]
    static let v1Android: Set = ["priority", "ttl", "collapse_key", "notification"]
    static let v1AndroidNotification: Set = [
        "channel_id", "sound", "icon", "color", "tag", "click_action", "ticker", "sticky",
        "visibility", "notification_priority", "notification_count",
    ]
    static let legacyBody: Set = ["to", "priority", "time_to_live", "collapse_key", "data", "notification"]
    static let legacyNotification: Set = ["title", "body", "icon", "sound", "tag", "color", "click_action"]
    static let numberKeys: Set = [
        "badge", "content-available", "mutable-content", "relevance-score", "critical", "volume",
        "time_to_live", "notification_count",
        // A Live Activity's (docs/PAYLOADS.md); its content state comes without generated values here.
        "timestamp", "stale-date", "dismissal-date", "input-push-token",
    ]
    static let boolKeys: Set = ["sticky"]

    /// Compact byte count of a parsed JSON value, from docs/PAYLOADS.md alone (key order does not
    /// change the count). `key` says which member this value is, to print numbers/bools.
    static func bytes(_ v: Any, key: String?, path: String, allowed: (String) -> Set<String>?, errors: inout [String])
        -> Int
    {
        if let d = v as? [String: Any] {
            let names = allowed(path)
            var n = 2 + max(0, d.count - 1)
            for (k, value) in d {
                if let names, !names.contains(k) {
                    errors.append("\(path): key \"\(k)\" is not named by docs/PAYLOADS.md")
                }
                n +=
                    PayloadCheck.stringBytes(k) + 1
                    + bytes(value, key: k, path: path + "." + k, allowed: allowed, errors: &errors)
            }
            return n
        }
        if let s = v as? String {
            if let key, numberKeys.contains(key) || boolKeys.contains(key) {
                errors.append("\(path): expected a number/bool")
            }
            return PayloadCheck.stringBytes(s)
        }
        if let num = v as? NSNumber {
            guard let key else {
                errors.append("\(path): bare number")
                return 0
            }
            if boolKeys.contains(key) { return num.boolValue ? 4 : 5 }
            guard numberKeys.contains(key) else {
                errors.append("\(path): \(key) must be a string")
                return 0
            }
            let d = num.doubleValue
            return d == d.rounded() ? String(Int(d)).utf8.count : String(d).utf8.count
        }
        errors.append("\(path): unexpected value \(v)")
        return 0
    }

    static func personalized(_ s: String) -> String {
        s.replacingOccurrences(of: "<%= recipient.firstName %>", with: "Ana \"🌸\"")
            .replacingOccurrences(of: "<%= recipient.city %>", with: "東京\\")
    }

    func testGeneratedDeliveriesRoundTripThroughFoundation() throws {
        var r = Rng(state: 20_261_121)
        let profile = Profile(name: "ana", fields: [("firstName", "Ana \"🌸\""), ("city", "東京\\")])
        var checked = 0
        var overLimit = 0
        for i in 0..<300 {
            let d = Self.delivery(&r, index: i)
            let service = Self.service(&r)
            let usesProfile = r.chance(70)
            let p = PreviewEngine.preview(
                delivery: d, service: service, profile: usesProfile ? profile : nil,
                appKey: nil, token: r.maybe(50) { Self.text(&$0) }, now: PayloadFixture.now)
            let compact = p.json.compact
            let doc = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(compact.utf8)) as? [String: Any], "delivery \(i)")
            let prettyDoc = try JSONSerialization.jsonObject(with: Data(p.json.pretty.utf8)) as? NSDictionary
            XCTAssertEqual(doc as NSDictionary, prettyDoc, "pretty and compact differ for delivery \(i)")
            let targets = try XCTUnwrap(doc["targets"] as? [[String: Any]])
            XCTAssertEqual(targets.count, 3)
            for t in targets {
                let payload = try XCTUnwrap(t["payload"] as? [String: Any])
                let api = try XCTUnwrap(t["api"] as? String)
                let app = try XCTUnwrap(service.app(integrationKey: t["app"] as? String ?? ""))
                let custom = Set(
                    app.variables.map(\.name).filter { !DeliveryRules.isReservedVariable($0) } + ["_mId", "_dId"])
                var errors: [String] = []
                var counted = payload
                let allowed: (String) -> Set<String>?
                switch api {
                case "apns":
                    allowed = { path in
                        switch path {
                        case "": custom.union(["aps"])
                        case ".aps": Self.aps
                        case ".aps.alert": Self.alert
                        case ".aps.sound", ".aps.alert.sound": Self.criticalSound
                        default: nil
                        }
                    }
                    let alert = (payload["aps"] as? [String: Any])?["alert"] as? [String: Any]
                    if let title = alert?["title"] as? String {
                        XCTAssertEqual(title, usesProfile ? Self.personalized(d.content.title) : d.content.title)
                    }
                case "httpv1":
                    var message = try XCTUnwrap(payload["message"] as? [String: Any])
                    message["token"] = nil
                    counted = message
                    allowed = { path in
                        switch path {
                        case "": Self.v1Message
                        case ".notification": Self.v1Notification
                        case ".data": custom.union(["title", "_msg"])
                        case ".android": Self.v1Android
                        case ".android.notification": Self.v1AndroidNotification
                        default: nil
                        }
                    }
                    if let msg = (message["data"] as? [String: Any])?["_msg"] as? String {
                        XCTAssertEqual(msg, usesProfile ? Self.personalized(d.content.body) : d.content.body)
                    }
                default:
                    XCTAssertEqual(api, "legacy")
                    counted["to"] = nil
                    allowed = { path in
                        switch path {
                        case "": Self.legacyBody
                        case ".data": custom.union(["title", "_msg"])
                        case ".notification": Self.legacyNotification
                        default: nil
                        }
                    }
                }
                let n = Self.bytes(counted, key: nil, path: "", allowed: allowed, errors: &errors)
                XCTAssertEqual(errors, [], "delivery \(i) \(api)")
                XCTAssertEqual(n, t["bytes"] as? Int, "delivery \(i) \(api): bytes")
                let rules = (t["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
                XCTAssertEqual(rules.contains("size.limit"), n > 4096, "delivery \(i) \(api): size.limit")
                if n > 4096 { overLimit += 1 }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 900)
        XCTAssertGreaterThan(overLimit, 0, "the generator should also produce oversized payloads")
    }
}
