import Foundation

/// The checks of `pushdesk listen` (docs/LISTEN.md, docs/RULES.md): one implementation each,
/// pure values over a request and the store's services. Every message says what to change
/// and where — the app's code or configuration, or the service.
public enum ListenRules {
    public static let registrationMalformed = Rule(
        "registration.malformed", .error, .listen,
        "a registration that is not form-encoded, lacks its token or key, or has unreadable additionalParams")
    public static let unknownKey = Rule(
        "registration.unknown-key", .error, .listen, "mobileAppUuid is no app's integration key")
    public static let platform = Rule(
        "registration.platform", .error, .listen, "a registration to the other platform's endpoint")
    public static let tokenFormat = Rule(
        "registration.token-format", .error, .listen, "the registration token does not fit the app's platform")
    public static let unknownParam = Rule(
        "registration.unknown-param", .warning, .listen,
        "additionalParams sends a name that is no subscription parameter of the app")
    public static let missingParam = Rule(
        "registration.missing-param", .info, .listen,
        "a subscription parameter of the app the registration did not send")
    public static let userKey = Rule(
        "registration.user-key", .info, .listen, "an empty userKey: the subscription stays anonymous")
    public static let fid = Rule(
        "registration.fid", .info, .listen, "an Android registration with a Firebase installation ID")
    public static let locale = Rule(
        "registration.locale", .info, .listen,
        "osLanguage is missing or no language tag: the device gets the default text")
    public static let trackingMalformed = Rule(
        "tracking.malformed", .error, .listen, "a tracking id that is not h<messageId>,<deliveryId>,<tag>")
    public static let unknownMessage = Rule(
        "tracking.unknown-message", .warning, .listen, "no send of the send log has the tracked messageId")
    public static let deliveryMismatch = Rule(
        "tracking.delivery-mismatch", .error, .listen, "the tracked _dId is not the one of the send's delivery")
    public static let otherPath = Rule(
        "listen.unknown-path", .warning, .listen, "a request to a path that is no Campaign endpoint")

    /// Every listen rule, in the order of docs/RULES.md.
    public static let all: [Rule] = [
        registrationMalformed, unknownKey, platform, tokenFormat, unknownParam, missingParam, userKey, fid, locale,
        trackingMalformed, unknownMessage, deliveryMismatch, otherPath,
    ]

    public static let registerIOSPath = "/nms/mobile/1/registerIOS.jssp"
    public static let registerAndroidPath = "/nms/mobile/1/registerAndroid.jssp"
    public static let trackingPath = "/r/"

    /// What a registration came to: its findings, the store's app it names, its parameters.
    public struct RegistrationCheck: Sendable {
        public var findings: [Finding] = []
        public var registration: Registration?
        public var app: MobileApp?
        public var service: String?
        public var params: [(name: String, value: String)]?
        public var hasErrors: Bool { findings.hasErrors }
    }

