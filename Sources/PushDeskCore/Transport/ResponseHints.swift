/// Which APNs table an answer is read against: the device endpoint (`/3/device/…`) or the
/// channel management and broadcast endpoints, which share one table of their own where
/// several reasons mean something else (`BadExpirationDate`, `TopicDisallowed`, …).
public enum APNsEndpoint: Sendable {
    case device
    case channels
}

/// What to do about each answer APNs and FCM document (docs/SENDING.md): one table, used by
/// `pushdesk send`, `credentials check --online` and the console. Written from Apple's
/// "Handling notification responses from APNs" (the device endpoint's reasons) and
/// "Handling error responses from Apple Push Notification service" (the channel management
/// and broadcast endpoints' reasons), and Firebase's `ErrorCode` reference (FCM HTTP v1),
/// plus the `google.rpc` statuses FCM answers with when there is no `errorCode` (401, 403,
/// 404). docs/SENDING.md prints these tables.
public enum ResponseHints {
    /// The priorities each push type allows, from its row (docs/PAYLOADS.md).
    static let badPriority =
        "apns-priority is not one this push type allows ("
        + PushType.all.map { "\($0.name) \($0.priorities.map(\.rawValue).joined(separator: ", "))" }.joined(
            separator: "; ") + "); fix the delivery's iOS priority"
    /// The payload limits of the push types, from their rows: 4096 bytes, and the others by type.
    static let payloadTooLarge =
        "the payload is over the push type's limit (4096 bytes"
        + PushType.all.filter { $0.sizeLimit != 4096 }.map { "; \($0.sizeLimit) for \($0.name)" }.joined()
        + "); shorten the text or variables (pushdesk preview shows the size and the limit)"

    /// APNs device endpoint `reason` → (status Apple gives, hint).
    public static let apns: [(reason: String, status: Int, hint: String)] = [
        (
            "BadCollapseId", 400,
            "the collapse id is over 64 bytes; shorten collapseId in the delivery's iOS options"
        ),
        (
            "BadDeviceToken", 400,
            "the token is not a device token of this app in this environment: check it was copied whole; a token from a TestFlight or App Store build needs the production app, one from an Xcode build the sandbox app"
        ),
        (
            "BadExpirationDate", 400,
            "apns-expiration is not a UNIX time APNs accepts; fix the delivery's expiration (ISO 8601 UTC)"
        ),
        ("BadMessageId", 400, "the apns-id header is not a UUID; this is a PushDesk bug, please report it"),
        ("BadPriority", 400, badPriority),
        (
            "BadTopic", 400,
            "apns-topic is not valid; set the app's bundle id exactly as in Xcode, without a suffix — PushDesk adds the push type's (.voip, .push-type.liveactivity, …)"
        ),
        (
            "DeviceTokenNotForTopic", 400,
            "the token belongs to another app: the bundle id of the app does not match the app that registered this token; fix bundleId or use a token of this app"
        ),
        ("DuplicateHeaders", 400, "a header was sent twice; this is a PushDesk bug, please report it"),
        ("IdleTimeout", 400, "APNs closed an idle connection; send again"),
        (
            "InvalidPushType", 400,
            "apns-push-type is not valid for this request; check the delivery's iOS type, and that the token is of the kind that type needs (pushdesk preview shows the headers)"
        ),
        ("MissingDeviceToken", 400, "no device token in the path; give --token or a subscription token"),
        (
            "MissingTopic", 400,
            "apns-topic is required (certificates with several topics, and token auth); set the app's bundle id"
        ),
        ("PayloadEmpty", 400, "the payload was empty; give the delivery a title or body, or make it silent"),
        (
            "TopicDisallowed", 400,
            "pushing to this topic is not allowed: enable Push Notifications for this bundle id in the Apple developer account, or use a key/certificate of the team that owns it; a topic-specific key must list this bundle id (the app's keyTopics say which it was made for)"
        ),
        (
            "BadCertificate", 403,
            "APNs refused the client certificate; export the APNs certificate and its key again as .p12 from the developer account"
        ),
        (
            "BadCertificateEnvironment", 403,
            "the certificate is for the other environment: a development certificate goes with the sandbox app, a production one with the production app"
        ),
        (
            "ExpiredProviderToken", 403,
            "the provider token is older than an hour; PushDesk signs a new one and retries once — if it persists, check the machine's clock (timedatectl)"
        ),
        (
            "Forbidden", 403,
            "APNs does not allow this action for this credential; check the key or certificate is enabled for APNs in the developer account"
        ),
        (
            "InvalidProviderToken", 403,
            "the token's signature, Key ID or Team ID is not accepted: check keyId and teamId against the developer account (Keys, Membership) and that the .p8 is that key's, and not revoked; a key limited to one environment or to some topics is refused elsewhere (check keyEnvironment and keyTopics; pushdesk credentials check-jwt checks a token offline)"
        ),
        (
            "MissingProviderToken", 403,
            "no provider token and no client certificate: give the app token auth (.p8) or certificate auth (.p12)"
        ),
        (
            "UnrelatedKeyIdInToken", 403,
            "the token's Key ID is not the one first used on this connection (APNs ties a connection to its first key): give apps that share a bundle id and environment the same key (keyId and .p8), then send again"
        ),
        (
            "BadEnvironmentKeyIdInToken", 403,
            "the key is not enabled for this app's environment: in the developer account (Keys), allow the key for sandbox, production or both, or give the app a key of its environment — and set the app's keyEnvironment to what the key allows, so the offline check (token.environment) catches it"
        ),
        ("BadPath", 404, "the request path is not /3/device/<token>; check the endpoint set in PUSHDESK_APNS_*_URL"),
        ("MethodNotAllowed", 405, "APNs accepts POST only; check the endpoint set in PUSHDESK_APNS_*_URL"),
        (
            "ExpiredToken", 410,
            "the device token has expired; the app must register again and send its new token — remove this one"
        ),
        (
            "Unregistered", 410,
            "the token is no longer active for this topic (the app was removed, or notifications turned off); stop sending to it — the timestamp says since when"
        ),
        ("PayloadTooLarge", 413, payloadTooLarge),
        (
            "TooManyProviderTokenUpdates", 429,
            "provider tokens were renewed too often; PushDesk renews at most every 20 minutes — another sender may share this key"
        ),
        ("TooManyRequests", 429, "too many requests to this device token; wait before sending to it again"),
        ("InternalServerError", 500, "APNs had an internal error; PushDesk retried — try again later"),
        ("ServiceUnavailable", 503, "APNs is unavailable; PushDesk retried — try again later"),
        ("Shutdown", 503, "the APNs server is shutting down; PushDesk retried — send again"),
    ]

