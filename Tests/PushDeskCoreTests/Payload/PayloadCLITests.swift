import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// Drives the built `pushdesk preview` / `validate` on real stores, as an operator would.
final class PayloadCLITests: XCTestCase {
    static let packageRoot = PushDeskCoreTests.packageRoot
    static let binary = packageRoot.appendingPathComponent(".build/debug/pushdesk")
    var store: URL!

    override func setUpWithError() throws {
        _ = try builtPushDesk()
        store = FileManager.default.temporaryDirectory.appendingPathComponent("pd-cli-\(UUID().uuidString)")
        try DemoStore.write(to: store)
    }

    override func tearDown() {
        if let store { try? FileManager.default.removeItem(at: store) }
    }

    struct Run {
        var code: Int32
        var out: String
        var err: String
    }

    func pushdesk(_ args: String...) throws -> Run { try pushdesk(args) }

    func pushdesk(_ args: [String]) throws -> Run {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args + ["--store", store.path]
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = PipeReader(out.fileHandleForReading)
        let e = PipeReader(err.fileHandleForReading)
        try p.waitUntilExit(within: defaultChildDeadline) { "stdout:\n\(o.text)\nstderr:\n\(e.text)" }
        return Run(
            code: p.terminationStatus, out: String(decoding: o.finish(), as: UTF8.self),
            err: String(decoding: e.finish(), as: UTF8.self))
    }

    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: store.appendingPathComponent(relative))
    }

    /// A Live Activity whose `<contentState>` is empty previews with `liveactivity.content-state`
    /// on that field, on every event, and no payload carries a content state it does not
    /// have; `validate` reports it where the text starts, and exits 1 (docs/PAYLOADS.md).
    func testAnEmptyContentStateIsAnErrorOnEveryEvent() throws {
        for event in ["start", "update", "end"] {
            let start = event == "start" ? #" attributesType="TripAttributes""# : ""
            let attributes = event == "start" ? #"<attributes>{"flight":"NT 401"}</attributes>"# : ""
            try write(
                "deliveries/la-\(event).xml",
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <delivery format="1" name="la-\(event)" label="Flight" service="neotrips">
                  <content>
                    <title>Boarding</title><body>Gate B12</body>
                  </content>
                  <ios type="liveactivity" priority="5"/>
                  <liveActivity event="\(event)"\(start)>
                    <contentState></contentState>\(attributes)
                  </liveActivity>
                </delivery>

                """)
            let r = try pushdesk("preview", "la-\(event)", "--app", "neotrips-ios", "--json", "--at", "1796136000")
            XCTAssertEqual(r.code, 1, "\(event): \(r.out)\(r.err)")
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            let target = try XCTUnwrap((doc["targets"] as? [[String: Any]])?.first, "\(event): \(r.out)")
            let found = (target["diagnostics"] as? [[String: Any]] ?? []).map {
                ($0["rule"] as? String ?? "", $0["severity"] as? String ?? "", $0["field"] as? String ?? "")
            }
            XCTAssertTrue(
                found.contains { $0 == ("liveactivity.content-state", "error", "liveActivity.contentState") },
                "\(event): \(found)")
            XCTAssertFalse(found.contains { $0.0 == "liveactivity.json" }, "\(event): reported twice: \(found)")
            XCTAssertFalse(r.out.contains("\"content-state\""), "\(event): a payload with a content state: \(r.out)")
        }
        let v = try pushdesk("validate")
        XCTAssertEqual(v.code, 1, v.out + v.err)
        for event in ["start", "update", "end"] {
            XCTAssertTrue(
                (v.out + v.err).contains(
                    "deliveries/la-\(event).xml:8:19: error: liveActivity.contentState: a Live Activity \(event) needs a content state"
                ),
                v.out + v.err)
        }
    }

    /// An iOS-only type (docs/PAYLOADS.md) lists no Android target; the text says why instead of a
    /// bare "0 targets", and the JSON keeps the contract's shape (no target, no extra key).
    func testAnIOSOnlyTypeSaysWhyTheAndroidAppGetsNoRequest() throws {
        try write(
            "deliveries/reload.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <delivery format="1" name="reload" label="Widgets reload" service="neotrips">
              <ios type="widgets"/>
            </delivery>

            """)
        let android = try pushdesk("preview", "reload", "--app", "neotrips-android")
        XCTAssertEqual(android.code, 0, android.err)
        XCTAssertEqual(
            android.out.split(separator: "\n").prefix(2),
            [
                "reload → service neotrips, 0 targets",
                "neotrips-android: no request, widgets is iOS only (type.ios-only)",
            ])
        let all = try pushdesk("preview", "reload")
        XCTAssertTrue(
            all.out.hasPrefix(
                "reload → service neotrips, 2 targets\nneotrips-android: no request, widgets is iOS only"), all.out)
        let ios = try pushdesk("preview", "reload", "--app", "neotrips-ios")
        XCTAssertFalse(ios.out.contains("no request"), ios.out)
        let json = try pushdesk("preview", "reload", "--app", "neotrips-android", "--json")
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        XCTAssertEqual(doc.keys.sorted(), ["delivery", "diagnostics", "service", "targets"])
        XCTAssertEqual((doc["targets"] as? [Any])?.count, 0)
    }

    func testDemoRichDeliveryAsJSONMatchesSpecShape() throws {
        let r = try pushdesk("preview", "summer-sale", "--profile", "ana", "--json")
        XCTAssertEqual(r.code, 0, r.err)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        XCTAssertEqual(doc["delivery"] as? String, "summer-sale")
        XCTAssertEqual(doc["service"] as? String, "neotrips")
        XCTAssertEqual((doc["diagnostics"] as? [Any])?.count, 0)
        let targets = try XCTUnwrap(doc["targets"] as? [[String: Any]])
        XCTAssertEqual(targets.map { $0["app"] as? String }, ["neotrips-ios-dev", "neotrips-ios", "neotrips-android"])
        XCTAssertEqual(
            Set(targets[0].keys),
            [
                "app", "label", "platform", "environment", "locale", "api", "endpoint", "headers", "payload",
                "bytes", "limit", "diagnostics",
            ])
        XCTAssertEqual(
            Set(targets[2].keys),
            [
                "app", "label", "platform", "locale", "api", "endpoint", "headers", "payload", "bytes", "limit",
                "diagnostics",
            ])
        // Without --locale, every target is the default.
        XCTAssertTrue(targets.allSatisfy { $0["locale"] is NSNull })
        // Key order is part of the contract: check it on the raw text.
        let order = [
            "\"delivery\"", "\"service\"", "\"targets\"", "\"app\"", "\"label\"", "\"platform\"", "\"environment\"",
            "\"locale\"", "\"api\"",
            "\"endpoint\"", "\"headers\"", "\"payload\"", "\"bytes\"", "\"limit\"",
        ]
        let offsets = order.map { r.out.range(of: $0)?.lowerBound }
        XCTAssertFalse(offsets.contains(nil))
        XCTAssertEqual(offsets.compactMap { $0 }, offsets.compactMap { $0 }.sorted())
        XCTAssertEqual(
            targets[1]["headers"] as? [String: String],
            [
                "apns-push-type": "alert", "apns-priority": "10", "apns-topic": "com.neotrips.app",
                "apns-collapse-id": "summer",
            ])
        let aps = try XCTUnwrap((targets[1]["payload"] as? [String: Any])?["aps"] as? [String: Any])
        XCTAssertEqual((aps["alert"] as? [String: String])?["body"], "Hi Ana, 20% off until Sunday.")
        // The command and the engine agree on every byte.
        let engine = PreviewEngine.preview(
            delivery: DemoStore.summerSale, service: DemoStore.neotrips, profile: DemoStore.ana,
            appKey: nil, token: nil, now: Date())
        XCTAssertEqual(targets.map { $0["bytes"] as? Int }, engine.targets.map(\.bytes))
        XCTAssertEqual(r.out.trimmingCharacters(in: .newlines), engine.json.pretty)
    }

    func testTextFormShowsHeadersPayloadSizeAndGroupedFindings() throws {
        try write(
            "deliveries/bad.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <delivery format="1" name="bad" label="Bad" service="neotrips">
              <content>
                <title>Hi</title>
              </content>
              <ios sound="bell.caf" interruptionLevel="critical"/>
            </delivery>

            """)
        let r = try pushdesk("preview", "bad", "--app", "neotrips-ios")
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(
            r.out.contains(
                "POST https://api.push.apple.com/3/device/DEVICE_TOKEN\napns-push-type: alert\napns-priority: 10\napns-topic: com.neotrips.app\n"
            ), r.out)
        XCTAssertTrue(r.out.contains("\"sound\": \"bell.caf\""))
        let sent =
            #"{"aps":{"alert":{"title":"Hi"},"sound":"bell.caf","interruption-level":"critical"},"_mId":"00000000-0000-0000-0000-000000000000","_dId":"00000000"}"#
        XCTAssertTrue(r.out.contains("\n\(sent.utf8.count) / 4096 bytes\n"), r.out)
        let errors = try XCTUnwrap(r.out.range(of: "errors (1):"))
        let warnings = try XCTUnwrap(r.out.range(of: "warnings (1):"))
        XCTAssertLessThan(errors.lowerBound, warnings.lowerBound)
        XCTAssertTrue(
            r.out.contains("  deliveries/bad.xml:6:8: error: ios.sound: sound \"bell.caf\" is neither"), r.out)
        XCTAssertTrue(r.out.hasSuffix("1 error, 1 warning\n"))
        // validate reports the delivery's findings too, positioned, once per app they concern.
        let v = try pushdesk("validate")
        XCTAssertEqual(v.code, 1)
        // (validate prints errors on stderr and warnings on stdout)
        let lines = (v.err + v.out).split(separator: "\n").filter { $0.hasPrefix("deliveries/bad.xml") }
        XCTAssertEqual(lines.filter { $0.contains("[sound.unknown]") }.count, 2, v.err)  // sandbox and production
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("deliveries/bad.xml:6:25: warning: ios.interruptionLevel:") }.count, 1, v.out)
    }

    /// C1 controls are legal in XML and JSON; U+009B is CSI on some terminals. The text form
    /// must show them escaped, while the JSON form (piped) keeps the exact value.
    func testC1ControlsFromFilesNeverReachTheTerminalRaw() throws {
        try write(
            "deliveries/c1.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <delivery format="1" name="c1" label="C1" service="neotrips">
              <content>
                <title>a&#x9B;2Jb</title>
              </content>
              <ios sound="x&#x85;y"/>
            </delivery>

            """)
        let r = try pushdesk("preview", "c1")
        XCTAssertEqual(r.code, 1, r.err)
        XCTAssertNil(r.out.unicodeScalars.first { (0x7F...0x9F).contains($0.value) }, r.out.debugDescription)
        XCTAssertTrue(r.out.contains(#""title": "a\u009B2Jb""#), r.out)
        XCTAssertTrue(r.out.contains(#"sound "x\u{85}y" is neither"#), r.out)
        let j = try pushdesk("preview", "c1", "--json", "--app", "neotrips-ios")
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any])
        let target = try XCTUnwrap((doc["targets"] as? [[String: Any]])?.first)
        let alert = ((target["payload"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? [String: Any]
        XCTAssertEqual(alert?["title"] as? String, "a\u{9B}2Jb")
        XCTAssertEqual(
            target["bytes"] as? Int,
            #"{"aps":{"alert":{"title":"a\#u{9B}2Jb"},"sound":"x\#u{85}y"},"_mId":"00000000-0000-0000-0000-000000000000","_dId":"00000000"}"#
                .utf8.count)
    }

    func testExitCodesAndErrorsOnStderr() throws {
        var r = try pushdesk("preview", "nope")
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(
            r.err.contains("deliveries/nope.xml: error: no such file")
                && r.err.contains("catalog-refresh, summer-sale"), r.err)
        r = try pushdesk("preview", "summer-sale", "--app", "zzz")
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.err.contains("neotrips-ios-dev, neotrips-ios, neotrips-android"), r.err)
        r = try pushdesk("preview", "summer-sale", "--profile", "bob")
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.err.contains("profiles/bob.xml: error: no such profile"), r.err)
        r = try pushdesk("preview", "summer-sale", "--profile", "ana", "--token", "a1b2")
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertTrue(r.out.contains("POST https://api.sandbox.push.apple.com/3/device/a1b2\n"))
    }

    func testServiceMissingIsAnInputError() throws {
        try write(
            "deliveries/orphan.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <delivery format="1" name="orphan" label="Orphan" service="gone">
              <content>
                <body>x</body>
              </content>
            </delivery>

            """)
        let r = try pushdesk("preview", "orphan")
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.err.hasPrefix("deliveries/orphan.xml:2:"), r.err)
        XCTAssertTrue(r.err.contains("[delivery.service-missing]"), r.err)
        let v = try pushdesk("validate")
        XCTAssertEqual(v.code, 1)
        XCTAssertTrue(v.err.contains("deliveries/orphan.xml:2:") && v.err.contains("delivery.service-missing"), v.err)
    }

    /// A lone surrogate cannot live in a Swift String, so it must be refused where it enters:
    /// as a character reference or as raw (CESU-8) bytes in a store file.
    func testLoneSurrogatesAreRefusedWithTheirPosition() throws {
        let xml = try String(contentsOf: store.appendingPathComponent("deliveries/summer-sale.xml"), encoding: .utf8)
        try write("deliveries/summer-sale.xml", xml.replacingOccurrences(of: "20% off", with: "&#xD83D; off"))
        var r = try pushdesk("preview", "summer-sale", "--json")
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(
            r.err.hasPrefix(
                "deliveries/summer-sale.xml:6:48: error: character reference &#xD83D; is half of a UTF-16 surrogate pair"
            ), r.err)
        var bytes = Array(xml.utf8)
        let at = try XCTUnwrap(
            xml.utf8.firstIndex(of: UInt8(ascii: "%")).map { xml.utf8.distance(from: xml.utf8.startIndex, to: $0) })
        bytes.replaceSubrange(at..<(at + 1), with: [0xED, 0xA0, 0xBD])
        try Data(bytes).write(to: store.appendingPathComponent("deliveries/summer-sale.xml"))
        r = try pushdesk("preview", "summer-sale")
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.err.contains("deliveries/summer-sale.xml:") && r.err.contains("surrogate"), r.err)
    }

    func testUnreadableProfileIsATopLevelDiagnostic() throws {
        try write("profiles/broken.xml", "<recipient firstName=\"Ana\"><x/></recipient>\n")
        let r = try pushdesk("preview", "catalog-refresh", "--profile", "broken", "--json")
        XCTAssertEqual(r.code, 1)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let diags = try XCTUnwrap(doc["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(diags.map { $0["rule"] as? String }, ["profile.unreadable"])
        XCTAssertEqual(diags.first?["file"] as? String, "profiles/broken.xml")
        XCTAssertEqual((doc["targets"] as? [Any])?.count, 3)
    }

    /// The independent check through the real store and binary: generated deliveries are
    /// saved as XML, previewed by the command, and the payloads recounted from the JSON.
    func testGeneratedDeliveriesThroughTheStoreAndBinary() throws {
        var rng = PayloadIndependentCheckTests.Rng(state: 42)
        let s = Store(root: store)
        for i in 0..<24 {
            var d = PayloadIndependentCheckTests.delivery(&rng, index: i)
            // XML 1.0 cannot carry most control characters; the store refuses them on save.
            func clean(_ t: String) -> String {
                String(
                    String.UnicodeScalarView(t.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" }))
            }
            d.content = DeliveryContent(
                title: clean(d.content.title), subtitle: clean(d.content.subtitle), body: clean(d.content.body))
            d.variables = d.variables.reduce(into: []) { acc, v in
                if !acc.contains(where: { $0.name == v.name }) {
                    acc.append(VariableValue(name: v.name, value: clean(v.value)))
                }
            }
            d.tracking = d.tracking.map { Tracking(messageId: clean($0.messageId), deliveryId: clean($0.deliveryId)) }
            for k in [\IOSOptions.category, \.threadId, \.targetContentId, \.launchImage, \.collapseId] {
                d.ios[keyPath: k] = d.ios[keyPath: k].map(clean)
            }
            for k in [
                \AndroidOptions.collapseKey, \.channelId, \.sound, \.icon, \.tag, \.clickAction, \.image, \.ticker,
            ] {
                d.android[keyPath: k] = d.android[keyPath: k].map(clean)
            }
            try s.save(d)
            let r = try pushdesk("preview", d.name, "--profile", "ana", "--json")
            XCTAssertTrue(r.code == 0 || r.code == 1, "delivery \(i): exit \(r.code) \(r.err)")
            let doc = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], "delivery \(i): \(r.err)")
            let targets = try XCTUnwrap(doc["targets"] as? [[String: Any]])
            XCTAssertEqual(targets.count, 3)
            for t in targets {
                var payload = try XCTUnwrap(t["payload"] as? [String: Any])
                if let m = payload["message"] as? [String: Any] {
                    payload = m
                    payload["token"] = nil
                } else {
                    payload["to"] = nil
                }
                var errors: [String] = []
                let n = PayloadIndependentCheckTests.bytes(
                    payload, key: nil, path: "", allowed: { _ in nil }, errors: &errors)
                XCTAssertEqual(errors, [])
                XCTAssertEqual(n, t["bytes"] as? Int, "delivery \(i) \(t["app"] ?? "")")
            }
            let hasError =
                (doc["diagnostics"] as? [[String: Any]] ?? []).contains { $0["severity"] as? String == "error" }
                || targets.contains {
                    ($0["diagnostics"] as? [[String: Any]] ?? []).contains { $0["severity"] as? String == "error" }
                }
            XCTAssertEqual(r.code, hasError ? 1 : 0, "delivery \(i)")
        }
    }
}
