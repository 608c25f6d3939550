import Crypto
import Foundation
import PushDeskCore
import _CryptoExtras

/// Mock APNs, Google token endpoint and FCM (loopback, test CA), and a demo store whose
/// credentials are the test's own: what `pushdesk send` and the console's Send test and
/// Check online talk to in the tests (docs/SENDING.md).
public final class MockPushServices: @unchecked Sendable {
    public static let keyId = "ABC123DEFG"
    public static let teamId = "DEF123GHIJ"
    public static let bundleId = "com.neotrips.app"
    public static let projectId = "neotrips-12345"
    public static let clientEmail = "push@neotrips-12345.iam.gserviceaccount.com"

    /// APNs device tokens, each answered its own way.
    public enum Token {
        public static let ok = String(repeating: "a1", count: 32)
        public static let bad = String(repeating: "b2", count: 32)
        public static let unregistered = String(repeating: "c3", count: 32)
        public static let expiredOnce = String(repeating: "d4", count: 32)
        public static let expiredAlways = String(repeating: "d5", count: 32)
        public static let busyOnce = String(repeating: "e5", count: 32)
        public static let unavailable = String(repeating: "f6", count: 32)
        public static let silent = String(repeating: "90", count: 32)
        public static let fcmOK = "fcm-ok:APA91b_test-token"
        public static let fcmUnregistered = "fcm-gone:APA91b_test-token"
        /// A Firebase installation ID (docs/SENDING.md), answered 200 when sent as `message.fid`.
        public static let fid = "fAbCdEfGhIjKlMnOpQr-_9"
    }

    public let pki: TestPKI
    public let apnsKey = P256.Signing.PrivateKey()
    public let googleKey: _RSA.Signing.PrivateKey
    public var apns: MockHTTP2Server!
    public var google: MockHTTP2Server!
    /// Channel management and broadcasts (docs/SENDING.md).
    public var channels: MockChannelAPNs!
    public let store: URL
    public let lock = NSLock()
    public var providerTokens: [String] = []
    public var accessTokens: [String] = []
    public var apnsIds: [String: String] = [:]
    public var answered: Set<String> = []
    /// The `apns-push-type` of every request that passed the per-type checks, in order.
    public var pushTypes: [String] = []
    public var problems: [String] = []
    /// APNs asks for a client certificate from the test CA (certificate auth).
    public let certificateAuth: Bool
    /// No answer at all from APNs and FCM (the connection stays open): a hung server.
    public var answerNothing: Bool {
        get { lock.withLock { _answerNothing } }
        set { lock.withLock { _answerNothing = newValue } }
    }
    private var _answerNothing = false
    /// FCM answers every send as it answers a request it cannot read: 400 with status
    /// INVALID_ARGUMENT and no FcmError detail.
    public var fcmTakesRequestsAsMalformed: Bool {
        get { lock.withLock { _fcmTakesRequestsAsMalformed } }
        set { lock.withLock { _fcmTakesRequestsAsMalformed = newValue } }
    }
    private var _fcmTakesRequestsAsMalformed = false
    /// Where the CA files live: the mock's own temporary directory, removed with it.
    private let scratch: URL

    /// The mocks for the demo store already written at `store`: its credentials directory
    /// gets a .p8 key and a service account of the mocks' own.
    public init(store: URL, clientCA: Bool = false) throws {
        certificateAuth = clientCA
        pki = try TestPKI()
        googleKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        self.store = store
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushdesk-mock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let creds = store.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: creds, withIntermediateDirectories: true)
        let p8 = creds.appendingPathComponent("AuthKey_\(Self.keyId).p8")
        try apnsKey.pemRepresentation.write(to: p8, atomically: true, encoding: .utf8)
        chmod(p8.path, 0o600)

        let server = try pki.issue()
        apns = try MockHTTP2Server(identity: server, clientCA: clientCA ? pki.caNIO : nil) { [unowned self] in
            self.answerAPNs($0)
        }
        google = try MockHTTP2Server(identity: server) { [unowned self] in self.answerGoogle($0) }
        channels = try MockChannelAPNs(
            identity: server, pki: pki, bundleId: Self.bundleId, certificateAuth: clientCA
        ) { [unowned self] in self.verifyES256($0) }