    /// APNs channel management and broadcast endpoints' `reason` → (status Apple gives, hint).
    /// Their answers name the request `apns-request-id` (read as `apnsId`, see `APNsAnswer`).
    public static let apnsChannels: [(reason: String, status: Int, hint: String)] = [
        (
            "FeatureNotEnabled", 400,
            "broadcast is not enabled for this bundle id: in the developer account (Certificates, IDs & Profiles > Identifiers > the app's id), enable Broadcast Capability under Push Notifications"
        ),
        ("MissingChannelId", 400, "the apns-channel-id header was missing; this is a PushDesk bug, please report it"),
        (
            "BadChannelId", 400,
            "the channel id is not valid base64 or is too long; fix the channel's id in the app's channels (pushdesk channels list shows Apple's ids)"
        ),
        (
            "ChannelNotRegistered", 400,
            "Apple has no channel with this id in this environment (deleted, or created for the other environment); run pushdesk channels list, then remove the channel or create a new one"
        ),
        (
            "BadRequestParams", 400,
            "the request body had an attribute Apple does not know; this is a PushDesk bug, please report it"
        ),
        (
            "BadRequestPayload", 400,
            "Apple could not parse the JSON body; check the Live Activity's content state and attributes (pushdesk preview --channel shows the body) — if they are valid, report a PushDesk bug"
        ),
        ("PayloadEmpty", 400, "the broadcast had no payload; give the Live Activity delivery a content state"),
        ("BadMessageId", 400, "the apns-id header is not a UUID; this is a PushDesk bug, please report it"),
        ("MissingPushType", 400, "the apns-push-type header was missing; this is a PushDesk bug, please report it"),
        (
            "InvalidPushType", 400,
            "channels carry Live Activities only: broadcast a delivery of iOS type liveactivity, to a channel created with push type LiveActivity"
        ),
        (
            "CannotCreateChannelConfig", 400,
            "the app has as many channels as Apple allows; delete channels no longer used (pushdesk channels list, then channels delete) and create again"
        ),
        (
            "BadExpirationDate", 400,
            "apns-expiration is not a UNIX time, or not 0 on a channel that stores no messages (storage none): remove the delivery's expiration, or use a channel with storage mostRecent"
        ),
        (
            "TopicDisallowed", 400,
            "the bundle id in the path is not allowed: set the app's bundleId without a push type suffix (no .push-type.liveactivity)"
        ),
        (
            "BadPriority", 400,
            "apns-priority is not one a broadcast accepts; set the delivery's iOS priority to 10 or 5"
        ),
        (
            "BadCertificate", 403,
            "APNs refused the client certificate; export the APNs certificate and its key again as .p12 from the developer account"
        ),
        (
            "BadCertificateEnvironment", 403,
            "the certificate is for the other environment: a development certificate goes with the sandbox app, a production one with the production app"
        ),
        (
            "TopicMismatch", 403,
            "the key or certificate does not cover this bundle id: use a key of the team that owns bundleId, or a certificate issued for it (pushdesk credentials check shows its topics)"
        ),
        (
            "MissingProviderToken", 403,
            "no provider token and no client certificate: give the app token auth (.p8) or certificate auth (.p12)"
        ),
        (
            "ExpiredProviderToken", 403,
            "the provider token had expired; send again (PushDesk signs a new one) — if it persists, check the machine's clock (timedatectl)"
        ),
        (
            "InvalidProviderToken", 403,
            "the token's signature, Key ID or Team ID is not accepted: check keyId and teamId against the developer account (Keys, Membership) and that the .p8 is that key's, and not revoked"
        ),
        (
            "BadPath", 404,
            "the URL is not one of Apple's channel or broadcast paths; check PUSHDESK_APNS_MANAGE_*_URL and PUSHDESK_APNS_BROADCAST_*_URL"
        ),
        (
            "MethodNotAllowed", 405,
            "this method is not allowed on this path; check PUSHDESK_APNS_MANAGE_*_URL and PUSHDESK_APNS_BROADCAST_*_URL point at Apple's channel and broadcast APIs"
        ),
        (
            "PayloadTooLarge", 413,
            "the broadcast payload is over 5120 bytes; shorten the content state, attributes or alert (pushdesk preview --channel shows the size)"
        ),
        ("TooManyRequests", 429, "Apple throttled the requests; wait and send again"),
        (
            "TooManyProviderTokenUpdates", 429,
            "provider tokens were renewed too often; PushDesk renews at most every 20 minutes — another sender may share this key"
        ),
        ("InternalServerError", 500, "APNs had an unexpected error; try again later"),
        ("ServiceUnavailable", 503, "APNs is unavailable; try again later"),
        ("Shutdown", 503, "the APNs server is shutting down; send again"),
    ]

