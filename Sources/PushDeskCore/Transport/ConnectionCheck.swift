import Foundation

/// `credentials check --online` (docs/SENDING.md): dns → tcp → tls → auth for one app, stopping at
/// the first step that fails; a step not run is not listed.
public struct OnlineStep: Sendable, Equatable {
    public var step: TransportError.Step
    public var ok: Bool
    public var ms: Int
    public var detail: String
    /// For a failed step: what to do.
    public var message: String?

    public var rule: String { step.rule.id }

    public var json: JSONValue {
        var m: [(String, JSONValue)] = [
            ("step", .string(step.rawValue)), ("ok", .bool(ok)), ("ms", .int(ms)), ("detail", .string(detail)),
        ]
        if !ok {
            m += [
                ("rule", .string(rule)), ("severity", .string(step.rule.severity.rawValue)),
                ("message", .string(message ?? detail)),
            ]
        }
        return .object(m)
    }

    public var finding: Finding? {
        ok ? nil : step.rule.finding(message ?? detail)
    }
}

public enum ConnectionCheck {
    /// The device token APNs is asked about: never a real device, so `BadDeviceToken` means
    /// the credential and topic were accepted.
    public static let apnsProbeToken = String(repeating: "0", count: 64)
    public static let fcmProbeToken = "pushdesk-connection-check"