    /// The checks of one registration to `platform`'s endpoint.
    public static func checkRegistration(
        platform: Platform, contentType: String?, body: [UInt8], oversized: Int?, services: [Service]
    ) -> RegistrationCheck {
        var out = RegistrationCheck()
        if let oversized {
            out.findings.append(
                malformed(
                    "the body is \(oversized) bytes; a registration is at most \(ListenServer.maxBodyBytes) bytes — is the app posting something else to the registration endpoint?",
                    field: ""))
            return out
        }
        let type = (contentType ?? "").lowercased()
        guard type.hasPrefix("application/x-www-form-urlencoded"), let pairs = FormBody.decode(body) else {
            out.findings.append(
                malformed(
                    "the body is not form-encoded (content-type \(contentType.map { "\"\(Escape.inline($0))\"" } ?? "missing")): the Campaign SDKs post application/x-www-form-urlencoded — register through the SDK's registerDevice, not the app's own request",
                    field: ""))
            return out
        }
        let r = Registration(platform: platform, pairs: pairs)
        out.registration = r
        let sdkKey = platform == .ios ? "campaignclassic.ios.integrationKey" : "campaignclassic.android.integrationKey"
        if (r.token ?? "").isEmpty {
            out.findings.append(
                malformed(
                    "no registrationToken: the app registered before it had a push token; call registerDevice from \(platform == .ios ? "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)" : "FirebaseMessagingService.onNewToken")",
                    field: "registrationToken"))
        }
        if (r.integrationKey ?? "").isEmpty {
            out.findings.append(
                malformed(
                    "no mobileAppUuid: set \(sdkKey) in the app's Campaign configuration to the integration key of its app in the service",
                    field: "mobileAppUuid"))
        }
        if let xml = r.additionalParams, !xml.isEmpty {
            do { out.params = try AdditionalParams.parse(xml) } catch let e as AdditionalParams.ParamsError {
                out.findings.append(
                    malformed(
                        e.message
                            + " — pass the subscription parameters as a map to registerDevice; the SDK writes the XML",
                        field: "additionalParams"))
            } catch {}
        } else {
            out.params = []
        }
        guard !out.hasErrors, let token = r.token, let key = r.integrationKey else { return out }

        guard let found = services.lazy.compactMap({ s in s.app(integrationKey: key).map { (s, $0) } }).first else {
            var message =
                "mobileAppUuid \"\(Escape.inline(key))\" is no app's integration key in the store: set \(sdkKey) in the app's configuration to the key of its app in the service (pushdesk list), or add the app to the service"
            let folded = key.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if let near = services.lazy.flatMap({ s in s.apps.map { (s, $0) } }).first(where: {
                $0.1.integrationKey.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == folded
            }) {
                message +=
                    "; the store has \"\(Escape.inline(near.1.integrationKey))\" (service \(Escape.inline(near.0.name))), which differs only in case or surrounding spaces"
            }
            out.findings.append(Self.unknownKey.finding(message, field: "mobileAppUuid"))
            return out
        }
        let (service, app) = found
        out.app = app
        out.service = service.name
        let serviceFile = Service.path(service.name)
        if app.platform != platform {
            let endpoint = platform == .ios ? "registerIOS.jssp" : "registerAndroid.jssp"
            out.findings.append(
                Self.platform.finding(
                    "\(endpoint) was called with the integration key of the \(app.platform == .ios ? "iOS" : "Android") app \"\(Escape.inline(app.integrationKey))\" (service \(Escape.inline(service.name))): the \(platform == .ios ? "iOS" : "Android") build carries the other platform's key; set \(sdkKey) to the key of the service's \(platform == .ios ? "iOS" : "Android") app",
                    field: "mobileAppUuid"))
            return out
        }
        if ProfileRules.tokenProblem(token, platform: platform) != nil {
            let what =
                platform == .ios
                ? "registrationToken (\(token.count) characters) is not an APNs device token (an even number of hex digits, at least 64): the app must pass the deviceToken Data of didRegisterForRemoteNotificationsWithDeviceToken to registerDevice as hex, not its description or a base64 text"
                : "registrationToken is not an FCM registration token (empty, or holding white space or control characters): pass the token of FirebaseMessaging.getToken() / onNewToken unchanged"
            out.findings.append(Self.tokenFormat.finding(what, field: "registrationToken"))
        } else if platform == .android, ProfileRules.isFID(token) {
            // docs/SENDING.md: an app that opted in to installation IDs registers its FID.
            out.findings.append(
                Self.fid.finding(
                    "registrationToken is a Firebase installation ID (the app registers its FID): PushDesk saves it as kind=\"fid\" and sends to it with message.fid",
                    field: "registrationToken"))
        }
        let declared = app.subscriptionParams.map(\.name)
        for (name, _) in out.params ?? [] where !declared.contains(name) {
            out.findings.append(
                Self.unknownParam.finding(
                    "additionalParams sends \"\(Escape.inline(name))\", which is no subscription parameter of app \(Escape.inline(app.integrationKey)): Campaign does not collect it — add it to the app's subscription parameters in the service, or drop it from the app's registerDevice call",
                    file: serviceFile, field: FieldPath("additionalParams", name)))
        }
        let sent = Set((out.params ?? []).map(\.name))
        for p in app.subscriptionParams where !sent.contains(p.name) {
            out.findings.append(
                Self.missingParam.finding(
                    "the app did not send subscription parameter \"\(Escape.inline(p.name))\"\(p.label.isEmpty ? "" : " (\(Escape.inline(p.label)))"): add it to the additional parameters of the app's registerDevice call, or Campaign leaves \(Escape.inline(p.field)) empty",
                    file: serviceFile, field: FieldPath("additionalParams", p.name)))
        }
        if (r.userKey ?? "").isEmpty {
            out.findings.append(
                Self.userKey.finding(
                    "userKey is empty: the subscription stays anonymous (Campaign links it to no recipient); pass the signed-in user's key (e.g. the e-mail) to registerDevice",
                    field: "userKey"))
        }
        if r.locale == nil { out.findings.append(localeFinding(r.osLanguage)) }
        return out
    }

    /// `registration.locale`: which variant of a delivery the device gets is chosen by its
    /// language (docs/FORMATS.md, "Languages"); without one it gets the default.
    static func localeFinding(_ sent: String?) -> Finding {
        let what =
            sent.map {
                "osLanguage \"\(Escape.inline($0, limit: 48))\" is no language tag (language[-Script][-REGION], e.g. en-US, zh-Hans-CN; _ for - is fine)"
            }
            ?? "the registration sent no osLanguage"
        return Self.locale.finding(
            what
                + ": the device gets each delivery's default text, not the variant of its language; the Campaign SDKs send the device's locale — register through the SDK's registerDevice, or set the test device's language in its profile",
            field: "osLanguage")
    }

    static func malformed(_ message: String, field: FieldPath) -> Finding {
        Self.registrationMalformed.finding(message, field: field)
    }

    /// The checks of one tracking request: its hit (nil when malformed) and findings.
    public static func checkTracking(
        query: String?, send: (String) -> SendLogIndex.Send?, deliveryId: (String) -> String?
    ) -> (hit: TrackingHit?, send: SendLogIndex.Send?, findings: [Finding]) {
        let id = TrackingHit.idParameter(query: query)
        guard let id, let hit = TrackingHit(id: id) else {
            return (
                nil, nil,
                [
                    Self.trackingMalformed.finding(
                        "id \(id.map { "\"\(Escape.inline($0))\"" } ?? "is missing"); a tracking request is /r/?id=h<messageId>,<deliveryId>,<tag> with tag 1 (received) or 2 (clicked): pass the push's _mId and _dId unchanged to trackNotificationReceive / trackNotificationClick",
                        field: "id")
                ]
            )
        }
        guard let s = send(hit.messageId) else {
            return (
                hit, nil,
                [
                    Self.unknownMessage.finding(
                        "no send in \(SendLog.relativePath) has _mId \(Escape.inline(hit.messageId)): a push PushDesk did not send, or the app changes _mId before tracking — pass the push's _mId unchanged",
                        field: "id")
                ]
            )
        }
        if let expected = deliveryId(s.delivery), expected.lowercased() != hit.deliveryId.lowercased() {
            return (
                hit, s,
                [
                    Self.deliveryMismatch.finding(
                        "the send with this _mId was delivery \(Escape.inline(s.delivery)) with _dId \(Escape.inline(expected)); the app reported _dId \(Escape.inline(hit.deliveryId)) — pass the push's _dId unchanged",
                        field: "id")
                ]
            )
        }
        return (hit, s, [])
    }

    /// Any other path.
    public static func unknownPath(_ path: String) -> Finding {
        Self.otherPath.finding(
            "no Campaign endpoint at \(Escape.inline(path)): PushDesk answers \(registerIOSPath), \(registerAndroidPath) and /r/?id=…; an app calling this may still point at a Campaign Standard endpoint, or its marketingServer / trackingServer setting holds a path",
            field: "path")
    }
}
