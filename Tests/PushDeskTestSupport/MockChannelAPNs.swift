import Foundation

/// Mock of Apple's channel management API and broadcast endpoint (docs/SENDING.md), beside the
/// device endpoint of `MockPushServices`: HTTP/2 over TLS from the same test CA, the same
/// provider-token and client-certificate checks, Apple's answers (`apns-request-id`,
/// `{"reason":…}`) for every check it makes. It keeps the channels it created per bundle id.
public final class MockChannelAPNs: @unchecked Sendable {
    public var manage: MockHTTP2Server!
    public var broadcast: MockHTTP2Server!
    private let lock = NSLock()
    private var _channels: [String: [(id: String, storage: Int)]] = [:]
    private var _nextId: String?
    private var _broadcastEnabled = true
    private var _problems: [String] = []
    private let bundleId: String
    private let certificateAuth: Bool
    /// Why a provider token is not one APNs would accept (nil when it is).
    private let verify: @Sendable (String) -> String?

    init(
        identity: TestPKI.Identity, pki: TestPKI, bundleId: String, certificateAuth: Bool,
        verify: @escaping @Sendable (String) -> String?
    ) throws {
        self.bundleId = bundleId
        self.certificateAuth = certificateAuth
        self.verify = verify
        let ca = certificateAuth ? pki.caNIO : nil
        manage = try MockHTTP2Server(identity: identity, clientCA: ca) { [unowned self] in self.answerManage($0) }
        broadcast = try MockHTTP2Server(identity: identity, clientCA: ca) { [unowned self] in
            self.answerBroadcast($0)
        }
    }

    deinit {
        manage?.stop()
        broadcast?.stop()
    }

    /// The channels Apple holds for the bundle id: (id, message storage policy).
    public var channels: [(id: String, storage: Int)] { lock.withLock { _channels[bundleId] ?? [] } }
    /// Requests that broke a rule the mock checks but Apple answers no reason for.
    public var problems: [String] { lock.withLock { _problems } }
    /// The id the next created channel gets (a hostile server's id, in the tests), once.
    public var nextChannelId: String? {
        get { lock.withLock { _nextId } }
        set { lock.withLock { _nextId = newValue } }
    }
    /// false: every call answers `FeatureNotEnabled`, as for an app id without the capability.
    public var broadcastEnabled: Bool {
        get { lock.withLock { _broadcastEnabled } }
        set { lock.withLock { _broadcastEnabled = newValue } }
    }

    /// A channel Apple holds without the store knowing it (another operator made it).
    public func addChannel(_ id: String, storage: Int = 0) {
        lock.withLock { _channels[bundleId, default: []].append((id, storage)) }
    }

    /// The environment that points `pushdesk` at these mocks.
    public var environment: [String: String] {
        [
            "PUSHDESK_APNS_MANAGE_SANDBOX_URL": manage.baseURL, "PUSHDESK_APNS_MANAGE_PRODUCTION_URL": manage.baseURL,
            "PUSHDESK_APNS_BROADCAST_SANDBOX_URL": broadcast.baseURL,
            "PUSHDESK_APNS_BROADCAST_PRODUCTION_URL": broadcast.baseURL,
        ]
    }

