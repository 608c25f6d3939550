import Foundation
import XCTest

@testable import PushDeskCore

/// Property tests of the merge driver (docs/TEAMS.md): a random base record, random edits on
/// both sides, and the merge checked against the rules written a second time (`OracleRules`):
/// each field from the side that changed it, conflicts exactly where both changed it
/// differently, entries by identity in the pinned order, the output canonical.
/// Small value pools make both sides often touch the same field, the same way or not.
final class MergePropertyTests: XCTestCase {
    static let cases = 1500

    // MARK: services

    private static let keys = ["k1", "k2", "k3", "k4", "k5", "k6"]
    private static let names = ["v1", "v2", "v3", "v4", "v5"]
    private static let labels = ["", "A", "B"]

    private func randomVariables(_ r: inout SeededRandom) -> [AppVariable] {
        (0..<r.int(4)).map { _ in AppVariable(name: r.pick(Self.names), label: r.pick(Self.labels)) }
    }

    private func randomApp(_ r: inout SeededRandom, key: String) -> MobileApp {
        let auths: [IOSAuth?] = [
            nil, .token(keyId: "K1", teamId: "T1", keyFile: "a.p8"), .token(keyId: "K2", teamId: "T1", keyFile: "a.p8"),
            .certificate(certificateFile: "c.p12", passwordRef: "pw"),
        ]
        if r.chance(60) {
            return .ios(
                IOSApp(
                    environment: r.pick(IOSEnvironment.allCases), label: r.pick(["iOS", "iPhone"]), integrationKey: key,
                    bundleId: r.pick(["com.a.app", "com.b.app"]), connector: r.pick(IOSConnector.allCases),
                    icon: r.pick(["", "i.png"]), auth: r.pick(auths), variables: randomVariables(&r),
                    subscriptionParams: r.chance(50) ? [SubscriptionParam(name: "p1", field: "@p1")] : [],
                    sounds: (0..<r.int(3)).map { _ in
                        Sound(name: r.pick(["s1.caf", "s2.caf"]), label: r.pick(Self.labels))
                    }))
        }
        return .android(
            AndroidApp(
                label: r.pick(["Android", "Droid"]), integrationKey: key, packageName: r.pick(["com.a.app", "com.b"]),
                api: r.pick(AndroidAPI.allCases), connector: r.pick(AndroidConnector.allCases),
                maxConnectPerChild: r.pick([nil, 4, 8]),
                auth: r.pick([
                    nil, .serverKey(serverKeyRef: "sk"),
                    .serviceAccount(projectId: "p", clientEmail: "e@p", keyFile: "f.json"),
                ]),
                variables: randomVariables(&r)))
    }

    private func randomService(_ r: inout SeededRandom) -> Service {
        var keys = Self.keys
        var apps: [MobileApp] = []
        for _ in 0..<r.int(4) {
            let key = keys.remove(at: r.int(keys.count))
            apps.append(randomApp(&r, key: key))
        }
        return Service(
            name: "svc", label: r.pick(["Neo", "Trips"]), targetMapping: r.pick(["nms:appSubscriptionRcp", "cus:rcp"]),
            marketingUrl: r.pick(["https://m.example/", "https://m2.example/"]),
            trackingUrl: r.pick(["https://t.example/", ""]), apps: apps)
    }

