import Crypto
import Foundation
import PushDeskTestSupport
import XCTest
import _CryptoExtras

@testable import PushDeskCore

/// The pinned numbers of docs/SENDING.md checked directly: retry waits, token reuse, the
/// hint table's coverage, endpoints and proxy variables, time-outs.
final class TransportRulesTests: XCTestCase {
    func testBackOffRetryAfterAndCap() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for (attempt, base) in [(1, 1.0), (2, 2.0), (3, 4.0)] {
            XCTAssertEqual(
                RetryPolicy.delay(afterAttempt: attempt, retryAfter: nil, quotaExceeded: false, now: now, jitter: 0),
                base)
            XCTAssertEqual(
                RetryPolicy.delay(afterAttempt: attempt, retryAfter: nil, quotaExceeded: false, now: now, jitter: 1),
                base * 1.25)
            XCTAssertEqual(
                RetryPolicy.delay(afterAttempt: attempt, retryAfter: nil, quotaExceeded: false, now: now, jitter: -1),
                base * 0.75)
        }
        XCTAssertEqual(
            RetryPolicy.delay(afterAttempt: 1, retryAfter: "7", quotaExceeded: false, now: now, jitter: 0), 7)
        XCTAssertEqual(
            RetryPolicy.delay(afterAttempt: 1, retryAfter: "0", quotaExceeded: false, now: now, jitter: 0), 0)
        XCTAssertEqual(
            RetryPolicy.delay(afterAttempt: 1, retryAfter: "3600", quotaExceeded: false, now: now, jitter: 0), 60)
        XCTAssertEqual(
            RetryPolicy.delay(
                afterAttempt: 1, retryAfter: "Tue, 14 Nov 2023 22:13:50 GMT", quotaExceeded: false, now: now, jitter: 0),
            30)
        // QUOTA_EXCEEDED waits at least its Retry-After, and at least the back-off.
        XCTAssertEqual(RetryPolicy.delay(afterAttempt: 3, retryAfter: "1", quotaExceeded: true, now: now, jitter: 0), 4)
        XCTAssertEqual(RetryPolicy.delay(afterAttempt: 1, retryAfter: "9", quotaExceeded: true, now: now, jitter: 0), 9)
        XCTAssertEqual(RetryPolicy.maxAttempts, 3)
        XCTAssertTrue(RetryPolicy.isRetryable(status: 429))
        XCTAssertTrue(RetryPolicy.isRetryable(status: 503))
        XCTAssertFalse(RetryPolicy.isRetryable(status: 400))
        XCTAssertFalse(RetryPolicy.isRetryable(status: 403))
    }

    func testProviderTokenReusedFiftyMinutesAndRenewedAtMostEveryTwenty() throws {
        let cache = APNsTokenCache()
        let key = APNsAuthKey(privateKey: P256.Signing.PrivateKey())
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let a = try cache.token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", key: key, now: t0)
        let b = try cache.token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", key: key, now: t0 + 49 * 60)
        XCTAssertEqual(a.authorizationHeaderValue, b.authorizationHeaderValue)
        XCTAssertEqual(cache.signings, 1)
        let c = try cache.token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", key: key, now: t0 + 50 * 60)
        XCTAssertNotEqual(a.authorizationHeaderValue, c.authorizationHeaderValue)
        XCTAssertEqual(c.issuedAt, t0 + 50 * 60)
        // Right after ExpiredProviderToken a new one is signed at once…
        let d = try cache.token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", key: key, now: t0 + 51 * 60, expired: c)
        XCTAssertEqual(d.issuedAt, t0 + 51 * 60)
        // …but an expiry reported for an older token does not sign again.
        let e = try cache.token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", key: key, now: t0 + 52 * 60, expired: c)
        XCTAssertEqual(e.issuedAt, d.issuedAt)
        XCTAssertEqual(cache.signings, 3)
        XCTAssertEqual(APNsTokenCache.reuseFor, 50 * 60)
        XCTAssertEqual(APNsTokenCache.minimumInterval, 20 * 60)
    }

    /// An access token is reused until 60 s before it expires; the grant is RS256, one hour at most.
    func testGoogleAccessTokenReuseAndTheGrant() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let json = try JSONSerialization.data(withJSONObject: [
            "client_email": "a@p.iam.gserviceaccount.com", "private_key": key.pemRepresentation, "project_id": "p",
        ])
        let account = try GoogleServiceAccountKey(json: json, file: "sa.json")
        XCTAssertEqual(account.tokenURI, "https://oauth2.googleapis.com/token")
        let cache = GoogleTokenCache()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        cache.store(GoogleAccessToken(value: "ya29.x", expires: t0 + 3600), for: account)
        XCTAssertNotNil(cache.cached(account, now: t0 + 3539))
        XCTAssertNil(cache.cached(account, now: t0 + 3540))
        XCTAssertEqual("\(GoogleAccessToken(value: "ya29.secret-part", expires: t0))", "Bearer ya29.s…")
        let jwt = try GoogleTokenCache.assertion(account, now: t0).split(separator: ".").map(String.init)
        let claims = try JSONSerialization.jsonObject(with: CredentialText.base64urlDecode(jwt[1])!) as! [String: Any]
        XCTAssertEqual(claims["iss"] as? String, "a@p.iam.gserviceaccount.com")
        XCTAssertEqual(claims["scope"] as? String, "https://www.googleapis.com/auth/firebase.messaging")
        XCTAssertEqual(claims["aud"] as? String, "https://oauth2.googleapis.com/token")
        XCTAssertEqual(claims["iat"] as? Int, 1_700_000_000)
        XCTAssertEqual(claims["exp"] as? Int, 1_700_003_600)
        XCTAssertTrue(
            key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: CredentialText.base64urlDecode(jwt[2])!),
                for: Data((jwt[0] + "." + jwt[1]).utf8), padding: .insecurePKCS1v1_5))
    }

    /// Apple's tables of APNs reasons (the device endpoint's; the channel management and
    /// broadcast endpoints') and Firebase's ErrorCode enum, each with a hint, by name.
    func testEveryDocumentedReasonHasAHint() {
        // "Handling notification responses from APNs": status and reason of every row.
        let device: [(String, Int)] = [
            ("BadCollapseId", 400), ("BadDeviceToken", 400), ("BadExpirationDate", 400), ("BadMessageId", 400),
            ("BadPriority", 400), ("BadTopic", 400), ("DeviceTokenNotForTopic", 400), ("DuplicateHeaders", 400),
            ("IdleTimeout", 400), ("InvalidPushType", 400), ("MissingDeviceToken", 400), ("MissingTopic", 400),
            ("PayloadEmpty", 400), ("TopicDisallowed", 400), ("BadCertificate", 403),
            ("BadCertificateEnvironment", 403), ("ExpiredProviderToken", 403), ("Forbidden", 403),
            ("InvalidProviderToken", 403), ("MissingProviderToken", 403), ("UnrelatedKeyIdInToken", 403),
            ("BadEnvironmentKeyIdInToken", 403), ("BadPath", 404), ("MethodNotAllowed", 405),
            ("ExpiredToken", 410), ("Unregistered", 410), ("PayloadTooLarge", 413),
            ("TooManyProviderTokenUpdates", 429), ("TooManyRequests", 429), ("InternalServerError", 500),
            ("ServiceUnavailable", 503), ("Shutdown", 503),
        ]
        // "Handling error responses from Apple Push Notification service" (channels, broadcasts).
        let channels: [(String, Int)] = [
            ("FeatureNotEnabled", 400), ("MissingChannelId", 400), ("BadChannelId", 400),
            ("ChannelNotRegistered", 400), ("BadRequestParams", 400), ("BadRequestPayload", 400),
            ("PayloadEmpty", 400), ("BadMessageId", 400), ("MissingPushType", 400), ("InvalidPushType", 400),
            ("CannotCreateChannelConfig", 400), ("BadExpirationDate", 400), ("TopicDisallowed", 400),
            ("BadPriority", 400), ("BadCertificate", 403), ("BadCertificateEnvironment", 403),
            ("TopicMismatch", 403), ("MissingProviderToken", 403), ("ExpiredProviderToken", 403),
            ("InvalidProviderToken", 403), ("BadPath", 404), ("MethodNotAllowed", 405), ("PayloadTooLarge", 413),
            ("TooManyRequests", 429), ("TooManyProviderTokenUpdates", 429), ("InternalServerError", 500),
            ("ServiceUnavailable", 503), ("Shutdown", 503),
        ]
        for (table, apple, endpoint) in [
            (ResponseHints.apns, device, APNsEndpoint.device), (ResponseHints.apnsChannels, channels, .channels),
        ] {
            let byReason = Dictionary(uniqueKeysWithValues: table.map { ($0.reason, $0) })
            XCTAssertEqual(byReason.count, table.count, "\(endpoint): a reason listed twice")
            for (reason, status) in apple {
                guard let row = byReason[reason] else {
                    XCTFail("\(endpoint): no hint for \(reason)")
                    continue
                }
                XCTAssertEqual(row.status, status, "\(endpoint): \(reason)")
                XCTAssertFalse(row.hint.isEmpty, "\(endpoint): \(reason)")
                XCTAssertEqual(
                    ResponseHints.apns(reason: reason, status: status, environment: nil, endpoint: endpoint),
                    row.hint, "\(endpoint): \(reason)")
            }
            XCTAssertEqual(
                Set(byReason.keys).subtracting(apple.map(\.0)).sorted(), [], "\(endpoint): reasons Apple does not list")
        }
        // The same reason says what to change where it happened.
        let expiration = ResponseHints.apns(
            reason: "BadExpirationDate", status: 400, environment: nil, endpoint: .channels)!
        XCTAssertTrue(expiration.contains("storage none"), expiration)
        XCTAssertFalse(
            ResponseHints.apns(reason: "BadExpirationDate", status: 400, environment: nil)!.contains("storage"))
        XCTAssertTrue(
            ResponseHints.apns(reason: "TopicDisallowed", status: 400, environment: nil, endpoint: .channels)!
                .contains("without a push type suffix"))
        let google = [
            "UNSPECIFIED_ERROR", "INVALID_ARGUMENT", "UNREGISTERED", "SENDER_ID_MISMATCH", "QUOTA_EXCEEDED",
            "UNAVAILABLE", "INTERNAL", "THIRD_PARTY_AUTH_ERROR",
        ]
        XCTAssertEqual(Array(ResponseHints.fcm.map(\.code).prefix(google.count)), google)
        XCTAssertTrue(
            ResponseHints.apns(reason: "BadDeviceToken", status: 400, environment: .sandbox)!.contains(
                "tokens from a TestFlight or App Store build need the production app"))
        XCTAssertTrue(
            ResponseHints.apns(reason: "BadDeviceToken", status: 400, environment: .production)!.contains(
                "need the sandbox app"))
        for (code, hint) in ResponseHints.fcm { XCTAssertEqual(ResponseHints.fcm(code: code, status: 400), hint) }
        XCTAssertNil(ResponseHints.apns(reason: nil, status: 200, environment: nil))
        XCTAssertNotNil(ResponseHints.apns(reason: "SomethingNew", status: 400, environment: nil))
        XCTAssertNotNil(ResponseHints.apns(reason: "SomethingNew", status: 400, environment: nil, endpoint: .channels))
    }

    /// docs/SENDING.md shows each table row for row as the code has it: no row missing,
    /// none extra, none stale.
    func testTheSendingDocShowsTheHintTable() throws {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/SENDING.md"), encoding: .utf8)
        func rows(under header: String) -> [String] {
            let lines = doc.components(separatedBy: "\n")
            guard let at = lines.firstIndex(of: header) else {
                XCTFail("docs/SENDING.md has no table \(header)")
                return []
            }
            return Array(lines[(at + 2)...].prefix { $0.hasPrefix("|") })
        }
        XCTAssertEqual(
            rows(under: "| status | APNs `reason` (device endpoint) | hint |"),
            ResponseHints.apns.map { "| \($0.status) | `\($0.reason)` | \($0.hint) |" })
        XCTAssertEqual(
            rows(under: "| status | APNs channel and broadcast `reason` | hint |"),
            ResponseHints.apnsChannels.map { "| \($0.status) | `\($0.reason)` | \($0.hint) |" })
        XCTAssertEqual(
            rows(under: "| FCM `errorCode` (or `status`) | hint |"),
            ResponseHints.fcm.map { "| `\($0.code)` | \($0.hint) |" })
    }

    /// The channel management and broadcast endpoints name the request `apns-request-id`, the
    /// device endpoint `apns-id`: both are read as `apnsId`, with reason and 410 timestamp.
    func testAnAPNsAnswerTakesEitherRequestIdHeader() {
        let channel = APNsAnswer(
            HTTPResponse(
                status: 400,
                headers: [
                    ("content-type", "application/json"), ("apns-request-id", "8A6F1B2C-0D3E-4F5A-9B6C-7D8E9F0A1B2C"),
                ],
                body: Array(#"{"reason":"ChannelNotRegistered"}"#.utf8)))
        XCTAssertEqual(channel.apnsId, "8A6F1B2C-0D3E-4F5A-9B6C-7D8E9F0A1B2C")
        XCTAssertEqual(channel.reason, "ChannelNotRegistered")
        XCTAssertNil(channel.apnsUniqueId)
        let device = APNsAnswer(
            HTTPResponse(
                status: 410, headers: [("apns-id", "EABEAE54-14A8-11E5-B60B-1697F925EC7B")],
                body: Array(#"{"reason":"Unregistered","timestamp":1700000000000}"#.utf8)))
        XCTAssertEqual(device.apnsId, "EABEAE54-14A8-11E5-B60B-1697F925EC7B")
        XCTAssertEqual(device.reason, "Unregistered")
        XCTAssertEqual(device.timestamp, Date(timeIntervalSince1970: 1_700_000_000))
        let sent = APNsAnswer(
            HTTPResponse(
                status: 200,
                headers: [("apns-request-id", "0B7C1D2E-3F40-4152-8364-758697A8B9CA"), ("apns-unique-id", "u-1")],
                body: []))
        XCTAssertEqual(sent.apnsId, "0B7C1D2E-3F40-4152-8364-758697A8B9CA")
        XCTAssertEqual(sent.apnsUniqueId, "u-1")
        XCTAssertNil(sent.reason)
    }

    func testEndpointsProxyAndTimeOutsFromTheEnvironment() throws {
        let d = try TransportSettings.fromEnvironment([:])
        XCTAssertEqual(d.apnsSandbox.baseURL, "https://api.sandbox.push.apple.com")
        XCTAssertEqual(d.apnsProduction.baseURL, "https://api.push.apple.com")
        XCTAssertEqual(d.fcm.baseURL, "https://fcm.googleapis.com")
        XCTAssertEqual(d.connectTimeout, 10)
        XCTAssertEqual(d.responseTimeout, 30)
        XCTAssertNil(d.proxy)
        let s = try TransportSettings.fromEnvironment([
            "PUSHDESK_APNS_SANDBOX_URL": "https://127.0.0.1:8443", "https_proxy": "http://op:s%40cret@proxy.corp:3128",
            "NO_PROXY": "localhost, .internal.example,api.push.apple.com",
        ])
        XCTAssertEqual(s.apnsSandbox, .init(host: "127.0.0.1", port: 8443))
        XCTAssertEqual(s.proxy?.shown, "http://proxy.corp:3128")
        XCTAssertEqual(s.proxy?.credentials, "op:s@cret")
        XCTAssertNil(s.proxy(for: "api.push.apple.com"))
        XCTAssertNil(s.proxy(for: "gw.internal.example"))
        XCTAssertNil(s.proxy(for: "LOCALHOST"))
        XCTAssertNotNil(s.proxy(for: "fcm.googleapis.com"))
        XCTAssertNotNil(s.proxy(for: "127.0.0.1"), "loopback goes through the proxy unless no_proxy says not")
        XCTAssertNil(
            try TransportSettings.fromEnvironment(["https_proxy": "http://p:1", "no_proxy": "*"]).proxy(for: "x"))
        XCTAssertThrowsError(try TransportSettings.fromEnvironment(["PUSHDESK_FCM_URL": "http://plain.example"]))
        XCTAssertThrowsError(try TransportSettings.fromEnvironment(["PUSHDESK_FCM_URL": "https://h.example/v1/x"]))
    }

    /// A server that never answers ends the target `failed` after the response time-out, not
    /// retried. The time-out is shortened here through the settings, not the rules.
    func testNoAnswerFailsAfterTheResponseTimeOutAndIsNotRetried() throws {
        let mock = try MockPushServices(self)
        var settings = try TransportSettings.fromEnvironment(mock.environment())
        settings.responseTimeout = 1
        let snapshot = Store(root: mock.store).loadAll(readOnly: true)
        let plan = SendPlan.make(
            delivery: snapshot.deliveries.first { $0.name == "summer-sale" }!, service: snapshot.services[0],
            profile: nil, appKey: "neotrips-ios-dev", token: MockPushServices.Token.silent,
            allServices: snapshot.services, now: Date())
        let sender = PushSender(settings: settings, storeRoot: mock.store, environment: [:])
        let started = Date()
        let report = sender.send(plan, dryRun: false)
        sender.closeAll()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(report.results.map(\.outcome), [.failed])
        XCTAssertEqual(report.results[0].attempts, 1)
        XCTAssertNil(report.results[0].status)
        XCTAssertTrue(report.results[0].hint?.contains("response time-out") ?? false, "\(report.results[0])")
        XCTAssertEqual(mock.apns.requests.count, 1)
        XCTAssertEqual(report.exitCode, 2)
    }
}
