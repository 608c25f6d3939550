import Foundation
import NIOSSL

/// Sends a plan's requests (docs/SENDING.md): reads credentials, signs provider tokens, gets
/// Google access tokens, keeps one connection per host and credential, retries as pinned,
/// and turns answers into outcomes with hints. Blocking: call it off any input loop;
/// `cancellation` stops it from another thread (a connection check uses the same handle).
public final class PushSender: @unchecked Sendable {
    public let settings: TransportSettings
    public let storeRoot: URL
    let secrets: SecretStore
    public let apnsTokens = APNsTokenCache()
    public let googleTokens = GoogleTokenCache()
    private var connections: [String: HTTP2Connection] = [:]
    private var credentials: [String: Result<PushCredential, CredentialFailure>] = [:]
    /// Waits between attempts (tests may pass a recording clock); by default a cancel ends it.
    let sleep: @Sendable (TimeInterval) -> Void
    /// Cancels the sender's waits and closes its connections (the console's Esc).
    public let cancellation: TransportCancellation
    let now: @Sendable () -> Date
    /// Progress while waiting (stderr on a terminal, the console's status line).
    public var progress: (@Sendable (String) -> Void)?

    public init(
        settings: TransportSettings, storeRoot: URL, environment: [String: String],
        sleep: (@Sendable (TimeInterval) -> Void)? = nil, now: @escaping @Sendable () -> Date = { Date() },
        cancellation: TransportCancellation = TransportCancellation()
    ) {
        self.cancellation = cancellation
        self.settings = settings
        self.storeRoot = storeRoot
        self.secrets = SecretStore(storeRoot: storeRoot, environment: environment)
        self.sleep = sleep ?? { cancellation.sleep($0) }
        self.now = now
    }

    deinit { for c in connections.values { c.close() } }

    public func closeAll() {
        for c in connections.values { c.close() }
        connections = [:]
    }

    /// Sends every item of a plan that is not blocked. A blocked plan sends nothing.
    public func send(_ plan: SendPlan, dryRun: Bool, onResult: (SendResult) -> Void = { _ in }) -> SendReport {
        var report = SendReport(delivery: plan.delivery, service: plan.service, dryRun: dryRun)
        guard !plan.isBlocked else {
            report.blocked = plan.blocked
            return report
        }
        for item in plan.items {
            let r = send(item, dryRun: dryRun)
            onResult(r)
            report.results.append(r)
        }
        return report
    }

    // MARK: one target

    func endpoint(for item: SendPlan.Item) -> (TransportSettings.Endpoint, String) {
        let base: TransportSettings.Endpoint
        switch item.app {
        case .ios(let a) where item.channel != nil:
            base = a.environment == .sandbox ? settings.apnsBroadcastSandbox : settings.apnsBroadcastProduction
        case .ios(let a): base = a.environment == .sandbox ? settings.apnsSandbox : settings.apnsProduction
        case .android: base = settings.fcm
        }
        // The path as previewed: everything after the default host.
        let e = item.target.endpoint
        var path = "/"
        if let scheme = e.range(of: "://"), let slash = e[scheme.upperBound...].firstIndex(of: "/") {
            path = String(e[slash...])
        }
        return (base, path)
    }