    private func edit(_ s: Service, _ r: inout SeededRandom) -> Service {
        var s = s
        for _ in 0..<r.int(4) {
            let unused = Self.keys.filter { k in !s.apps.contains { $0.integrationKey == k } }
            switch r.int(10) {
            case 0: s.label = r.pick(["Neo", "Trips", "Other"])
            case 1: s.marketingUrl = r.pick(["https://m.example/", "https://m3.example/"])
            case 2: s.trackingUrl = r.pick(["https://t.example/", "", "https://t2.example/"])
            case 3 where !unused.isEmpty:
                s.apps.insert(randomApp(&r, key: r.pick(unused)), at: r.int(s.apps.count + 1))
            case 4 where !s.apps.isEmpty: s.apps.remove(at: r.int(s.apps.count))
            case 5 where !s.apps.isEmpty && !unused.isEmpty: s.apps[r.int(s.apps.count)].integrationKey = r.pick(unused)
            case 6 where !s.apps.isEmpty:
                let i = r.int(s.apps.count)
                let replacement = randomApp(&r, key: s.apps[i].integrationKey)
                // One field of the app from a freshly drawn one, the rest kept.
                switch (s.apps[i], replacement) {
                case (.ios(var a), .ios(let b)):
                    switch r.int(4) {
                    case 0: a.label = b.label
                    case 1: a.auth = b.auth
                    case 2: a.icon = b.icon
                    default: a.connector = b.connector
                    }
                    s.apps[i] = .ios(a)
                case (.android(var a), .android(let b)):
                    switch r.int(3) {
                    case 0: a.label = b.label
                    case 1: a.auth = b.auth
                    default: a.maxConnectPerChild = b.maxConnectPerChild
                    }
                    s.apps[i] = .android(a)
                default: s.apps[i].label = r.pick(["iOS", "Droid", "X"])
                }
            case 7...8 where !s.apps.isEmpty:
                let i = r.int(s.apps.count)
                var vars = s.apps[i].variables
                switch r.int(4) {
                case 0:
                    vars.insert(
                        AppVariable(name: r.pick(Self.names), label: r.pick(Self.labels)), at: r.int(vars.count + 1))
                case 1 where !vars.isEmpty: vars.remove(at: r.int(vars.count))
                case 2 where !vars.isEmpty: vars[r.int(vars.count)].label = r.pick(Self.labels)
                case 3 where vars.count > 1: vars.swapAt(r.int(vars.count), r.int(vars.count))
                default: break
                }
                s.apps[i].variables = vars
            case 9 where !s.apps.isEmpty:
                let i = r.int(s.apps.count)
                if case .ios(var a) = s.apps[i] {
                    if a.sounds.isEmpty || r.chance(50) {
                        a.sounds.append(Sound(name: r.pick(["s1.caf", "s3.caf"]), label: r.pick(Self.labels)))
                    } else {
                        a.sounds[r.int(a.sounds.count)].label = r.pick(Self.labels)
                    }
                    if r.chance(40) {
                        if a.channels.isEmpty || r.chance(50) {
                            a.channels.append(
                                BroadcastChannel(
                                    id: r.pick(["Y2gx", "Y2gy", "Y2gz"]), label: r.pick(Self.labels),
                                    storage: r.pick(ChannelStorage.allCases)))
                        } else {
                            a.channels[r.int(a.channels.count)].label = r.pick(Self.labels)
                        }
                    }
                    s.apps[i] = .ios(a)
                } else {
                    s.apps[i].subscriptionParams = r.chance(50) ? [] : [SubscriptionParam(name: "p2", field: "@p2")]
                }
            default: break
            }
        }
        return s
    }

    func testServiceMergesFollowTheRules() throws {
        var conflicted = 0
        for seed in 0..<UInt64(Self.cases) {
            var r = SeededRandom(seed: seed)
            let base = randomService(&r)
            let ours = edit(base, &r)
            let theirs = edit(base, &r)
            let encoded = try [base, ours, theirs].map { Data(try ServiceXML.encode($0).utf8) }
            let result = try RecordMerge.merge(
                base: encoded[0], ours: encoded[1], theirs: encoded[2], path: "services/svc.xml", kind: .service)
            let merged = try ServiceXML.decode(Data(result.text.utf8), file: "merged").0
            let (expected, expectedConflicts) = OracleEntry.serviceRules.merge(
                OracleEntry(base), OracleEntry(ours), OracleEntry(theirs))
            let context =
                "seed \(seed)\nbase:\n\(try ServiceXML.encode(base))ours:\n\(try ServiceXML.encode(ours))theirs:\n\(try ServiceXML.encode(theirs))merged:\n\(result.text)"
            XCTAssertEqual(OracleEntry(merged), expected, context)
            XCTAssertEqual(result.conflicts.map(\.field).sorted(), expectedConflicts.sorted(), context)
            XCTAssertEqual(try ServiceXML.encode(merged), result.text, "not canonical: " + context)
            if !expectedConflicts.isEmpty { conflicted += 1 }
            if seed % 8 == 0 {
                // Only OURS changed: OURS exactly, never a conflict. (Only THEIRS changed is not
                // always THEIRS: a reorder made only by THEIRS is not kept.)
                let one = try RecordMerge.merge(
                    base: encoded[0], ours: encoded[1], theirs: encoded[0], path: "services/svc.xml", kind: .service)
                XCTAssertEqual(one.text, String(decoding: encoded[1], as: UTF8.self), context)
                XCTAssertEqual(one.conflicts, [], context)
            }
            if testRun?.failureCount ?? 0 > 3 { break }
        }
        // The generator reaches both outcomes often.
        XCTAssertGreaterThan(conflicted, Self.cases / 25)
        XCTAssertLessThan(conflicted, Self.cases * 9 / 10)
    }