    /// FCM `errorCode` (google.firebase.fcm.v1.FcmError) or, without one, the `status` → hint.
    public static let fcm: [(code: String, hint: String)] = [
        ("UNSPECIFIED_ERROR", "FCM gave no detail; send again, and check the Firebase status page if it repeats"),
        (
            "INVALID_ARGUMENT",
            "a field of the request is invalid — most often the registration token (copy it whole from the app), else the package name, size or a data key; the message names the field"
        ),
        (
            "UNREGISTERED",
            "the registration token is no longer valid (app uninstalled, token rotated or expired); remove it and use the app's current token"
                + unregisteredToken
        ),
        (
            "SENDER_ID_MISMATCH",
            "the token was registered with another Firebase project; use the service account of the project in the app's google-services.json"
        ),
        (
            "QUOTA_EXCEEDED",
            "the sending limit was exceeded (project, device or topic); PushDesk waited Retry-After and retried — send less often"
        ),
        ("UNAVAILABLE", "FCM is overloaded; PushDesk retried with back-off — try again later"),
        ("INTERNAL", "FCM had an internal error; PushDesk retried with back-off — try again later"),
        (
            "THIRD_PARTY_AUTH_ERROR",
            "FCM could not deliver to iOS or web: upload a valid APNs key or certificate (or web push keys) in the Firebase project settings (Cloud Messaging)"
        ),
        (
            "UNAUTHENTICATED",
            "the access token was refused; check the service-account key is not deleted or disabled in the Google Cloud console"
        ),
        (
            "PERMISSION_DENIED",
            "the service account may not send for this project: give it the Firebase Cloud Messaging API Admin role, enable the FCM API, and check projectId"
        ),
        ("NOT_FOUND", "the project or token was not found; check projectId and the registration token"),
        ("RESOURCE_EXHAUSTED", "a quota ran out; wait and send again later"),
    ]

    private static let apnsByReason = Dictionary(uniqueKeysWithValues: apns.map { ($0.reason, $0.hint) })
    private static let apnsChannelsByReason = Dictionary(
        uniqueKeysWithValues: apnsChannels.map { ($0.reason, $0.hint) })
    private static let fcmByCode = Dictionary(uniqueKeysWithValues: fcm.map { ($0.code, $0.hint) })

    /// The hint for an APNs answer from `endpoint`; `BadDeviceToken` says which environment to try.
    public static func apns(
        reason: String?, status: Int, environment: IOSEnvironment?, endpoint: APNsEndpoint = .device
    ) -> String? {
        if endpoint == .channels {
            if let reason, let hint = apnsChannelsByReason[reason] { return hint }
            return generic(status)
        }
        if reason == "BadDeviceToken" {
            switch environment {
            case .sandbox?:
                return
                    "this token is not a development token of this app: tokens from a TestFlight or App Store build need the production app; check the token was copied whole"
            case .production?:
                return
                    "this token is not a production token of this app: tokens from an Xcode (development) build need the sandbox app; check the token was copied whole"
            case nil: break
            }
        }
        if let reason, let hint = apnsByReason[reason] { return hint }
        return generic(status)
    }

    /// What `UNREGISTERED`'s hint says of a registration token only (docs/SENDING.md).
    public static let unregisteredToken =
        "; an app that moved to installation IDs no longer answers to its old token: register its FID (a test device of kind fid)"

    /// `fid`: the request targeted a Firebase installation ID, not a registration token.
    public static func fcm(code: String?, status: Int, fid: Bool = false) -> String? {
        if let code, let hint = fcmByCode[code] {
            return fid && code == "UNREGISTERED" ? String(hint.dropLast(unregisteredToken.count)) : hint
        }
        return generic(status)
    }

    private static func generic(_ status: Int) -> String? {
        switch status {
        case 200: nil
        case 429: "too many requests; wait and send again"
        case 500...599: "the service had a server error; PushDesk retried — try again later"
        default: "the service refused the request (HTTP \(status)); see its reason"
        }
    }
}