    func send(_ item: SendPlan.Item, dryRun: Bool) -> SendResult {
        let t = item.target
        let (base, path) = endpoint(for: item)
        var r = SendResult(
            app: t.app, platform: t.platform, api: t.api.rawValue, profile: item.profile, device: item.device,
            token: item.token, channel: item.channel, endpoint: base.baseURL + path, messageId: item.messageId,
            timestamp: item.timestamp,
            bytes: t.bytes)
        r.locale = t.locale
        if cancellation.isCancelled {
            r.outcome = .skipped
            r.reason = "cancelled"
            r.hint = "the send was cancelled before this target: nothing was sent to it"
            return r
        }
        if let skip = item.skip {
            r.outcome = .skipped
            r.reason = skip.reason
            r.hint = skip.hint
            return r
        }
        if t.api == .legacy {
            r.outcome = .skipped
            r.reason = CredentialRules.fcmLegacyAPI.id
            r.hint = "Google shut the legacy FCM API down in 2024; move the app to FCM HTTP v1 (a service-account key)"
            return r
        }
        let credential: PushCredential
        switch self.credential(for: item.app) {
        case .success(let c): credential = c
        case .failure(let f):
            r.outcome = .failed
            r.reason = f.rule
            r.hint = f.message + " (pushdesk credentials check)"
            return r
        }
        // A certificate pushes only to the topics it lists (docs/PAYLOADS.md, type.certificate-topic).
        if case .apnsCertificate(let chain, _, _) = credential, let topic = t.header("apns-topic"),
            let der = try? chain.first?.toDERBytes(), let info = try? CertificateInfo(derEncoded: der),
            let problem = DeliveryRules.certificateTopicProblem(
                topic: topic, apnsPushType: t.header("apns-push-type") ?? "", topics: info.topics)
        {
            r.outcome = .failed
            r.reason = DeliveryRules.typeCertificateTopic.id
            r.hint = problem
            return r
        }
        var body = t.payload
        if dryRun, t.platform == .android, case .object(var m) = body {
            m.append(("validate_only", .bool(true)))
            body = .object(m)
        }
        let bytes = body.compactBytes
        var headers = t.headers.map { ($0.name, $0.value) }
        headers.append(("content-type", "application/json"))
        var expiredRetried = false
        var apnsToken: APNsProviderToken?

        while r.attempts < RetryPolicy.maxAttempts {
            if cancellation.isCancelled, r.attempts > 0 {  // during a retry's back-off
                r.outcome = .failed
                r.hint = (r.hint ?? "") + " (cancelled before attempt \(r.attempts + 1))"
                return r
            }
            // Authorization for this attempt.
            var auth: String?
            do {
                switch credential {
                case .apnsToken(let keyId, let teamId, let key, _):
                    let tok = try apnsTokens.token(
                        keyId: keyId, teamId: teamId, key: key, now: now(), expired: expiredRetried ? apnsToken : nil)
                    apnsToken = tok
                    auth = tok.authorizationHeaderValue
                case .fcm(let account):
                    auth = try accessToken(account).authorizationHeaderValue
                case .apnsCertificate: auth = nil
                }
            } catch let f as CredentialFailure {
                if case .fcm = credential { r.madeRequest = true }  // the token endpoint answered
                r.outcome = .failed
                r.reason = f.rule
                r.hint = f.message
                return r
            } catch let e as TransportError {
                r.madeRequest = true
                r.outcome = .failed
                r.reason = e.step.rule.id
                r.hint = "Google's token endpoint: \(e.message)"
                return r
            } catch {
                r.outcome = .failed
                r.reason = CredentialRules.tokenKey.id
                r.hint = "the key cannot sign a token"
                return r
            }
            if dryRun, t.platform == .ios {
                r.outcome = .skipped
                r.reason = "apns.no-dry-run"
                r.hint = "APNs has no dry run: the credential was read and a provider token signed; nothing was sent"
                return r
            }
            var attemptHeaders = headers
            if let auth { attemptHeaders.append(("authorization", auth)) }

            r.attempts += 1
            r.madeRequest = true
            let started = Date()
            let response: HTTPResponse
            do {
                let c = try connection(base, credential: credential)
                response = try c.request(path: path, headers: attemptHeaders, body: bytes)
            } catch let e as TransportError {
                r.ms = Int(Date().timeIntervalSince(started) * 1000)
                r.outcome = .failed
                r.reason = e.step.rule.id
                r.hint = e.message
                dropConnection(base, credential: credential)
                return r
            } catch {
                r.outcome = .failed
                r.reason = ConnectionRules.tls.id
                r.hint = "\(error)"
                return r
            }
            r.ms = Int(Date().timeIntervalSince(started) * 1000)
            r.status = response.status
            interpret(response, item: item, dryRun: dryRun, into: &r)
            if response.status == 200 { return r }

            if t.platform == .ios, response.status == 403, r.reason == "ExpiredProviderToken" {
                if expiredRetried || r.attempts >= RetryPolicy.maxAttempts {
                    r.outcome = .rejected
                    return r
                }
                expiredRetried = true
                continue  // at once, with a newly signed token
            }
            if RetryPolicy.isRetryable(status: response.status) {
                if r.attempts >= RetryPolicy.maxAttempts {
                    r.outcome = .failed
                    r.hint = (r.hint ?? "") + " (retries used up: \(r.attempts) attempts)"
                    return r
                }
                let wait = RetryPolicy.delay(
                    afterAttempt: r.attempts, retryAfter: response.header("retry-after"),
                    quotaExceeded: r.reason == "QUOTA_EXCEEDED", now: now(), jitter: Double.random(in: -1...1))
                progress?(
                    "\(Escape.inline(t.app)): \(response.status) \(Escape.inline(r.reason ?? "")) — attempt \(r.attempts + 1) of \(RetryPolicy.maxAttempts) in \(String(format: "%.1f", wait)) s"
                )
                sleep(wait)
                continue
            }
            r.outcome = (400...499).contains(response.status) ? .rejected : .failed
            return r
        }
        return r
    }

