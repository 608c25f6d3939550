import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk send` against loopback mocks of APNs, Google's token endpoint and FCM (docs/SENDING.md):
/// the built binary is driven as an operator runs it; the tests check what the mocks
/// received and what PushDesk printed and logged.
final class SendCommandTests: XCTestCase {
    typealias T = MockPushServices.Token

    private func json(_ r: CommandResult) throws -> [String: Any] {
        guard let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "no JSON", code: 0, userInfo: [NSLocalizedDescriptionKey: r.stdout + r.stderr])
        }
        return doc
    }

    private func results(_ doc: [String: Any]) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for r in doc["results"] as? [[String: Any]] ?? [] { out[r["token"] as? String ?? ""] = r }
        return out
    }

    func testEveryAnswerBecomesItsOutcomeOnOneConnectionPerHostAndCredential() throws {
        let mock = try MockPushServices(self)
        let devices = [T.ok, T.bad, T.unregistered, T.expiredOnce, T.busyOnce, T.unavailable]
        try mock.saveProfile(
            devices.enumerated().map { Subscription(app: "neotrips-ios-dev", token: $1, label: "iPhone \($0)") }
                + [
                    Subscription(app: "neotrips-android", token: T.fcmOK, label: "Pixel"),
                    Subscription(app: "neotrips-android", token: T.fcmUnregistered, label: "Old Pixel"),
                ])
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--json"],
            environment: mock.environment())
        XCTAssertEqual(r.status, 2, "a failed result (503 until retries ran out) exits 2: \(r.stderr)")
        let doc = try json(r)
        XCTAssertEqual(doc["delivery"] as? String, "summer-sale")
        XCTAssertEqual(doc["dryRun"] as? Bool, false)
        XCTAssertEqual((doc["blocked"] as? [Any])?.count, 0)
        let byToken = results(doc)
        func check(
            _ token: String, _ outcome: String, _ status: Int?, _ reason: String?, attempts: Int, line: UInt = #line
        ) {
            let x = byToken[token]
            XCTAssertEqual(x?["outcome"] as? String, outcome, "\(token)", line: line)
            XCTAssertEqual(x?["status"] as? Int, status, "\(token)", line: line)
            XCTAssertEqual(x?["reason"] as? String, reason, "\(token)", line: line)
            XCTAssertEqual(x?["attempts"] as? Int, attempts, "\(token)", line: line)
        }
        check(T.ok, "sent", 200, nil, attempts: 1)
        check(T.bad, "rejected", 400, "BadDeviceToken", attempts: 1)
        check(T.unregistered, "rejected", 410, "Unregistered", attempts: 1)
        check(T.expiredOnce, "sent", 200, nil, attempts: 2)
        check(T.busyOnce, "sent", 200, nil, attempts: 2)
        check(T.unavailable, "failed", 503, "ServiceUnavailable", attempts: 3)
        check(T.fcmOK, "sent", 200, nil, attempts: 1)
        check(T.fcmUnregistered, "rejected", 404, "UNREGISTERED", attempts: 1)

        let ok = byToken[T.ok]!
        XCTAssertEqual(ok["apnsId"] as? String, mock.lock.withLock { mock.apnsIds[T.ok] })
        XCTAssertNotNil(ok["apnsUniqueId"] as? String)
        XCTAssertTrue(ok["hint"] is NSNull)
        XCTAssertEqual(ok["profile"] as? String, "ana")
        XCTAssertEqual(ok["device"] as? String, "iPhone 0")
        XCTAssertEqual(ok["endpoint"] as? String, mock.apns.baseURL + "/3/device/" + T.ok)
        XCTAssertTrue(
            (byToken[T.bad]?["hint"] as? String)?.contains("not a development token of this app") ?? false,
            "\(byToken[T.bad] ?? [:])")
        XCTAssertTrue((byToken[T.unregistered]?["hint"] as? String)?.contains("2023-11-14T22:13:20Z") ?? false)
        XCTAssertTrue((byToken[T.fcmUnregistered]?["hint"] as? String)?.contains("no longer valid") ?? false)
        XCTAssertEqual(
            byToken[T.fcmOK]?["messageName"] as? String,
            "projects/neotrips-12345/messages/0:1700000000000000%31bd1c9631bd1c96")
        let summary = doc["summary"] as? [String: Int]
        XCTAssertEqual(summary, ["sent": 4, "validated": 0, "rejected": 3, "failed": 1, "skipped": 0])

        // What the mocks received: one APNs connection, one FCM connection plus the token
        // endpoint's own; two provider tokens (the second after ExpiredProviderToken), one grant.
        XCTAssertEqual(mock.problems, [])
        XCTAssertEqual(mock.apns.connections, 1)
        XCTAssertEqual(mock.google.connections, 2)
        XCTAssertEqual(mock.providerTokens.count, 2)
        XCTAssertEqual(mock.accessTokens.count, 1)
        XCTAssertEqual(mock.apns.requests.count, 1 + 1 + 1 + 2 + 2 + 3)
        XCTAssertEqual(mock.google.requests.filter { $0.path == "/token" }.count, 1)

        // Every target has its own message id: a fresh lowercase version 4 UUID, sent as _mId.
        let ids =
            devices.map { byToken[$0]?["messageId"] as? String ?? "" } + [
                byToken[T.fcmOK]?["messageId"] as? String ?? "",
                byToken[T.fcmUnregistered]?["messageId"] as? String ?? "",
            ]
        XCTAssertEqual(Set(ids).count, 8, "one id per target: \(ids)")
        let v4 = try NSRegularExpression(
            pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        for id in ids { XCTAssertEqual(v4.numberOfMatches(in: id, range: NSRange(id.startIndex..., in: id)), 1, id) }

        // The wire body is the payload `preview --message-id <the reported id>` shows, byte for
        // byte; the headers are preview's; _dId stays the delivery's.
        let snapshot = Store(root: mock.store).loadAll(readOnly: true)
        let delivery = snapshot.deliveries.first { $0.name == "summer-sale" }!
        let profile = snapshot.profiles.first { $0.name == "ana" }!
        let okId = ok["messageId"] as? String ?? ""
        let preview = PreviewEngine.preview(
            delivery: delivery, service: snapshot.services[0], profile: profile, appKey: "neotrips-ios-dev",
            token: T.ok, now: Date(), messageId: okId
        ).targets[0]
        let sent = mock.apns.requests.first { $0.path.hasSuffix(T.ok) }!
        XCTAssertEqual(sent.body, preview.payload.compactBytes)
        for (name, value) in preview.headers { XCTAssertEqual(sent.header(name), value, name) }
        XCTAssertEqual(sent.header("content-type"), "application/json")
        let wire = try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: Any]
        XCTAssertEqual(wire?["_mId"] as? String, okId)
        XCTAssertEqual(wire?["_dId"] as? String, delivery.tracking?.deliveryId)
        let printed = try runPushDesk([
            "preview", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--app", "neotrips-ios-dev",
            "--token", T.ok, "--message-id", okId, "--json",
        ])
        let printedTarget = ((try json(printed))["targets"] as? [[String: Any]])?.first
        XCTAssertEqual(printedTarget?["payload"] as? NSDictionary, wire as NSDictionary?, printed.stdout)
        let fcmPreview = PreviewEngine.preview(
            delivery: delivery, service: snapshot.services[0], profile: profile, appKey: "neotrips-android",
            token: T.fcmOK, now: Date(), messageId: byToken[T.fcmOK]?["messageId"] as? String
        ).targets[0]
        let fcmSent = mock.google.requests.first {
            $0.path.hasSuffix("messages:send") && String(decoding: $0.body, as: UTF8.self).contains(T.fcmOK)
        }!
        XCTAssertEqual(fcmSent.body, fcmPreview.payload.compactBytes)
        XCTAssertEqual(byToken[T.fcmOK]?["bytes"] as? Int, fcmPreview.bytes)

        // The send log: one line per target, 0600, exactly the pinned keys, token shortened.
        let log = mock.store.appendingPathComponent(".pushdesk/sent.jsonl")
        let attrs = try FileManager.default.attributesOfItem(atPath: log.path)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 8)
        for line in lines {
            let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            XCTAssertEqual(Set(entry.keys), Set(SendLog.keys))
            XCTAssertEqual(entry["delivery"] as? String, "summer-sale")
            XCTAssertEqual(entry["dryRun"] as? Bool, false)
            XCTAssertTrue((entry["token"] as? String)?.contains("\u{2026}") ?? false)
        }
        XCTAssertTrue(lines[0].contains("\"token\":\"a1a1a1\u{2026}a1a1\""), String(lines[0]))
        let logged = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(Set(logged.compactMap { $0["messageId"] as? String }), Set(ids), "the log names each id")
        XCTAssertTrue(logged.allSatisfy { $0["channel"] is NSNull })
        assertNoSecret(mock, outputs: [r.stdout, r.stderr])
    }

    func testDryRunValidatesWithFCMAndSkipsAPNs() throws {
        let mock = try MockPushServices(self)
        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: T.ok), Subscription(app: "neotrips-android", token: T.fcmOK),
        ])
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--dry-run", "--json"],
            environment: mock.environment())
        XCTAssertEqual(r.status, 0, r.stderr)
        let byToken = results(try json(r))
        XCTAssertEqual(byToken[T.ok]?["outcome"] as? String, "skipped")
        XCTAssertEqual(byToken[T.ok]?["reason"] as? String, "apns.no-dry-run")
        XCTAssertEqual(byToken[T.fcmOK]?["outcome"] as? String, "validated")
        XCTAssertEqual(mock.apns.requests.count, 0, "APNs has no dry run: no request")
        let sent = mock.google.requests.first { $0.path.hasSuffix("messages:send") }!
        let body = String(decoding: sent.body, as: UTF8.self)
        XCTAssertTrue(body.hasPrefix(#"{"message":{"token":"\#(T.fcmOK)""#), body)
        XCTAssertTrue(body.hasSuffix(#"},"validate_only":true}"#), body)
        let log = try String(contentsOf: mock.store.appendingPathComponent(".pushdesk/sent.jsonl"), encoding: .utf8)
        XCTAssertEqual(log.split(separator: "\n").count, 1, "skipped targets are not logged")
        XCTAssertTrue(log.contains("\"dryRun\":true"))
    }

    func testAnErrorFindingBlocksTheWholeSendBeforeAnyByteLeaves() throws {
        let mock = try MockPushServices(self)
        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: T.ok),
            Subscription(app: "neotrips-android", token: "two words"),
        ])
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--json"],
            environment: mock.environment())
        XCTAssertEqual(r.status, 1, r.stderr)
        let doc = try json(r)
        XCTAssertEqual((doc["results"] as? [Any])?.count, 0)
        let blocked = doc["blocked"] as? [[String: Any]] ?? []
        XCTAssertEqual(blocked.map { $0["rule"] as? String }, ["subscription.token-format"])
        XCTAssertEqual(blocked.first?["app"] as? String, "neotrips-android")
        XCTAssertEqual(blocked.first?["field"] as? String, "subscriptions[1].token")
        XCTAssertEqual(mock.apns.connections + mock.google.connections, 0, "not even the token endpoint")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: mock.store.appendingPathComponent(".pushdesk/sent.jsonl").path))
    }

    func testAWrongCAFailsTheSend() throws {
        let mock = try MockPushServices(self)
        let other = try TestPKI(name: "Someone Else's CA")
        let wrong = mock.store.deletingLastPathComponent().appendingPathComponent("other-ca.pem")
        try other.caPEM.write(to: wrong, atomically: true, encoding: .utf8)
        let r = try runPushDesk(
            [
                "send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok,
                "--json",
            ],
            environment: mock.environment(ca: wrong.path))
        XCTAssertEqual(r.status, 2, r.stderr)
        let x = results(try json(r))[T.ok]
        XCTAssertEqual(x?["outcome"] as? String, "failed")
        XCTAssertEqual(x?["reason"] as? String, "connection.tls")
        XCTAssertTrue(x?["status"] is NSNull)
        XCTAssertTrue(x?["profile"] is NSNull)
        XCTAssertTrue((x?["hint"] as? String)?.contains("PUSHDESK_CA_FILE") ?? false, "\(x ?? [:])")
        XCTAssertEqual(mock.apns.requests.count, 0)
        let log = try String(contentsOf: mock.store.appendingPathComponent(".pushdesk/sent.jsonl"), encoding: .utf8)
        XCTAssertTrue(log.contains("\"outcome\":\"failed\""), "a TLS failure is logged")
    }

    /// Certificate auth: the .p12 (read by swift-nio-ssl) is the TLS client identity and no
    /// `authorization` header is sent; a token-auth app cannot pass the same server's TLS.
    func testCertificateAuthPresentsTheP12AsTheClientIdentity() throws {
        let mock = try MockPushServices(self, clientCA: true)
        let password = "p12-Pa55word-for-the-test"
        try mock.installClientP12(password: password)
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios", "--token", T.ok, "--json"],
            environment: mock.environment())
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let x = results(try json(r))[T.ok]
        XCTAssertEqual(x?["outcome"] as? String, "sent")
        XCTAssertEqual(mock.apns.requests.count, 1)
        XCTAssertNil(mock.apns.requests[0].header("authorization"))

        let token = try runPushDesk(
            [
                "send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok,
                "--json",
            ],
            environment: mock.environment())
        XCTAssertEqual(results(try json(token))[T.ok]?["outcome"] as? String, "failed")
        XCTAssertEqual(mock.apns.requests.count, 1, "no client certificate, no request")

        let check = try runPushDesk(["credentials", "check", "neotrips", "--store", mock.store.path, "--json"])
        XCTAssertTrue(check.stdout.contains("\"format\""), check.stdout)
        XCTAssertTrue(
            check.stdout.contains("Apple Push Services: com.neotrips.app"), "the .p12 read by credentials check")
        var outputs = [r.stdout, r.stderr, token.stdout, token.stderr, check.stdout, check.stderr]
        outputs = outputs.filter { $0.contains(password) }
        XCTAssertEqual(outputs, [], "the .p12 password was printed")
        let log = try String(contentsOf: mock.store.appendingPathComponent(".pushdesk/sent.jsonl"), encoding: .utf8)
        XCTAssertFalse(log.contains(password))
    }

    /// https_proxy: every connection goes through CONNECT with basic authentication, loopback
    /// included; no_proxy bypasses it; a wrong password is the proxy's 407, said plainly.
    func testThroughAnAuthenticatingProxyAndAroundItWithNoProxy() throws {
        let mock = try MockPushServices(self)
        let proxy = try MockConnectProxy(user: "op", password: "pr0xy-secret")
        defer { proxy.stop() }
        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: T.ok), Subscription(app: "neotrips-android", token: T.fcmOK),
        ])
        var env = mock.environment()
        env["https_proxy"] = "http://op:pr0xy-secret@127.0.0.1:\(proxy.port)"
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--profile", "ana", "--json"], environment: env)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(results(try json(r)).values.map { $0["outcome"] as? String }, ["sent", "sent"])
        let lines = proxy.connects.map(\.line).sorted()
        XCTAssertEqual(
            lines,
            [
                "CONNECT 127.0.0.1:\(mock.apns.port) HTTP/1.1", "CONNECT 127.0.0.1:\(mock.google.port) HTTP/1.1",
                "CONNECT 127.0.0.1:\(mock.google.port) HTTP/1.1",
            ].sorted())
        XCTAssertTrue(proxy.connects.allSatisfy { $0.auth == "Basic b3A6cHIweHktc2VjcmV0" })
        XCTAssertFalse((r.stdout + r.stderr).contains("pr0xy-secret"))

        env["no_proxy"] = "127.0.0.1"
        let direct = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok],
            environment: env)
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertEqual(proxy.connects.count, 3, "no_proxy: reached directly")

        env["no_proxy"] = ""
        env["https_proxy"] = "http://op:wrong@127.0.0.1:\(proxy.port)"
        let refused = try runPushDesk(
            [
                "send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok,
                "--json",
            ],
            environment: env)
        XCTAssertEqual(refused.status, 2)
        let x = results(try json(refused))[T.ok]
        XCTAssertEqual(x?["reason"] as? String, "connection.tcp")
        XCTAssertTrue((x?["hint"] as? String)?.contains("407") ?? false, "\(x ?? [:])")
    }

    /// A symbolic link planted as the send log is refused, not followed.
    func testTheSendLogIsNeverWrittenThroughASymbolicLink() throws {
        let mock = try MockPushServices(self)
        let outside = mock.store.deletingLastPathComponent().appendingPathComponent("victim.txt")
        try "untouched\n".write(to: outside, atomically: true, encoding: .utf8)
        let dir = mock.store.appendingPathComponent(".pushdesk")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("sent.jsonl"), withDestinationURL: outside)
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.ok],
            environment: mock.environment())
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains(".pushdesk/sent.jsonl: error: the send log was not written"), r.stderr)
        XCTAssertTrue(r.stdout.contains("sent 200"), "the result is still shown: \(r.stdout)")
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "untouched\n")
    }

    /// ExpiredProviderToken is retried once with a new token; a second one ends it `rejected`.
    func testASecondExpiredProviderTokenIsRejected() throws {
        let mock = try MockPushServices(self)
        let r = try runPushDesk(
            [
                "send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token",
                T.expiredAlways,
                "--json",
            ],
            environment: mock.environment())
        XCTAssertEqual(r.status, 1, r.stderr)
        let x = results(try json(r))[T.expiredAlways]
        XCTAssertEqual(x?["outcome"] as? String, "rejected")
        XCTAssertEqual(x?["reason"] as? String, "ExpiredProviderToken")
        XCTAssertEqual(x?["attempts"] as? Int, 2)
        XCTAssertEqual(mock.providerTokens.count, 2, "one token, then one newly signed for the retry")
        XCTAssertEqual(mock.apns.requests.count, 2)
    }

    /// On a terminal, stderr shows each wait before a retry and each device's outcome.
    func testProgressOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("util-linux's script (a pty for the command) is missing")
        }
        let mock = try MockPushServices(self)
        let bin = packageRoot.appendingPathComponent(".build/debug/pushdesk").path
        let command = [
            bin, "send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token",
            T.unavailable,
        ]
        .map { "'\($0)'" }.joined(separator: " ")
        let r = try runProcess("/usr/bin/script", ["-qec", command, "/dev/null"], environment: mock.environment())
        XCTAssertTrue(r.stdout.contains("neotrips-ios-dev: 503 ServiceUnavailable — attempt 2 of 3 in 0.0 s"), r.stdout)
        XCTAssertTrue(r.stdout.contains("neotrips-ios-dev: 503 ServiceUnavailable — attempt 3 of 3 in 0.0 s"), r.stdout)
        XCTAssertTrue(r.stdout.contains("neotrips-ios-dev f6f6f6…f6f6: failed"), r.stdout)

        let piped = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.unavailable],
            environment: mock.environment())
        XCTAssertEqual(piped.stderr, "", "no progress when stderr is not a terminal")
    }

    func testTextOutputAndUsageErrors() throws {
        let mock = try MockPushServices(self)
        let r = try runPushDesk(
            ["send", "summer-sale", "--store", mock.store.path, "--app", "neotrips-ios-dev", "--token", T.bad],
            environment: mock.environment())
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, r.stdout)
        XCTAssertTrue(
            lines[0].hasPrefix("neotrips-ios-dev  -  b2b2b2…b2b2  rejected 400 BadDeviceToken  apns-id "), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("  hint: this token is not a development token of this app"), lines[1])
        XCTAssertEqual(lines[2], "0 sent, 0 validated, 1 rejected, 0 failed, 0 skipped")
        for args in [["send", "summer-sale"], ["send", "summer-sale", "--profile", "ana", "--token", T.ok]] {
            // The mock's environment: were a usage error ever to send, the mock would count it.
            XCTAssertEqual(
                try runPushDesk(args + ["--store", mock.store.path], environment: mock.environment()).status, 2,
                "\(args)")
        }
        XCTAssertEqual(mock.apns.requests.count, 1)
    }

    /// No private key, password, provider token or access token in any file of the store,
    /// the send log, or what the command printed.
    func assertNoSecret(_ mock: MockPushServices, outputs: [String], file: StaticString = #filePath, line: UInt = #line)
    {
        var secrets = mock.providerTokens + mock.accessTokens
        // The private keys' base64 bodies, line by line (a PEM split differently still matches a line).
        for pem in [mock.apnsKey.pemRepresentation, mock.googleKey.pemRepresentation] {
            secrets += pem.split(separator: "\n").filter { !$0.hasPrefix("-----") && $0.count > 20 }.map(String.init)
        }
        XCTAssertGreaterThan(secrets.count, 4, file: file, line: line)
        var searched: [String] = []
        let skip = ["credentials/AuthKey_ABC123DEFG.p8", "credentials/neotrips-firebase.json"]  // the keys themselves
        let e = FileManager.default.enumerator(at: mock.store, includingPropertiesForKeys: nil)!
        var texts: [(String, String)] = outputs.enumerated().map { ("output \($0)", $1) }
        while let u = e.nextObject() as? URL {
            let rel = String(u.path.dropFirst(mock.store.path.count + 1))
            guard !skip.contains(rel), let d = FileManager.default.contents(atPath: u.path) else { continue }
            searched.append(rel)
            texts.append((rel, String(decoding: d, as: UTF8.self)))
        }
        for (name, text) in texts {
            for s in secrets where text.contains(s) {
                XCTFail("a secret is in \(name)", file: file, line: line)
            }
        }
        XCTAssertTrue(searched.contains(".pushdesk/sent.jsonl"), "\(searched)", file: file, line: line)
        print("hidden-secret test searched: \(searched.sorted().joined(separator: ", ")) and stdout, stderr")
    }
}