    private func reason(_ status: Int, _ reason: String) -> MockHTTP2Server.Response {
        .init(
            status: status, headers: [("apns-request-id", UUID().uuidString.lowercased())],
            body: #"{"reason":"\#(reason)"}"#)
    }

    /// The answer to a request whose credential APNs refuses, nil when it is accepted.
    private func refusedCredential(_ r: MockHTTP2Server.Request) -> MockHTTP2Server.Response? {
        // The TLS layer already verified a client certificate from the test CA.
        if certificateAuth, r.header("authorization") == nil { return nil }
        guard let auth = r.header("authorization"), auth.hasPrefix("bearer ") else {
            return reason(403, "MissingProviderToken")
        }
        if let why = verify(String(auth.dropFirst("bearer ".count))) {
            lock.withLock { _problems.append("provider token: \(why)") }
            return reason(403, "InvalidProviderToken")
        }
        return nil
    }

    /// The app's bundle id from `/prefix/<bundle id>[/suffix]`, or the refusal.
    private func bundle(_ path: String, prefix: String, suffixes: [String]) -> Result<String, MockHTTP2Server.Response>
    {
        guard path.hasPrefix(prefix) else { return .failure(reason(404, "BadPath")) }
        var rest = String(path.dropFirst(prefix.count))
        var matched = suffixes.isEmpty
        for s in suffixes where rest.hasSuffix(s) {
            rest = String(rest.dropLast(s.count))
            matched = true
            break
        }
        guard matched, !rest.isEmpty, !rest.contains("/") else { return .failure(reason(404, "BadPath")) }
        if rest.contains(".push-type.") || rest.hasSuffix(".voip") { return .failure(reason(400, "TopicDisallowed")) }
        guard rest == bundleId else { return .failure(reason(403, "TopicMismatch")) }
        return .success(rest)
    }

    private func storedChannel(_ r: MockHTTP2Server.Request) -> Result<
        (id: String, storage: Int), MockHTTP2Server.Response
    > {
        guard let id = r.header("apns-channel-id"), !id.isEmpty else {
            return .failure(reason(400, "MissingChannelId"))
        }
        guard Data(base64Encoded: id) != nil, id.utf8.count <= 64 else { return .failure(reason(400, "BadChannelId")) }
        guard let c = channels.first(where: { $0.id == id }) else {
            return .failure(reason(400, "ChannelNotRegistered"))
        }
        return .success(c)
    }

    // MARK: channel management

    private func answerManage(_ r: MockHTTP2Server.Request) -> MockHTTP2Server.Response? {
        let list = r.path.hasSuffix("/all-channels")
        switch bundle(r.path, prefix: "/1/apps/", suffixes: ["/all-channels", "/channels"]) {
        case .failure(let refusal): return refusal
        case .success: break
        }
        let allowed = list ? ["GET"] : ["POST", "DELETE", "GET"]
        guard allowed.contains(r.method) else { return reason(405, "MethodNotAllowed") }
        if let refusal = refusedCredential(r) { return refusal }
        guard broadcastEnabled else { return reason(400, "FeatureNotEnabled") }
        let requestId = [("apns-request-id", r.header("apns-request-id") ?? UUID().uuidString.lowercased())]
        if list {
            let body = try? JSONSerialization.data(withJSONObject: ["channels": channels.map(\.id)])
            return .init(
                status: 200, headers: requestId + [("content-type", "application/json")],
                body: String(decoding: body ?? Data(), as: UTF8.self))
        }
        switch r.method {
        case "POST":
            guard !r.body.isEmpty,
                let doc = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any]
            else { return reason(400, "BadRequestPayload") }
            guard Set(doc.keys).isSubset(of: ["message-storage-policy", "push-type"]) else {
                return reason(400, "BadRequestParams")
            }
            guard let type = doc["push-type"] as? String else { return reason(400, "MissingPushType") }
            guard type == "LiveActivity" else { return reason(400, "InvalidPushType") }
            guard let policy = doc["message-storage-policy"] as? Int, [0, 1].contains(policy) else {
                return reason(400, "BadRequestParams")
            }
            let id = lock.withLock { () -> String in
                let id = _nextId ?? Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
                _nextId = nil
                _channels[bundleId, default: []].append((id, policy))
                return id
            }
            return .init(status: 201, headers: requestId + [("apns-channel-id", id)])
        case "DELETE":
            switch storedChannel(r) {
            case .failure(let refusal): return refusal
            case .success(let c):
                lock.withLock { _channels[bundleId]?.removeAll { $0.id == c.id } }
                return .init(status: 204, headers: requestId)
            }
        default:  // GET one channel's configuration
            switch storedChannel(r) {
            case .failure(let refusal): return refusal
            case .success(let c):
                return .init(
                    status: 200, headers: requestId + [("content-type", "application/json")],
                    body: #"{"message-storage-policy":\#(c.storage),"push-type":"LiveActivity"}"#)
            }
        }
    }

    // MARK: broadcast

    private func answerBroadcast(_ r: MockHTTP2Server.Request) -> MockHTTP2Server.Response? {
        switch bundle(r.path, prefix: "/4/broadcasts/apps/", suffixes: []) {
        case .failure(let refusal): return refusal
        case .success: break
        }
        guard r.method == "POST" else { return reason(405, "MethodNotAllowed") }
        if let refusal = refusedCredential(r) { return refusal }
        guard broadcastEnabled else { return reason(400, "FeatureNotEnabled") }
        if r.header("apns-topic") != nil {
            lock.withLock { _problems.append("a broadcast carried apns-topic") }
            return reason(400, "BadRequestParams")
        }
        let channel: (id: String, storage: Int)
        switch storedChannel(r) {
        case .failure(let refusal): return refusal
        case .success(let c): channel = c
        }
        guard let type = r.header("apns-push-type") else { return reason(400, "MissingPushType") }
        guard type == "liveactivity" else { return reason(400, "InvalidPushType") }
        if let p = r.header("apns-priority"), !["10", "5", "1"].contains(p) { return reason(400, "BadPriority") }
        guard let e = Int(r.header("apns-expiration") ?? "0"), e >= 0 else {
            return reason(400, "BadExpirationDate")
        }
        if channel.storage == 0, e != 0 { return reason(400, "BadExpirationDate") }
        guard r.body.count <= 5120 else { return reason(413, "PayloadTooLarge") }
        guard !r.body.isEmpty else { return reason(400, "PayloadEmpty") }
        guard let doc = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any],
            doc["aps"] is [String: Any]
        else { return reason(400, "BadRequestPayload") }
        return .init(
            status: 200,
            headers: [
                ("apns-request-id", r.header("apns-request-id") ?? UUID().uuidString.lowercased()),
                ("apns-unique-id", UUID().uuidString.lowercased()),
            ])
    }
}

/// A refusal is the answer that ends a check (`Result`'s failure side).
extension MockHTTP2Server.Response: Error {}