        let account: [String: String] = [
            "type": "service_account", "project_id": Self.projectId, "private_key_id": "0123456789abcdef",
            "private_key": googleKey.pemRepresentation, "client_email": Self.clientEmail,
            "token_uri": google.baseURL + "/token",
        ]
        let json = creds.appendingPathComponent("neotrips-firebase.json")
        try JSONSerialization.data(withJSONObject: account, options: [.sortedKeys]).write(to: json)
        chmod(json.path, 0o600)
        try caPEM.write(to: caFile, atomically: true, encoding: .utf8)
    }

    deinit {
        apns?.stop()
        google?.stop()
        channels = nil
        try? FileManager.default.removeItem(at: scratch)
    }

    public var caFile: URL { scratch.appendingPathComponent("test-ca.pem") }
    public var caPEM: String { pki.caPEM }

    /// The CA file of another test CA: trusting it instead must fail at tls.
    public func otherCAFile() throws -> URL {
        let url = scratch.appendingPathComponent("other-ca.pem")
        try TestPKI(name: "Another Test CA").caPEM.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The environment that points `pushdesk` at the mocks (and at no proxy).
    public func environment(ca: String? = nil) -> [String: String] {
        [
            "PUSHDESK_APNS_SANDBOX_URL": apns.baseURL, "PUSHDESK_APNS_PRODUCTION_URL": apns.baseURL,
            "PUSHDESK_FCM_URL": google.baseURL, "PUSHDESK_CA_FILE": ca ?? caFile.path,
            "https_proxy": "", "HTTPS_PROXY": "", "no_proxy": "", "NO_PROXY": "",
        ].merging(channels.environment) { a, _ in a }
    }

    /// A .p12 of a client certificate from the test CA for the production app (certificate
    /// auth, its password in the secret `neotrips-prod-p12`).
    public func installClientP12(password: String) throws {
        let id = try pki.issue(client: true, commonName: "Apple Push Services: com.neotrips.app")
        let dir = store.appendingPathComponent("credentials")
        let cert = dir.appendingPathComponent(".client-cert.pem")
        let key = dir.appendingPathComponent(".client-key.pem")
        try id.certificatePEM.write(to: cert, atomically: true, encoding: .utf8)
        try id.keyPEM.write(to: key, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(at: cert)
            try? FileManager.default.removeItem(at: key)
        }
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: Self.opensslPath)
        openssl.arguments = [
            "pkcs12", "-export", "-in", cert.path, "-inkey", key.path, "-out",
            dir.appendingPathComponent("neotrips-prod.p12").path, "-passout", "fd:0",
        ]
        let input = Pipe()
        openssl.standardInput = input
        openssl.standardOutput = FileHandle.nullDevice
        try openssl.run()
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try input.fileHandleForWriting.close()
        try openssl.waitUntilExit(within: defaultChildDeadline)
        guard openssl.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl pkcs12 failed"])
        }
        try SecretStore(storeRoot: store).set("neotrips-prod-p12", to: SecretValue(password))
    }

    /// Saves profile `ana` with these devices.
    public func saveProfile(_ subscriptions: [Subscription], name: String = "ana") throws {
        var p = DemoStore.ana
        p.name = name
        p.subscriptions = subscriptions
        try Store(root: store).save(p)
    }

    /// openssl on PATH (the .p12 is made the way an operator makes one).
    static var opensslPath: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/openssl" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/usr/bin/openssl"
    }

    private func problem(_ s: String) {
        lock.withLock { problems.append(s) }
    }

    // MARK: APNs

    private func answerAPNs(_ r: MockHTTP2Server.Request) -> MockHTTP2Server.Response? {
        func reason(_ status: Int, _ reason: String, _ extra: [(String, String)] = []) -> MockHTTP2Server.Response {
            .init(status: status, headers: [("apns-id", UUID().uuidString)] + extra, body: #"{"reason":"\#(reason)"}"#)
        }
        if answerNothing { return nil }
        guard r.method == "POST", r.path.hasPrefix("/3/device/") else { return reason(404, "BadPath") }
        let token = String(r.path.dropFirst("/3/device/".count))
        // Per push type, as Apple's "Sending notification requests to APNs" says: the type is
        // one Apple knows, the topic is the bundle id plus the type's suffix, the priority one
        // the type allows, push-to-talk carries apns-expiration 0, and the payload fits.
        guard let type = r.header("apns-push-type"), let rule = Self.appleTypes[type] else {
            return reason(400, r.header("apns-push-type") == nil ? "MissingPushType" : "InvalidPushType")
        }
        guard let topic = r.header("apns-topic"), topic.hasPrefix(Self.bundleId) else {
            return reason(400, "BadTopic")
        }
        guard topic == Self.bundleId + rule.suffix else { return reason(400, "TopicDisallowed") }
        guard let priority = r.header("apns-priority").flatMap(Int.init), rule.priorities.contains(priority) else {
            return reason(400, "BadPriority")
        }
        if type == "pushtotalk", r.header("apns-expiration") != "0" { return reason(400, "BadExpirationDate") }
        guard r.body.count <= rule.limit else { return reason(413, "PayloadTooLarge") }
        if rule.tokenOnly, certificateAuth, r.header("authorization") == nil { return reason(403, "TopicDisallowed") }
        if type == "liveactivity", let why = Self.liveActivityProblem(r.body) { problem("liveactivity body: \(why)") }
        lock.withLock { pushTypes.append(type) }
        if certificateAuth, r.header("authorization") == nil {
            return .init(status: 200, headers: [("apns-id", UUID().uuidString)])
        }
        guard let auth = r.header("authorization"), auth.hasPrefix("bearer ") else {
            return reason(403, "MissingProviderToken")
        }
        let jwt = String(auth.dropFirst("bearer ".count))
        if let why = verifyES256(jwt) {
            problem("provider token: \(why)")
            return reason(403, "InvalidProviderToken")
        }
        let first = lock.withLock { () -> Bool in
            if !providerTokens.contains(jwt) { providerTokens.append(jwt) }
            return answered.insert(token).inserted
        }
        switch token {
        case Token.bad: return reason(400, "BadDeviceToken")
        case ConnectionCheck.apnsProbeToken: return reason(400, "BadDeviceToken")
        case Token.unregistered:
            return .init(status: 410, body: #"{"reason":"Unregistered","timestamp":1700000000000}"#)
        case Token.expiredOnce where first: return reason(403, "ExpiredProviderToken")
        case Token.expiredAlways: return reason(403, "ExpiredProviderToken")
        case Token.busyOnce where first: return reason(429, "TooManyRequests", [("retry-after", "0")])
        case Token.unavailable: return reason(503, "ServiceUnavailable", [("retry-after", "0")])
        case Token.silent: return nil
        default:
            let id = UUID().uuidString
            lock.withLock { apnsIds[token] = id }
            return .init(status: 200, headers: [("apns-id", id), ("apns-unique-id", UUID().uuidString.lowercased())])
        }
    }

    /// Apple's push types: topic suffix, the priorities it takes, the payload limit, whether
    /// it needs token auth. Written from Apple's documentation, not from PushDesk's table.
    static let appleTypes: [String: (suffix: String, priorities: [Int], limit: Int, tokenOnly: Bool)] = [
        "alert": ("", [10, 5, 1], 4096, false),
        "background": ("", [5], 4096, false),
        "liveactivity": (".push-type.liveactivity", [10, 5], 4096, true),
        "widgets": (".push-type.widgets", [10, 5], 4096, false),
        "controls": (".push-type.controls", [10, 5], 4096, false),
        "voip": (".voip", [10, 5], 5120, false),
        "location": (".location-query", [10, 5], 4096, true),
        "pushtotalk": (".voip-ptt", [10], 4096, false),
    ]

    /// What ActivityKit would not take in a Live Activity body (Apple: "Starting and updating
    /// Live Activities with ActivityKit push notifications"), nil when it takes it.
    static func liveActivityProblem(_ body: [UInt8]) -> String? {
        guard let doc = try? JSONReader.object(body), case .object(let top) = doc, let aps = doc["aps"] else {
            return "no aps object"
        }
        guard top.count == 1 else { return "keys beside aps" }
        guard case .number(let ts)? = aps["timestamp"], ts.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return "no integer timestamp"
        }
        guard case .string(let event)? = aps["event"], ["start", "update", "end"].contains(event) else {
            return "event"
        }
        guard case .object? = aps["content-state"] else { return "no content-state object" }
        if event == "start" {
            guard case .string? = aps["attributes-type"], case .object? = aps["attributes"] else {
                return "start attributes"
            }
            guard aps["alert"]?["title"] != nil, aps["alert"]?["body"] != nil else { return "start alert" }
        }
        return nil
    }

    /// Why the provider token is not one APNs would accept, nil when it is.
    func verifyES256(_ jwt: String) -> String? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let h = CredentialText.base64urlDecode(parts[0]),
            let c = CredentialText.base64urlDecode(parts[1]), let s = CredentialText.base64urlDecode(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: h) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: c) as? [String: Any]
        else { return "not a JWT" }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == Self.keyId else { return "header" }
        guard claims["iss"] as? String == Self.teamId, let iat = claims["iat"] as? Int,
            abs(Double(iat) - Date().timeIntervalSince1970) < 3600
        else { return "claims" }
        guard let sig = try? P256.Signing.ECDSASignature(rawRepresentation: s),
            apnsKey.publicKey.isValidSignature(sig, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "signature" }
        return nil
    }

    // MARK: Google token endpoint and FCM

    private func googleError(_ status: Int, _ grpc: String, _ code: String?, _ message: String)
        -> MockHTTP2Server.Response
    {
        let details =
            code.map {
                #","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#($0)"}]"#
            } ?? ""
        return .init(
            status: status, headers: [("content-type", "application/json")],
            body: #"{"error":{"code":\#(status),"message":"\#(message)","status":"\#(grpc)"\#(details)}}"#)
    }

    private func answerGoogle(_ r: MockHTTP2Server.Request) -> MockHTTP2Server.Response? {
        if answerNothing { return nil }
        if r.path == "/token" { return answerToken(r) }
        guard r.path == "/v1/projects/\(Self.projectId)/messages:send" else {
            return googleError(404, "NOT_FOUND", nil, "Requested entity was not found.")
        }
        let bearer = r.header("authorization").map { String($0.dropFirst("Bearer ".count)) } ?? ""
        guard lock.withLock({ accessTokens.contains(bearer) }) else {
            return googleError(401, "UNAUTHENTICATED", nil, "Request had invalid authentication credentials.")
        }
        if fcmTakesRequestsAsMalformed {
            return googleError(400, "INVALID_ARGUMENT", nil, "Invalid JSON payload received.")
        }
        guard let doc = try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any],
            let message = doc["message"] as? [String: Any]
        else { return googleError(400, "INVALID_ARGUMENT", nil, "Invalid JSON payload received.") }
        let validateOnly = doc["validate_only"] as? Bool == true
        // `target` is a oneof in FCM's Message: a token or an installation ID, never both.
        let targets = ["token", "fid", "topic", "condition"].filter { message[$0] != nil }
        guard targets.count == 1 else {
            problem("FCM message with targets \(targets)")
            return googleError(400, "INVALID_ARGUMENT", nil, "Exactly one of token, topic, condition or fid is needed.")
        }
        if let fid = message["fid"] as? String {
            guard fid == Token.fid else {
                return googleError(404, "NOT_FOUND", "UNREGISTERED", "Requested entity was not found.")
            }
            let id = validateOnly ? "fake_message_id" : "0:1700000000000001%31bd1c9631bd1c96"
            return .init(status: 200, body: #"{"name":"projects/\#(Self.projectId)/messages/\#(id)"}"#)
        }
        guard let token = message["token"] as? String else {
            return googleError(400, "INVALID_ARGUMENT", nil, "Invalid JSON payload received.")
        }
        switch token {
        case Token.fcmOK:
            let id = validateOnly ? "fake_message_id" : "0:1700000000000000%31bd1c9631bd1c96"
            return .init(status: 200, body: #"{"name":"projects/\#(Self.projectId)/messages/\#(id)"}"#)
        case Token.fcmUnregistered:
            return googleError(404, "NOT_FOUND", "UNREGISTERED", "Requested entity was not found.")
        default:
            return googleError(
                400, "INVALID_ARGUMENT", "INVALID_ARGUMENT",
                "The registration token is not a valid FCM registration token")
        }
    }

    private func answerToken(_ r: MockHTTP2Server.Request) -> MockHTTP2Server.Response? {
        func refuse(_ e: String) -> MockHTTP2Server.Response {
            problem("token endpoint: \(e)")
            return .init(status: 400, body: #"{"error":"invalid_grant","error_description":"\#(e)"}"#)
        }
        guard r.header("content-type") == "application/x-www-form-urlencoded" else { return refuse("content-type") }
        var form: [String: String] = [:]
        for pair in String(decoding: r.body, as: UTF8.self).split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            if kv.count == 2 { form[kv[0]] = kv[1] }
        }
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let jwt = form["assertion"] else {
            return refuse("grant_type")
        }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let h = CredentialText.base64urlDecode(parts[0]),
            let c = CredentialText.base64urlDecode(parts[1]), let s = CredentialText.base64urlDecode(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: h) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: c) as? [String: Any]
        else { return refuse("not a JWT") }
        guard header["alg"] as? String == "RS256", header["typ"] as? String == "JWT" else { return refuse("header") }
        guard claims["iss"] as? String == Self.clientEmail,
            claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging",
            claims["aud"] as? String == google.baseURL + "/token", let iat = claims["iat"] as? Int,
            let exp = claims["exp"] as? Int, exp > iat, exp - iat <= 3600
        else { return refuse("claims") }
        guard
            googleKey.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: s), for: Data((parts[0] + "." + parts[1]).utf8),
                padding: .insecurePKCS1v1_5)
        else { return refuse("signature") }
        let token = "ya29.test-" + UUID().uuidString
        lock.withLock { accessTokens.append(token) }
        return .init(
            status: 200, headers: [("content-type", "application/json")],
            body: #"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#)
    }
}