    // MARK: deliveries

    /// A delivery as attribute and text values (not the `Delivery` struct, so the test holds
    /// whatever shape the options take in code): element → attribute → value.
    private struct DeliveryShape {
        var root: [String: String] = [:]
        var content: [String: String] = [:]
        var tracking: [String: String]?
        var ios: [String: String] = [:]
        /// `<liveActivity>`'s attributes and its texts (`contentState`, `attributes`); the
        /// element is there when it has a content state, which it always needs.
        var live: [String: String] = [:]
        var liveTexts: [String: String] = [:]
        var android: [String: String] = [:]
        var values: [(String, String)] = []

        var xml: String {
            func attrs(_ d: [String: String]) -> String {
                d.keys.sorted().map { " \($0)=\"\(d[$0]!)\"" }.joined()
            }
            var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<delivery format=\"1\" name=\"d\"\(attrs(root))>\n"
            if !content.isEmpty {
                s +=
                    "<content>" + content.keys.sorted().map { "<\($0)>\(content[$0]!)</\($0)>" }.joined()
                    + "</content>\n"
            }
            if let tracking { s += "<tracking\(attrs(tracking))/>\n" }
            if !ios.isEmpty { s += "<ios\(attrs(ios))/>\n" }
            if let state = liveTexts["contentState"] {
                s +=
                    "<liveActivity\(attrs(live))><contentState>\(state)</contentState>"
                    + (liveTexts["attributes"].map { "<attributes>\($0)</attributes>" } ?? "") + "</liveActivity>\n"
            }
            if !android.isEmpty { s += "<android\(attrs(android))/>\n" }
            if !values.isEmpty {
                s +=
                    "<variables>" + values.map { "<value name=\"\($0.0)\">\($0.1)</value>" }.joined() + "</variables>\n"
            }
            return s + "</delivery>\n"
        }

        var oracle: OracleEntry {
            var fields: [String: String?] = [:]
            for (k, v) in root { fields[k] = v }
            for (k, v) in content { fields["content." + k] = v }
            for (k, v) in ios { fields["ios." + k] = v }
            for (k, v) in live.merging(liveTexts, uniquingKeysWith: { a, _ in a }) { fields["liveActivity." + k] = v }
            for (k, v) in android { fields["android." + k] = v }
            fields["tracking"] = tracking.map { "\($0.sorted { $0.key < $1.key })" }
            return OracleEntry(
                fields: fields, lists: ["variables": values.map { OracleEntry(id: $0.0, fields: ["": $0.1]) }])
        }

        init() {}

        /// Read back from the merged file with the store's XML reader.
        init(_ text: String) throws {
            let root = try XMLReader.parse(Data(text.utf8), file: "merged")
            func dict(_ n: XMLNode) -> [String: String] {
                Dictionary(uniqueKeysWithValues: n.attributes.map { ($0.name, $0.value) })
            }
            // A save writes `label` and `service` even when empty: empty is "not set" here.
            self.root = dict(root).filter { $0.key != "format" && $0.key != "name" && !$0.value.isEmpty }
            for child in root.children {
                switch child.name {
                case "content": for c in child.children { content[c.name] = c.text }
                case "tracking": tracking = dict(child)
                case "ios": ios = dict(child)
                case "liveActivity":
                    live = dict(child)
                    for c in child.children { liveTexts[c.name] = c.text }
                case "android": android = dict(child)
                default: values = child.children.map { ($0.attribute("name") ?? "", $0.text) }
                }
            }
        }
    }