    /// Outcome fields from an answer: ids, reason as given, hint.
    func interpret(_ response: HTTPResponse, item: SendPlan.Item, dryRun: Bool, into r: inout SendResult) {
        switch item.app {
        case .ios(let a):
            let answer = APNsAnswer(response)
            r.apnsId = answer.apnsId
            r.apnsUniqueId = answer.apnsUniqueId
            if response.status == 200 {
                r.outcome = .sent
                r.reason = nil
                r.hint = nil
                return
            }
            r.reason = answer.reason
            r.hint = ResponseHints.apns(
                reason: r.reason, status: response.status, environment: a.environment,
                endpoint: item.channel == nil ? .device : .channels)
            if let since = answer.timestamp {
                r.hint = (r.hint ?? "") + " (inactive since \(ISOTime.string(since)))"
            }
        case .android:
            let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
            if response.status == 200 {
                r.outcome = dryRun ? .validated : .sent
                r.messageName = json?["name"] as? String
                r.reason = nil
                r.hint = nil
                return
            }
            let error = json?["error"] as? [String: Any]
            let details = error?["details"] as? [[String: Any]] ?? []
            let code = details.lazy.compactMap { $0["errorCode"] as? String }.first
            r.reason = code ?? (error?["status"] as? String)
            r.hint = ResponseHints.fcm(code: r.reason, status: response.status, fid: item.isFID)
            if let message = error?["message"] as? String, !message.isEmpty {
                r.hint = (r.hint ?? "") + " — FCM: \(message)"
            }
        }
    }

    // MARK: credentials, tokens, connections

    func credential(for app: MobileApp) -> Result<PushCredential, CredentialFailure> {
        if let c = credentials[app.integrationKey] { return c }
        let c: Result<PushCredential, CredentialFailure>
        do { c = .success(try CredentialLoader.load(app, storeRoot: storeRoot, secrets: secrets)) } catch let f
            as CredentialFailure
        {
            c = .failure(f)
        } catch { c = .failure(CredentialFailure(rule: "credential.unreadable", message: "\(error)")) }
        credentials[app.integrationKey] = c
        return c
    }

    func tlsConfiguration(_ credential: PushCredential?) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.applicationProtocols = ["h2"]
        tls.certificateVerification = .fullVerification
        tls.minimumTLSVersion = .tlsv12
        if !settings.systemTrust { tls.trustRoots = .certificates([]) }
        if let ca = settings.caFile { tls.additionalTrustRoots = [.file(ca)] }
        if case .apnsCertificate(let chain, let key, _)? = credential {
            tls.certificateChain = chain.map { .certificate($0) }
            tls.privateKey = .privateKey(key)
        }
        return tls
    }

    func credentialFailure(for app: MobileApp) -> CredentialFailure? {
        if case .failure(let f) = credential(for: app) { return f }
        return nil
    }

    func connection(
        _ base: TransportSettings.Endpoint, credential: PushCredential?, purpose: String = "",
        onStep: (TransportError.Step, Int) -> Void = { _, _ in }
    ) throws -> HTTP2Connection {
        let key = "\(base.host):\(base.port)|\(credential?.identity ?? purpose)"
        if let c = connections[key], c.isOpen { return c }
        let c = try HTTP2Connection.connect(
            host: base.host, port: base.port, tls: tlsConfiguration(credential), settings: settings,
            cancellation: cancellation, onStep: onStep)
        connections[key] = c
        return c
    }

    func dropConnection(_ base: TransportSettings.Endpoint, credential: PushCredential?) {
        let key = "\(base.host):\(base.port)|\(credential?.identity ?? "")"
        connections.removeValue(forKey: key)?.close()
    }

    /// The access token for `account`, from the cache or a new grant at its `token_uri`.
    func accessToken(_ account: GoogleServiceAccountKey) throws -> GoogleAccessToken {
        if let t = googleTokens.cached(account, now: now()) { return t }
        guard let u = URLComponents(string: account.tokenURI), u.scheme == "https", let host = u.host else {
            throw CredentialFailure(
                rule: CredentialRules.serviceAccountFields.id,
                message: "\(account.file): token_uri is not an https URL")
        }
        let assertion = try GoogleTokenCache.assertion(account, now: now())
        let form =
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="
            + assertion.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._")))!
        let base = TransportSettings.Endpoint(host: host, port: u.port ?? 443)
        let c = try connection(base, credential: nil, purpose: "oauth")
        let started = now()
        let response = try c.request(
            path: u.percentEncodedPath.isEmpty ? "/" : u.percentEncodedPath,
            headers: [("content-type", "application/x-www-form-urlencoded")], body: Array(form.utf8))
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard response.status == 200, let value = json?["access_token"] as? String, !value.isEmpty else {
            let error = (json?["error"] as? String).map { Escape.inline($0, limit: 80) } ?? "HTTP \(response.status)"
            let why = (json?["error_description"] as? String).map { ": " + Escape.inline($0, limit: 200) } ?? ""
            throw CredentialFailure(
                rule: error,
                message:
                    "Google's token endpoint refused the service account (\(error)\(why)); check the key is not deleted or disabled in the Google Cloud console and the machine's clock is right"
            )
        }
        let seconds = (json?["expires_in"] as? Double) ?? (json?["expires_in"] as? Int).map(Double.init) ?? 3600
        let token = GoogleAccessToken(value: value, expires: started.addingTimeInterval(seconds))
        googleTokens.store(token, for: account)
        return token
    }
}