    /// `offlineFinding` is the first credential error `credentials check` found for the app, if any.
    public static func run(
        app: MobileApp, sender: PushSender, offlineFinding: Finding?, onStep: (OnlineStep) -> Void = { _ in }
    ) -> [OnlineStep] {
        var steps: [OnlineStep] = []
        func add(_ s: OnlineStep) {
            steps.append(s)
            onStep(s)
        }
        let base: TransportSettings.Endpoint
        let environment: IOSEnvironment?
        switch app {
        case .ios(let a):
            base = a.environment == .sandbox ? sender.settings.apnsSandbox : sender.settings.apnsProduction
            environment = a.environment
        case .android(let a):
            if a.api == .legacy {
                add(
                    OnlineStep(
                        step: .auth, ok: false, ms: 0, detail: "legacy FCM API",
                        message:
                            "the legacy FCM API is shut down (fcm.legacy-api); move the app to FCM HTTP v1 with a service-account key"
                    ))
                return steps
            }
            base = sender.settings.fcm
            environment = nil
        }
        let credential = try? sender.credential(for: app).get()
        let proxy = sender.settings.proxy(for: base.host)
        let via = proxy.map { " via the proxy \($0.shown)" } ?? ""

        // dns, tcp, tls: one connection, as a send would open it (client certificate included).
        let connection: HTTP2Connection
        do {
            connection = try sender.connection(base, credential: credential) { step, ms in
                let detail: String
                switch step {
                case .dns: detail = "\(proxy?.host ?? base.host) resolves"
                case .tcp:
                    detail = "\(proxy.map { "\($0.host):\($0.port)" } ?? "\(base.host):\(base.port)") answers\(via)"
                case .tls: detail = "certificate of \(base.host) verified, ALPN h2 agreed"
                case .auth: detail = ""
                }
                add(OnlineStep(step: step, ok: true, ms: ms, detail: detail))
            }
        } catch let e as TransportError {
            add(
                OnlineStep(
                    step: e.step, ok: false, ms: 0, detail: e.timedOut ? "time-out" : "failed", message: e.message))
            return steps
        } catch {
            add(OnlineStep(step: .tls, ok: false, ms: 0, detail: "failed", message: "\(error)"))
            return steps
        }

        // auth
        let started = Date()
        func elapsed() -> Int { Int(Date().timeIntervalSince(started) * 1000) }
        guard let credential else {
            let f = offlineFinding
            let failure = sender.credentialFailure(for: app)
            let rule = f?.rule ?? failure?.rule ?? ServiceRules.authMissing.id
            add(
                OnlineStep(
                    step: .auth, ok: false, ms: 0, detail: "credential not usable (\(rule))",
                    message:
                        "the credential cannot be used: \(f?.message ?? failure?.message ?? "none") [\(rule)]; fix it first (pushdesk credentials check)"
                ))
            return steps
        }
        do {
            switch (app, credential) {
            case (.ios(let a), _):
                var headers: [(String, String)] = [
                    ("apns-push-type", "background"), ("apns-priority", "5"), ("apns-topic", a.bundleId),
                    ("content-type", "application/json"),
                ]
                if case .apnsToken(let keyId, let teamId, let key, _) = credential {
                    let t = try sender.apnsTokens.token(keyId: keyId, teamId: teamId, key: key, now: Date())
                    headers.append(("authorization", t.authorizationHeaderValue))
                }
                let response = try connection.request(
                    path: "/3/device/\(apnsProbeToken)", headers: headers,
                    body: Array(#"{"aps":{"content-available":1}}"#.utf8))
                let reason = APNsAnswer(response).reason
                if response.status == 400, reason == "BadDeviceToken" {
                    add(
                        OnlineStep(
                            step: .auth, ok: true, ms: elapsed(),
                            detail:
                                "credential and topic \(a.bundleId) accepted (400 BadDeviceToken for the probe token)"))
                } else {
                    let hint =
                        ResponseHints.apns(reason: reason, status: response.status, environment: environment) ?? ""
                    add(
                        OnlineStep(
                            step: .auth, ok: false, ms: elapsed(),
                            detail: "\(response.status) \(reason.map { Escape.inline($0) } ?? "")",
                            message:
                                "APNs refused the credential for \(a.bundleId) (\(response.status) \(reason.map { Escape.inline($0) } ?? "no reason")): \(hint)"
                        ))
                }
            case (.android, .fcm(let account)):
                let token = try sender.accessToken(account)
                let projectId: String
                if case .android(let a) = app, case .serviceAccount(let p, _, _)? = a.auth {
                    projectId = p
                } else {
                    projectId = account.projectId
                }
                let body = #"{"message":{"token":"\#(fcmProbeToken)"},"validate_only":true}"#
                let response = try connection.request(
                    path: "/v1/projects/\(projectId)/messages:send",
                    headers: [("content-type", "application/json"), ("authorization", token.authorizationHeaderValue)],
                    body: Array(body.utf8))
                let answer = FCMErrorAnswer(response.body)
                let code = answer.errorCode ?? answer.status
                if response.status == 400, answer.errorCode == "INVALID_ARGUMENT" {
                    add(
                        OnlineStep(
                            step: .auth, ok: true, ms: elapsed(),
                            detail:
                                "access token obtained; project \(Escape.inline(projectId)) accepted the service account (400 INVALID_ARGUMENT for the probe token)"
                        ))
                } else if response.status == 400, answer.errorCode == nil, answer.status == "INVALID_ARGUMENT" {
                    // FCM's answer to a request it could not read: it never got to the project
                    // or the account, so it proves neither.
                    add(
                        OnlineStep(
                            step: .auth, ok: false, ms: elapsed(),
                            detail: "400 INVALID_ARGUMENT without an FcmError errorCode",
                            message:
                                "FCM answered the probe for project \(Escape.inline(projectId)) with 400 INVALID_ARGUMENT but no FcmError errorCode: it took the request as malformed, which proves neither the project nor the service account; check that PUSHDESK_FCM_URL (if set) is FCM's v1 endpoint and that no proxy rewrites requests, then check again"
                        ))
                } else {
                    add(
                        OnlineStep(
                            step: .auth, ok: false, ms: elapsed(),
                            detail: "\(response.status) \(code.map { Escape.inline($0) } ?? "")",
                            message:
                                "FCM refused project \(Escape.inline(projectId)) for this service account (\(response.status) \(code.map { Escape.inline($0) } ?? "no error code")): \(ResponseHints.fcm(code: code, status: response.status) ?? "")"
                        ))
                }
            default:
                add(
                    OnlineStep(
                        step: .auth, ok: false, ms: 0, detail: "no usable credential", message: "no usable credential"))
            }
        } catch let f as CredentialFailure {
            add(OnlineStep(step: .auth, ok: false, ms: elapsed(), detail: f.rule, message: f.message))
        } catch let e as TransportError {
            add(
                OnlineStep(
                    step: .auth, ok: false, ms: elapsed(), detail: e.timedOut ? "time-out" : "failed",
                    message: e.message))
        } catch {
            add(OnlineStep(step: .auth, ok: false, ms: elapsed(), detail: "failed", message: "\(error)"))
        }
        return steps
    }
}

/// The parts of an FCM v1 error answer the check reads: `error.status` (the gRPC status) and
/// the `errorCode` of the `google.firebase.fcm.v1.FcmError` detail, when there is one.
struct FCMErrorAnswer {
    static let fcmErrorType = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
    var status: String?
    var errorCode: String?

    init(_ body: [UInt8]) {
        let error =
            ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["error"] as? [String: Any]
        status = error?["status"] as? String
        errorCode =
            (error?["details"] as? [[String: Any]])?.lazy.filter { $0["@type"] as? String == Self.fcmErrorType }
            .compactMap { $0["errorCode"] as? String }.first
    }
}
