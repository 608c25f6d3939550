import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk listen` driven as a test build of an app drives it (docs/LISTEN.md): the real binary,
/// real TLS trusting the listener's own CA, and exactly the bytes Adobe's Campaign Classic
/// SDKs send (CampaignSDK). Every listener stops by itself (`--count`, `--for`).
final class ListenCommandTests: XCTestCase {
    let iosToken = String(repeating: "3f", count: 32)
    let fcmToken = "dQw4w9WgXcQ:APA91bH-test_Token-0123456789"

    func demoStore() throws -> URL {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        return store
    }

    func send(_ client: TLSTestClient, _ r: CampaignSDK.Request, port: Int) throws -> TLSTestClient.Answer {
        try client.exchange(r.bytes(host: "localhost:\(port)"))
    }

    /// An iOS and an Android registration in their two XML dialects, and a wrong-platform
    /// one: answers, printed lines, the log's exact keys, and the devices saved to a profile.
    func testSDKRegistrationsAreCheckedAnsweredLoggedAndSavedIntoAProfile() throws {
        let store = try demoStore()
        let listen = try ListenProcess(store: store, ["--profile", "qa", "--count", "3", "--for", "50"])
        let client = try listen.client()
        let ios = try send(
            client,
            CampaignSDK.iosRegistration(
                token: iosToken, integrationKey: "neotrips-ios-dev", userKey: "ana@example.com",
                deviceName: "Ana’s iPhone 15", params: ["loyaltyId": "3233", "isRegistered": "true"]),
            port: listen.port)
        XCTAssertEqual(ios.status, 200)
        XCTAssertEqual(ios.body, "OK")
        let android = try send(
            client,
            CampaignSDK.androidRegistration(
                token: fcmToken, integrationKey: "neotrips-android", params: [("loyaltyId", "A&B <77>")]),
            port: listen.port)
        XCTAssertEqual(android.status, 200)
        let wrong = try send(
            client, CampaignSDK.iosRegistration(token: iosToken, integrationKey: "neotrips-android"), port: listen.port)
        XCTAssertEqual(wrong.status, 400)
        XCTAssertTrue(
            wrong.body.hasPrefix(
                "registration.platform: registerIOS.jssp was called with the integration key of the Android app"),
            wrong.body)
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)

        let lines = listen.lines
        XCTAssertEqual(lines.count, 3, lines.joined(separator: "\n"))
        XCTAssertTrue(
            lines[0].contains(
                "registration  200  neotrips-ios-dev  \"Ana’s iPhone 15\"  en-US  3f3f3f…3f3f  user ana@example.com  added to profile qa"
            ), lines[0])
        XCTAssertTrue(
            lines[0].contains("| warning registration.unknown-param: additionalParams sends \"isRegistered\""), lines[0]
        )
        XCTAssertTrue(
            lines[1].contains(
                "registration  200  neotrips-android  \"husky\"  en-US  dQw4w9…6789  added to profile qa"),
            lines[1])
        XCTAssertTrue(lines[1].contains("| info registration.user-key: userKey is empty"), lines[1])
        XCTAssertTrue(lines[2].contains("registration  400  neotrips-android"), lines[2])
        XCTAssertTrue(lines[2].contains("| error registration.platform:"), lines[2])
        XCTAssertTrue(listen.stderr.contains("CA SHA-256: "), listen.stderr)
        XCTAssertTrue(listen.stderr.contains("xcrun simctl keychain booted add-root-cert "), listen.stderr)

        let logURL = store.appendingPathComponent(".pushdesk/listen.jsonl")
        XCTAssertEqual(FileMode.of(logURL.path), 0o600)
        let log = try listenLog(store)
        XCTAssertEqual(log.count, 3)
        for e in log { XCTAssertEqual(Set(e.keys), Set(ListenRecord.keys)) }
        XCTAssertEqual(log[0]["kind"] as? String, "registration")
        XCTAssertEqual(log[0]["path"] as? String, "/nms/mobile/1/registerIOS.jssp")
        XCTAssertEqual(log[0]["status"] as? Int, 200)
        XCTAssertEqual(log[0]["app"] as? String, "neotrips-ios-dev")
        XCTAssertEqual(log[0]["platform"] as? String, "ios")
        XCTAssertEqual(log[0]["token"] as? String, "3f3f3f…3f3f")
        XCTAssertEqual(log[0]["userKey"] as? String, "ana@example.com")
        XCTAssertEqual(log[0]["deviceName"] as? String, "Ana’s iPhone 15", "raw UTF-8 from the iOS SDK")
        XCTAssertEqual(log[0]["params"] as? [String: String], ["isRegistered": "true", "loyaltyId": "3233"])
        XCTAssertTrue((log[0]["remote"] as? String ?? "").hasPrefix("127.0.0.1:"), "\(log[0])")
        for key in ["messageId", "deliveryId", "event", "delivery", "device"] {
            XCTAssertTrue(log[0][key] is NSNull, key)
        }
        XCTAssertEqual(rules(log[0]), ["registration.unknown-param"])
        XCTAssertEqual(log[1]["params"] as? [String: String], ["loyaltyId": "A&B <77>"], "Android's dialect, escaped")
        XCTAssertEqual(log[1]["platform"] as? String, "android")
        XCTAssertEqual(rules(log[1]), ["registration.user-key"])
        XCTAssertEqual(rules(log[2]), ["registration.platform"])
        XCTAssertEqual(log[2]["status"] as? Int, 400)

        let saved = try Store(root: store).load(Profile.self, "qa")
        XCTAssertEqual(
            saved.subscriptions,
            [
                Subscription(
                    app: "neotrips-ios-dev", token: iosToken, userKey: "ana@example.com", label: "Ana’s iPhone 15",
                    locale: "en-US"),
                Subscription(app: "neotrips-android", token: fcmToken, label: "husky", locale: "en-US"),
            ])
    }

    /// Every rule id of docs/LISTEN.md, each with its answer, in the `--json` output (full
    /// token) and the log (shortened).
    func testEveryRuleIdWithItsAnswer() throws {
        let store = try demoStore()
        // A send of the v7 era in the send log: _mId 55336 is d828 in tracking.
        let sent = store.appendingPathComponent(".pushdesk/sent.jsonl")
        try FileManager.default.createDirectory(
            at: sent.deletingLastPathComponent(), withIntermediateDirectories: true)
        try
            (#"{"time":"2026-01-01T10:00:00Z","user":"op@host","delivery":"summer-sale","app":"neotrips-android","profile":"ana","token":"dQw4w9…6789","messageId":"55336","channel":null,"outcome":"sent","status":200,"reason":null,"apnsId":null,"apnsUniqueId":null,"messageName":null,"bytes":200,"attempts":1,"dryRun":false}"#
            + "\n").write(to: sent, atomically: true, encoding: .utf8)

        func form(_ body: String, android: Bool = false) -> CampaignSDK.Request {
            CampaignSDK.Request(
                method: "POST", path: "/nms/mobile/1/register\(android ? "Android" : "IOS").jssp",
                headers: [("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")], body: Array(body.utf8))
        }
        let key = "mobileAppUuid=neotrips-ios-dev&registrationToken=\(iosToken)&additionalParams="
        let manyParams =
            "<additionalParams>" + String(repeating: "<param name=\"p\" value=\"1\"/>", count: 600)
            + "</additionalParams>"
        let cases: [(CampaignSDK.Request, Int, [String])] = [
            (
                CampaignSDK.Request(
                    method: "POST", path: "/nms/mobile/1/registerIOS.jssp",
                    headers: [("Content-Type", "application/json")],
                    body: Array("{}".utf8)), 400, ["registration.malformed"]
            ),
            (form("mobileAppUuid=neotrips-ios-dev&userKey=a"), 400, ["registration.malformed"]),
            (
                form(
                    key
                        + CampaignSDK.iosEncode(
                            "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><additionalParams/>")),
                400, ["registration.malformed"]
            ),
            (
                form(
                    key
                        + CampaignSDK.iosEncode(
                            "<additionalParams><param name=\"a\" value=\"&e;\"/></additionalParams>")), 400,
                ["registration.malformed"]
            ),
            (form(key + CampaignSDK.iosEncode(manyParams)), 400, ["registration.malformed"]),
            (
                CampaignSDK.iosRegistration(token: iosToken, integrationKey: " Neotrips-iOS-dev"), 400,
                ["registration.unknown-key"]
            ),
            (
                CampaignSDK.androidRegistration(token: fcmToken, integrationKey: "neotrips-ios"), 400,
                ["registration.platform"]
            ),
            (
                CampaignSDK.iosRegistration(token: "<3f3f 3f3f>", integrationKey: "neotrips-ios"), 400,
                ["registration.token-format", "registration.missing-param", "registration.user-key"]
            ),
            (
                CampaignSDK.iosRegistration(
                    token: iosToken, integrationKey: "neotrips-ios", userKey: "u1",
                    params: ["loyaltyId": "1", "x": "2"]),
                200, ["registration.unknown-param"]
            ),
            (
                CampaignSDK.iosRegistration(token: iosToken, integrationKey: "neotrips-ios"), 200,
                ["registration.missing-param", "registration.user-key"]
            ),
            (CampaignSDK.tracking(messageId: "not-an-id", deliveryId: "56c4", tag: 1), 200, ["tracking.malformed"]),
            (
                CampaignSDK.Request(method: "GET", path: "/r/?id=h5f1c2a9e,56c4,3", headers: [], body: []), 200,
                ["tracking.malformed"]
            ),
            (
                CampaignSDK.tracking(messageId: UUID().uuidString, deliveryId: "56c4", tag: 1), 200,
                ["tracking.unknown-message"]
            ),
            (CampaignSDK.tracking(messageId: "55336", deliveryId: "56c4", tag: 2), 200, []),
            (CampaignSDK.tracking(messageId: "55336", deliveryId: "99ff", tag: 1), 200, ["tracking.delivery-mismatch"]),
            (
                CampaignSDK.Request(
                    method: "POST", path: "/rest/head/mobileAppV5/xyz/subscriptions", headers: [], body: []), 404,
                ["listen.unknown-path"]
            ),
            (
                CampaignSDK.androidRegistration(
                    token: "eAbCdEfGhIjKlMnOpQrStU", integrationKey: "neotrips-android", userKey: "u2",
                    params: [("loyaltyId", "7")]),
                200, ["registration.fid"]
            ),
            (
                CampaignSDK.androidRegistration(
                    token: fcmToken, integrationKey: "neotrips-android", userKey: "u3", locale: nil,
                    params: [("loyaltyId", "7")]),
                200, ["registration.locale"]
            ),
        ]
        let listen = try ListenProcess(store: store, ["--json", "--count", "\(cases.count)", "--for", "50"])
        let client = try listen.client()
        var seen: Set<String> = []
        for (i, c) in cases.enumerated() {
            let a = try send(client, c.0, port: listen.port)
            XCTAssertEqual(a.status, c.1, "case \(i): \(a.body)")
            if c.1 == 400 { XCTAssertTrue(a.body.hasPrefix(c.2[0] + ": "), "case \(i): \(a.body)") }
            if c.0.path.hasPrefix("/r/") { XCTAssertEqual(a.body, "", "tracking answers 200 with an empty body") }
        }
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)
        let printed = try listen.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let log = try listenLog(store)
        XCTAssertEqual(printed.count, cases.count)
        XCTAssertEqual(log.count, cases.count)
        for (i, c) in cases.enumerated() where i < printed.count {
            XCTAssertEqual(rules(printed[i]), c.2, "case \(i)")
            XCTAssertEqual(rules(log[i]), c.2, "case \(i)")
            XCTAssertEqual(printed[i]["status"] as? Int, c.1, "case \(i)")
            XCTAssertEqual(Set(printed[i].keys), Set(ListenRecord.keys))
            seen.formUnion(c.2)
            for f in printed[i]["findings"] as? [[String: Any]] ?? [] {
                XCTAssertFalse((f["message"] as? String ?? "").isEmpty)
            }
        }
        XCTAssertEqual(seen, Set(ListenRules.all.map(\.id)), "every rule id is exercised")
        // The unknown key names the store's key that differs only in case and spaces.
        let unknown = (printed[5]["findings"] as? [[String: Any]])?.first?["message"] as? String ?? ""
        XCTAssertTrue(unknown.contains("the store has \"neotrips-ios-dev\" (service neotrips)"), unknown)
        // --json prints the full token, the log the shortened one.
        XCTAssertEqual(printed[8]["token"] as? String, iosToken)
        XCTAssertEqual(log[8]["token"] as? String, "3f3f3f…3f3f")
        // v7: the hex id matched the decimal _mId of the send log.
        XCTAssertEqual(printed[13]["messageId"] as? String, "d828")
        XCTAssertEqual(printed[13]["event"] as? String, "clicked")
        XCTAssertEqual(printed[13]["delivery"] as? String, "summer-sale")
        XCTAssertEqual(printed[13]["device"] as? String, "dQw4w9…6789")
        XCTAssertEqual(printed[13]["kind"] as? String, "tracking")
        XCTAssertTrue(printed[13]["token"] is NSNull)
        XCTAssertTrue(printed[13]["params"] is NSNull)
        XCTAssertEqual(printed[15]["kind"] as? String, "other")
        XCTAssertEqual(printed[15]["path"] as? String, "/rest/head/mobileAppV5/xyz/subscriptions")
    }

    /// Hostile clients: an oversized body gets 413; an oversized head, the 65th connection
    /// and a client trickling bytes are dropped — and others are answered meanwhile. A
    /// device name with ESC, C1 and bidi characters is printed escaped.
    func testHostileClientsAreRefusedWhileOthersAreAnswered() throws {
        let store = try demoStore()
        let listen = try ListenProcess(store: store, ["--count", "4", "--for", "55"])
        let host = "localhost:\(listen.port)"

        // The trickler starts first: one byte of a request head every 0.5 s.
        let trickler = try listen.client()
        let head = Array("POST /nms/mobile/1/registerIOS.jssp HTTP/1.1\r\nHost: x\r\n".utf8)
        let trickleDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for b in head {
                if (try? trickler.write([b])) == nil { break }
                if trickler.waitClosed(timeout: 0.5) { break }
            }
            trickleDone.signal()
        }
        let started = Date()

        // Body over 64 KB (a 1 MB additionalParams): 413, and the connection is closed.
        let big = try listen.client()
        let huge = CampaignSDK.iosRegistration(
            token: iosToken, integrationKey: "neotrips-ios-dev",
            params: ["blob": String(repeating: "x", count: 1024 * 1024)])
        let a413 = try big.exchange(huge.bytes(host: host))
        XCTAssertEqual(a413.status, 413)
        XCTAssertEqual(a413.headers["connection"], "close")
        XCTAssertTrue(big.waitClosed(timeout: 10))

        // Headers over 16 KB: 431, then the connection is closed.
        let fat = try listen.client()
        try fat.write(
            Array(
                "GET /r/?id=h1,2,1 HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "p", count: 17 * 1024))\r\n\r\n"
                    .utf8))
        XCTAssertEqual(try fat.answer(timeout: 10).status, 431)
        XCTAssertTrue(fat.waitClosed(timeout: 10))

        // 64 connections at once: the 65th is dropped, then a freed place is served.
        var held: [TLSTestClient] = []
        for _ in 0..<63 { held.append(try listen.client()) }  // + the trickler = 64
        XCTAssertThrowsError(try listen.client().answer(timeout: 5), "the 65th connection is dropped")
        held.removeLast().close()
        XCTAssertTrue(held.isEmpty == false)
        var served: TLSTestClient?
        for _ in 0..<50 where served == nil {  // the freed place is released asynchronously
            served = try? listen.client()
            if let s = served, s.waitClosed(timeout: 0.1) { served = nil }
        }
        let name = "Evil\u{1B}[2J\u{9B}31m\u{202E}enohP"
        let escaped = try XCTUnwrap(served).exchange(
            CampaignSDK.iosRegistration(token: iosToken, integrationKey: "neotrips-ios-dev", deviceName: name).bytes(
                host: host))
        XCTAssertEqual(escaped.status, 200)
        for c in held { c.close() }

        // The trickler is dropped after 10 s without having sent a whole request.
        XCTAssertTrue(trickler.waitClosed(timeout: 20))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 9.5)
        trickleDone.wait()

        // Answered after all that: a tracking hit and an unknown path.
        let last = try listen.client()
        XCTAssertEqual(
            try last.exchange(
                CampaignSDK.tracking(messageId: UUID().uuidString, deliveryId: "1", tag: 1).bytes(host: host)
            ).status, 200)
        XCTAssertEqual(try last.exchange(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)).status, 404)
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)

        let lines = listen.lines
        XCTAssertEqual(lines.count, 4, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[0].contains("registration  413"), lines[0])
        XCTAssertTrue(
            lines[0].contains(
                "registration.malformed: the body is \(huge.body.count) bytes; a registration is at most 65536"),
            lines[0])
        XCTAssertTrue(lines[1].contains(#""Evil\u{1B}[2J\u{9B}31m\u{202E}enohP""#), lines[1])
        for line in lines {
            XCTAssertFalse(line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" }, line)
        }
        let log = try listenLog(store)
        XCTAssertEqual(log.map { $0["status"] as? Int }, [413, 200, 200, 404])
        XCTAssertEqual(log[1]["deviceName"] as? String, name, "the log keeps the value; JSON escapes it")
        // …and writes the controls and the bidi override as \u escapes, so `tail -f` is safe.
        let raw = try String(contentsOf: store.appendingPathComponent(ListenLog.relativePath), encoding: .utf8)
        XCTAssertFalse(raw.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" })
        XCTAssertTrue(raw.contains(#""deviceName":"Evil\u001b[2J\u009B31m\u202EenohP""#), raw)
    }

    /// The loop: a registration captured into a profile, `pushdesk send` to the loopback
    /// APNs mock, the app's tracking with the messageId the send reported, and the lines
    /// that tie the tracking to that send and device.
    func testTheLoopFromRegistrationToTrackedSend() throws {
        let mock = try MockPushServices(self)
        let token = MockPushServices.Token.ok
        // The operator's recipient for the test devices (the delivery greets by first name).
        try Store(root: mock.store).save(Profile(name: "qa", fields: [("firstName", "Quinn")]))
        let listen = try ListenProcess(store: mock.store, ["--profile", "qa", "--count", "3", "--for", "55"])
        let client = try listen.client()
        let reg = try send(
            client,
            CampaignSDK.iosRegistration(
                token: token, integrationKey: "neotrips-ios-dev", userKey: "qa@neotrips.example",
                deviceName: "QA iPhone 15", params: ["loyaltyId": "42"]),
            port: listen.port)
        XCTAssertEqual(reg.status, 200)
        _ = listen.waitForLines(1)

        let sent = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--profile", "qa", "--json"],
            environment: mock.environment())
        XCTAssertEqual(sent.status, 0, sent.stderr)
        let doc = try JSONSerialization.jsonObject(with: Data(sent.stdout.utf8)) as? [String: Any]
        let result = (doc?["results"] as? [[String: Any]])?.first
        XCTAssertEqual(result?["device"] as? String, "QA iPhone 15")
        let messageId = try XCTUnwrap(result?["messageId"] as? String)
        let wire = try JSONSerialization.jsonObject(with: Data(mock.apns.requests[0].body)) as? [String: Any]
        XCTAssertEqual(wire?["_mId"] as? String, messageId, "the app receives the reported id")
        let dId = try XCTUnwrap(wire?["_dId"] as? String)

        // The app reports what it received, then the tap, exactly as the SDK does.
        for tag in [1, 2] {
            let a = try send(
                client, CampaignSDK.tracking(messageId: messageId, deliveryId: dId, tag: tag), port: listen.port)
            XCTAssertEqual(a.status, 200)
        }
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)
        let lines = listen.lines
        XCTAssertEqual(lines.count, 3, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[0].contains("added to profile qa"), lines[0])
        for (line, event) in zip(lines.dropFirst(), ["received", "clicked"]) {
            XCTAssertTrue(
                line.contains(
                    "tracking  200  \(event)  _mId \(messageId)  → summer-sale · neotrips-ios-dev · \"QA iPhone 15\" · "
                ),
                line)
            XCTAssertTrue(line.hasSuffix(" after the send"), line)
        }
        let log = try listenLog(mock.store)
        XCTAssertEqual(log[1]["event"] as? String, "received")
        XCTAssertEqual(log[2]["event"] as? String, "clicked")
        for e in log.dropFirst() {
            XCTAssertEqual(e["delivery"] as? String, "summer-sale")
            XCTAssertEqual(e["device"] as? String, "QA iPhone 15")
            XCTAssertEqual(e["messageId"] as? String, messageId)
            XCTAssertEqual(e["deliveryId"] as? String, dId)
            XCTAssertEqual(e["app"] as? String, "neotrips-ios-dev")
            XCTAssertEqual(e["platform"] as? String, "ios")
            XCTAssertEqual(rules(e), [])
        }
    }

    /// `--profile` saves like every save: under the store lock (a console holding it keeps
    /// its edits; the request is still answered and the line says why nothing was saved),
    /// in place for a device already there, never duplicated.
    func testProfileSavesAreLockedUpdatedInPlaceAndAFailedSaveStillAnswers() throws {
        let store = try demoStore()
        let before = try Data(contentsOf: store.appendingPathComponent("profiles/ana.xml"))
        let lock = try StoreLock.acquire(
            storeRoot: store, holder: .current(program: "pushdesk console"))
        guard case .acquired(let held, _) = lock else { return XCTFail("no lock") }
        let listen = try ListenProcess(store: store, ["--profile", "ana", "--count", "4", "--for", "50"])
        let client = try listen.client()
        let r = CampaignSDK.iosRegistration(token: iosToken, integrationKey: "neotrips-ios-dev", deviceName: "Old name")
        XCTAssertEqual(try send(client, r, port: listen.port).status, 200, "answered while the console holds the lock")
        _ = listen.waitForLines(1)
        XCTAssertEqual(try Data(contentsOf: store.appendingPathComponent("profiles/ana.xml")), before)
        held.release()
        XCTAssertEqual(try send(client, r, port: listen.port).status, 200)
        XCTAssertEqual(try send(client, r, port: listen.port).status, 200)
        let renamed = CampaignSDK.iosRegistration(
            token: iosToken, integrationKey: "neotrips-ios-dev", userKey: "ana@example.com", deviceName: "New name")
        XCTAssertEqual(try send(client, renamed, port: listen.port).status, 200)
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)
        let lines = listen.lines
        XCTAssertTrue(lines[0].contains("not saved: .pushdesk/lock: error: the store is locked by "), lines[0])
        XCTAssertTrue(listen.stderr.contains("pushdesk listen: not saved: "), listen.stderr)
        XCTAssertTrue(lines[1].contains("added to profile ana"), lines[1])
        XCTAssertTrue(lines[2].contains("already in profile ana"), lines[2])
        XCTAssertTrue(lines[3].contains("updated in profile ana"), lines[3])
        let ana = try Store(root: store).load(Profile.self, "ana")
        let mine = ana.subscriptions.filter { $0.token == iosToken }
        XCTAssertEqual(
            mine,
            [
                Subscription(
                    app: "neotrips-ios-dev", token: iosToken, userKey: "ana@example.com", label: "New name",
                    locale: "en-US")
            ])
        XCTAssertEqual(ana.fields.map(\.name), try Store(root: store).load(Profile.self, "ana").fields.map(\.name))
        XCTAssertGreaterThan(ana.subscriptions.count, 1, "the profile's other devices are kept")
    }

    /// Ctrl-C, SIGTERM and hang-up each stop the listener cleanly (exit 0); a port in use or
    /// an unreadable certificate exits 2.
    func testSignalsStopItCleanlyAndFailuresToListenExitTwo() throws {
        let store = try demoStore()
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let listen = try ListenProcess(store: store, ["--for", "50"])
            let a = try listen.client().exchange(Array("GET /x HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            XCTAssertEqual(a.status, 404)
            _ = listen.waitForLines(1)
            listen.signal(sig)
            XCTAssertEqual(listen.waitForExit(), 0, "signal \(sig): \(listen.stderr)")
            XCTAssertTrue(listen.stderr.contains("pushdesk listen: stopped; 1 request handled"), listen.stderr)
        }
        let running = try ListenProcess(store: store, ["--for", "30"])
        let busy = try runPushDesk(["listen", "--store", store.path, "--port", "\(running.port)", "--for", "5"])
        XCTAssertEqual(busy.status, 2, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("cannot listen on 127.0.0.1:\(running.port)"), busy.stderr)
        running.signal(SIGTERM)
        XCTAssertEqual(running.waitForExit(), 0)
        let missing = try runPushDesk([
            "listen", "--store", store.path, "--port", "0", "--for", "5", "--cert", "/nonexistent.pem", "--key",
            "/nonexistent-key.pem",
        ])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("cannot read the certificate or key"), missing.stderr)
    }
}