    private static let iosOptions = [
        "sound": ["default", "chime.caf"], "badge": ["1", "2"], "threadId": ["t1", "t2"], "priority": ["10", "5"],
        "collapseId": ["x", "y"],
    ]
    private static let liveOptions = [
        "event": ["start", "update", "end"], "attributesType": ["TripAttributes", "OrderAttributes"],
        "staleDate": ["2026-12-01T18:00:00Z", "2026-12-02T18:00:00Z"], "inputPushToken": ["true", "false"],
        "inputPushChannel": ["Y2gx", "Y2gy"],
    ]
    /// JSON texts, kept byte for byte (key order, number spelling, line breaks).
    private static let liveStates = [
        #"{"gate":"B12"}"#, #"{"gate":"C3","eta":1.764612E9}"#,
        "{\n  \"status\": \"boarding\",\n  \"seats\": [1, 2.50]\n}",
    ]
    private static let liveAttributes = [#"{"flight":"NT 401"}"#, #"{"flight":"NT 402","to":"HND"}"#]
    private static let androidOptions = [
        "ttl": ["60", "3600"], "collapseKey": ["a", "b"], "channelId": ["c1", "c2"], "color": ["#FF0000", "#00FF00"],
    ]

    private func mutate(_ d: inout [String: String], _ pool: [String: [String]], _ r: inout SeededRandom) {
        let key = r.pick(pool.keys.sorted())
        if r.chance(25) { d[key] = nil } else { d[key] = r.pick(pool[key]!) }
    }

    private func editDelivery(_ d: DeliveryShape, _ r: inout SeededRandom, count: Int) -> DeliveryShape {
        var d = d
        for _ in 0..<count {
            switch r.int(8) {
            case 0: mutate(&d.root, ["label": ["L1", "L2"], "service": ["s1", "s2"]], &r)
            case 1: mutate(&d.content, ["title": ["T1", "T2"], "subtitle": ["S1"], "body": ["B1", "B2"]], &r)
            case 2:
                d.tracking = r.pick([
                    nil, ["messageId": "m1", "deliveryId": "d1"], ["messageId": "m2", "deliveryId": "d1"],
                ])
            case 3: mutate(&d.ios, Self.iosOptions, &r)
            case 4: mutate(&d.android, Self.androidOptions, &r)
            case 5:
                // The content state comes first and never goes: `<liveActivity>` needs it.
                if d.liveTexts["contentState"] == nil { d.liveTexts["contentState"] = r.pick(Self.liveStates) }
                switch r.int(3) {
                case 0: mutate(&d.live, Self.liveOptions, &r)
                case 1: d.liveTexts["contentState"] = r.pick(Self.liveStates)
                default: d.liveTexts["attributes"] = r.chance(25) ? nil : r.pick(Self.liveAttributes)
                }
            default:
                let name = r.pick(Self.names)
                if let i = d.values.firstIndex(where: { $0.0 == name }) {
                    if r.chance(40) { d.values.remove(at: i) } else { d.values[i].1 = r.pick(["x", "y", "z"]) }
                } else {
                    d.values.insert((name, r.pick(["x", "y"])), at: r.int(d.values.count + 1))
                }
            }
        }
        return d
    }

    func testDeliveryMergesFollowTheRules() throws {
        let rules = OracleRules { _, _, entry, _ in "variables." + entry.id }
        var conflicted = 0
        for seed in 0..<UInt64(Self.cases) {
            var r = SeededRandom(seed: seed &+ 1_000_000)
            let base = editDelivery(DeliveryShape(), &r, count: r.int(10))
            let ours = editDelivery(base, &r, count: 1 + r.int(4))
            let theirs = editDelivery(base, &r, count: 1 + r.int(4))
            // Half the cases: both sides created the record (an empty BASE).
            let emptyBase = seed % 10 == 0
            let result = try RecordMerge.merge(
                base: Data((emptyBase ? "" : base.xml).utf8), ours: Data(ours.xml.utf8), theirs: Data(theirs.xml.utf8),
                path: "deliveries/d.xml", kind: .delivery)
            let (expected, expectedConflicts) = rules.merge(emptyBase ? nil : base.oracle, ours.oracle, theirs.oracle)
            let context =
                "seed \(seed)\nbase:\n\(base.xml)ours:\n\(ours.xml)theirs:\n\(theirs.xml)merged:\n\(result.text)"
            XCTAssertEqual(try DeliveryShape(result.text).oracle, expected, context)
            XCTAssertEqual(result.conflicts.map(\.field).sorted(), expectedConflicts.sorted(), context)
            let reread = try DeliveryXML.decode(Data(result.text.utf8), file: "merged").0
            XCTAssertEqual(try DeliveryXML.encode(reread), result.text, "not canonical: " + context)
            if !expectedConflicts.isEmpty { conflicted += 1 }
            if testRun?.failureCount ?? 0 > 3 { break }
        }
        XCTAssertGreaterThan(conflicted, Self.cases / 25)
        XCTAssertLessThan(conflicted, Self.cases * 9 / 10)
    }

    // MARK: profiles

    private static let profileFields = ["firstName", "lastName", "email", "city", "tier"]

    private func editProfile(_ p: Profile, _ r: inout SeededRandom, count: Int) -> Profile {
        var p = p
        for _ in 0..<count {
            switch r.int(7) {
            case 0, 1:
                let name = r.pick(Self.profileFields)
                let value = r.pick(["Ana", "Rui", ""])
                if let i = p.fields.firstIndex(where: { $0.name == name }) {
                    if r.chance(30) { p.fields.remove(at: i) } else { p.fields[i].value = value }
                } else {
                    p.fields.insert((name, value), at: r.int(p.fields.count + 1))
                }
            case 2 where !p.subscriptions.isEmpty: p.subscriptions.remove(at: r.int(p.subscriptions.count))
            case 3 where !p.subscriptions.isEmpty:
                p.subscriptions[r.int(p.subscriptions.count)].label = r.pick([nil, "Phone", "Tablet"])
            case 4 where !p.subscriptions.isEmpty:
                p.subscriptions[r.int(p.subscriptions.count)].userKey = r.pick([nil, "ana@x", "rui@x"])
            case 5 where !p.subscriptions.isEmpty:
                p.subscriptions[r.int(p.subscriptions.count)].kind = r.pick(TokenKind.allCases)
            default:
                p.subscriptions.insert(
                    Subscription(
                        app: r.pick(["k1", "k2"]), token: r.pick(["aa11", "bb22", "cc33"]),
                        label: r.pick([nil, "Phone"]), kind: r.chance(70) ? .device : r.pick(TokenKind.allCases)),
                    at: r.int(p.subscriptions.count + 1))
            }
        }
        return p
    }

    private func oracle(_ p: Profile) -> OracleEntry {
        var fields: [String: String?] = [:]
        for f in p.fields { fields[f.name] = f.value.isEmpty ? "(empty)" : f.value }
        return OracleEntry(
            fields: fields,
            lists: [
                "subscriptions": p.subscriptions.map {
                    OracleEntry(
                        id: $0.app + "+" + $0.token,
                        fields: [
                            "app": $0.app, "token": $0.token, "userKey": $0.userKey, "label": $0.label,
                            // Written only when it is not `device`.
                            "kind": $0.kind == .device ? nil : $0.kind.rawValue,
                        ])
                }
            ])
    }

    func testProfileMergesFollowTheRules() throws {
        let rules = OracleRules { _, _, _, index in "subscriptions[\(index)]" }
        var conflicted = 0
        for seed in 0..<UInt64(Self.cases) {
            var r = SeededRandom(seed: seed &+ 2_000_000)
            let base = editProfile(Profile(name: "ana"), &r, count: r.int(8))
            let ours = editProfile(base, &r, count: r.int(4))
            let theirs = editProfile(base, &r, count: r.int(4))
            let encoded = try [base, ours, theirs].map { Data(try ProfileXML.encode($0).utf8) }
            let result = try RecordMerge.merge(
                base: encoded[0], ours: encoded[1], theirs: encoded[2], path: "profiles/ana.xml", kind: .profile)
            let merged = try ProfileXML.decode(Data(result.text.utf8), file: "merged", name: "ana")
            let (expected, expectedConflicts) = rules.merge(oracle(base), oracle(ours), oracle(theirs))
            let context =
                "seed \(seed)\nbase:\n\(try ProfileXML.encode(base))ours:\n\(try ProfileXML.encode(ours))theirs:\n\(try ProfileXML.encode(theirs))merged:\n\(result.text)"
            XCTAssertEqual(oracle(merged), expected, context)
            XCTAssertEqual(result.conflicts.map(\.field).sorted(), expectedConflicts.sorted(), context)
            XCTAssertEqual(try ProfileXML.encode(merged), result.text, "not canonical: " + context)
            // The recipient's fields: OURS' order, then THEIRS' additions in THEIRS' order.
            let oursNames = ours.fields.map(\.name)
            let order = oursNames + theirs.fields.map(\.name).filter { !oursNames.contains($0) }
            XCTAssertEqual(
                merged.fields.map(\.name), order.filter { n in merged.fields.contains { $0.name == n } }, context)
            if !expectedConflicts.isEmpty { conflicted += 1 }
            if testRun?.failureCount ?? 0 > 3 { break }
        }
        XCTAssertGreaterThan(conflicted, Self.cases / 25)
        XCTAssertLessThan(conflicted, Self.cases * 9 / 10)
    }
}
