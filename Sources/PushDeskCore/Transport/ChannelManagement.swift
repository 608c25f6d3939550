import Foundation

/// One call of Apple's channel management API (docs/SENDING.md).
public enum ChannelRequest: Sendable, Equatable {
    /// `GET /1/apps/<bundle id>/all-channels`.
    case list
    /// `POST /1/apps/<bundle id>/channels` with the storage policy.
    case create(ChannelStorage)
    /// `DELETE /1/apps/<bundle id>/channels` with `apns-channel-id`.
    case delete(id: String)

    var method: String {
        switch self {
        case .list: "GET"
        case .create: "POST"
        case .delete: "DELETE"
        }
    }

    func path(bundleId: String) -> String {
        let bundle = bundleId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? bundleId
        if case .list = self { return "/1/apps/\(bundle)/all-channels" }
        return "/1/apps/\(bundle)/channels"
    }

    /// The status Apple answers a success with.
    var success: Int {
        switch self {
        case .list: 200
        case .create: 201
        case .delete: 204
        }
    }
}

/// What Apple answered a channel management call: the outcome as `send` names them (`sent`
/// for done), the reason and hint from the channel table (docs/SENDING.md), and what the call returns.
public struct ChannelAnswer: Sendable, Equatable {
    public var endpoint: String
    public var outcome: SendOutcome = .failed
    public var status: Int?
    public var reason: String?
    public var hint: String?
    /// `apns-request-id` of the answer.
    public var apnsId: String?
    /// The new channel's id (`create`), as Apple gave it: untrusted until checked and escaped.
    public var channelId: String?
    /// Apple's channel ids (`list`), as given.
    public var channels: [String] = []
    public var attempts = 0

    /// `send`'s exit rule (docs/SENDING.md): 0 done, 1 refused, 2 no answer (or retries used up).
    public var exitCode: Int32 {
        switch outcome {
        case .sent, .validated, .skipped: 0
        case .rejected: 1
        case .failed: 2
        }
    }
}

extension PushSender {
    /// The channel management host of the app's environment.
    func manageEndpoint(_ app: IOSApp) -> TransportSettings.Endpoint {
        app.environment == .sandbox ? settings.apnsManageSandbox : settings.apnsManageProduction
    }

    /// Calls Apple's channel management API for `app` with its credential (token auth: the
    /// provider token every request of the run shares; certificate auth: the client
    /// certificate), retrying as `send` does (docs/SENDING.md). Blocking.
    public func manageChannels(_ request: ChannelRequest, app: IOSApp) -> ChannelAnswer {
        let base = manageEndpoint(app)
        let path = request.path(bundleId: app.bundleId)
        var a = ChannelAnswer(endpoint: base.baseURL + path)
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        switch request {
        case .list: break
        case .create(let storage):
            headers.append(("content-type", "application/json"))
            body = Array(
                JSONValue.object([
                    ("message-storage-policy", .int(storage.policy)), ("push-type", .string("LiveActivity")),
                ]).compactBytes)
        case .delete(let id): headers.append(("apns-channel-id", id))
        }
        let exchange = apnsExchange(
            app: .ios(app), base: base, method: request.method, path: path, headers: headers, body: body)
        a.attempts = exchange.attempts
        guard let response = exchange.response else {
            a.outcome = .failed
            a.reason = exchange.failure?.reason
            a.hint = exchange.failure?.hint
            return a
        }
        let answer = APNsAnswer(response)
        a.status = response.status
        a.apnsId = answer.apnsId
        if response.status == request.success {
            a.outcome = .sent
            switch request {
            case .create: a.channelId = response.header("apns-channel-id")
            case .list:
                let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
                a.channels = (json?["channels"] as? [Any] ?? []).compactMap { $0 as? String }
            case .delete: break
            }
            return a
        }
        a.reason = answer.reason
        a.hint = ResponseHints.apns(
            reason: answer.reason, status: response.status, environment: app.environment, endpoint: .channels)
        a.outcome =
            (400...499).contains(response.status) && !RetryPolicy.isRetryable(status: response.status)
            ? .rejected : .failed
        if exchange.retriesUsedUp { a.hint = (a.hint ?? "") + " (retries used up: \(a.attempts) attempts)" }
        return a
    }

    /// One APNs request with the app's credential, retried as docs/SENDING.md, "Retries", says: `ExpiredProviderToken`
    /// once at once with a new token, 429 and 5xx after a back-off, nothing else. The answer
    /// is the last one; `failure` says why there is none (credential, connection, cancel).
    func apnsExchange(
        app: MobileApp, base: TransportSettings.Endpoint, method: String, path: String, headers: [(String, String)],
        body: [UInt8]
    ) -> (response: HTTPResponse?, attempts: Int, failure: (reason: String, hint: String)?, retriesUsedUp: Bool) {
        let credential: PushCredential
        switch self.credential(for: app) {
        case .success(let c): credential = c
        case .failure(let f): return (nil, 0, (f.rule, f.message + " (pushdesk credentials check)"), false)
        }
        var attempts = 0
        var expiredRetried = false
        var apnsToken: APNsProviderToken?
        var last: HTTPResponse?
        while attempts < RetryPolicy.maxAttempts {
            if cancellation.isCancelled {
                return (last, attempts, last == nil ? ("cancelled", "cancelled before the request") : nil, false)
            }
            var attemptHeaders = headers
            if case .apnsToken(let keyId, let teamId, let key, _) = credential {
                do {
                    let tok = try apnsTokens.token(
                        keyId: keyId, teamId: teamId, key: key, now: now(), expired: expiredRetried ? apnsToken : nil)
                    apnsToken = tok
                    attemptHeaders.append(("authorization", tok.authorizationHeaderValue))
                } catch let f as CredentialFailure {
                    return (nil, attempts, (f.rule, f.message), false)
                } catch {
                    return (nil, attempts, (CredentialRules.tokenKey.id, "the key cannot sign a token"), false)
                }
            }
            attempts += 1
            let response: HTTPResponse
            do {
                let c = try connection(base, credential: credential)
                response = try c.request(method: method, path: path, headers: attemptHeaders, body: body)
            } catch let e as TransportError {
                dropConnection(base, credential: credential)
                return (nil, attempts, ("connection.\(e.step.rawValue)", e.message), false)
            } catch {
                return (nil, attempts, ("connection.tls", "\(error)"), false)
            }
            last = response
            if response.status == 403, APNsAnswer(response).reason == "ExpiredProviderToken", !expiredRetried,
                attempts < RetryPolicy.maxAttempts
            {
                expiredRetried = true
                continue
            }
            guard RetryPolicy.isRetryable(status: response.status) else { return (response, attempts, nil, false) }
            if attempts >= RetryPolicy.maxAttempts { return (response, attempts, nil, true) }
            let wait = RetryPolicy.delay(
                afterAttempt: attempts, retryAfter: response.header("retry-after"), quotaExceeded: false, now: now(),
                jitter: Double.random(in: -1...1))
            progress?(
                "\(Escape.inline(app.integrationKey)): \(response.status) — attempt \(attempts + 1) of \(RetryPolicy.maxAttempts) in \(String(format: "%.1f", wait)) s"
            )
            sleep(wait)
        }
        return (last, attempts, nil, false)
    }
}

extension PushSession {
    /// Apple's channel management API for one iOS app (docs/SENDING.md).
    public func manageChannels(_ request: ChannelRequest, app: IOSApp) -> ChannelAnswer {
        sender.manageChannels(request, app: app)
    }
}
