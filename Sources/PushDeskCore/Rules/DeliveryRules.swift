import Foundation

/// Every rule about deliveries (docs/RULES.md, "Delivery
/// rules"). Each rule has exactly one implementation here; the preview engine calls these
/// per target and `check` runs them for `pushdesk validate`. Findings point at the field
/// of the delivery file (`ios.sound`, `android.color`, `variables.mediaUrl`, `content.body`).
/// App settings (`connector.binary`, `fcm.legacy-api`, …) are ServiceRules' findings, which
/// previews show on the app's target.
public enum DeliveryRules {
    /// APNs and FCM both refuse payloads over 4 KB (a push type may allow more: `PushType.sizeLimit`).
    public static let sizeLimit = 4096

    // MARK: the rules

    public static let payloadSize = Rule(
        "size.limit", .error, .target, "payload over the push type's limit (4096 bytes; 5120 for voip)")
    public static let soundUnknown = Rule(
        "sound.unknown", .error, .target, "iOS sound is neither default nor a sound of the app")
    public static let variableUndeclared = Rule(
        "variable.undeclared", .error, .target, "a value for a variable the app does not declare")
    public static let variableReserved = Rule(
        "variable.reserved", .error, .delivery, "a value for a variable name reserved by APNs, FCM or Campaign")
    public static let variableDuplicate = Rule(
        "variable.duplicate", .error, .delivery, "a variable given more than one value")
    public static let variableCollision = Rule(
        "variable.collision", .error, .target, "a variable named title in an Android data message")
    public static let silentContent = Rule(
        "silent.content", .error, .target, "silent iOS delivery with title, subtitle, body, sound or badge")
    public static let alertEmpty = Rule("alert.empty", .error, .target, "alert delivery with neither title nor body")
    public static let badgeRange = Rule("badge.range", .error, .target, "badge not a whole number ≥ 0")
    public static let relevanceRange = Rule("relevance.range", .error, .target, "relevance score outside 0..1")
    public static let volumeRange = Rule("volume.range", .error, .target, "critical volume outside 0..1")
    public static let interruptionCritical = Rule(
        "interruption.critical", .warning, .target, "critical interruption level or critical sound")
    public static let priorityBackground = Rule(
        "priority.background", .error, .target, "silent delivery with a priority other than 5")
    public static let collapseIdLength = Rule("collapse-id.length", .error, .target, "apns collapse id over 64 bytes")
    public static let expirationPast = Rule("expiration.past", .warning, .target, "expiration before now")
    public static let expirationFormat = Rule(
        "expiration.format", .error, .target, "expiration not an ISO 8601 UTC date-time")
    public static let mutableNoAlert = Rule(
        "mutable.no-alert", .warning, .target, "mutable-content on a delivery with no alert")
    public static let richBinaryConnector = Rule(
        "rich.binary-connector", .error, .target, "mutable-content or subtitle to an iOS app on the binary connector")
    public static let tokenFormat = Rule(
        "token.format", .warning, .target, "a given APNs device token is not hexadecimal")
    public static let ttlRange = Rule("ttl.range", .error, .target, "Android ttl outside 0..2419200")
    public static let colorFormat = Rule("color.format", .error, .target, "Android color not #RRGGBB")
    public static let imageUrl = Rule("image.url", .error, .target, "image not an absolute https URL")
    public static let notificationCountRange = Rule(
        "notification-count.range", .error, .target, "Android notification count not a whole number ≥ 0")
    public static let notificationEmpty = Rule(
        "notification.empty", .warning, .target, "Android notification message with neither title nor body")
    public static let androidIgnoredOption = Rule(
        "android.ignored-option", .warning, .target, "a notification-only Android option on a data message")
    public static let androidAnalyticsLabel = Rule(
        "android.analytics-label", .error, .target, "Android analytics label not 1–50 of A-Z a-z 0-9 - _ . ~ %")
    public static let legacyIgnoredOption = Rule(
        "legacy.ignored-option", .warning, .target, "an Android option the FCM legacy API does not have")
    public static let personalizationUnknownField = Rule(
        "personalization.unknown-field", .error, .delivery, "a recipient field no sample profile has")
    public static let previewUnknownApp = Rule(
        "preview.unknown-app", .error, .preview, "preview asked for an app key the service does not have")
    public static let deliveryServiceMissing = Rule(
        "delivery.service-missing", .error, .delivery, "the delivery's service does not exist")
    public static let profileUnreadable = Rule(
        "profile.unreadable", .error, .preview, "the preview's profile cannot be read")

    /// Every delivery rule, in the order of docs/RULES.md.
    public static let all: [Rule] = [
        payloadSize, soundUnknown, variableUndeclared, variableReserved, variableDuplicate, variableCollision,
        silentContent, typeIgnoredOption, typePriority, typeTokenAuth, liveActivityJSON, liveActivityEvent,
        liveActivityContentState,
        liveActivityStartAlert, liveActivityStartAttributes, liveActivityStaleDate, liveActivityDismissalDate,
        liveActivityDate, liveActivityAlertTitle, liveActivityInputChannel, liveActivityBudget, alertEmpty, badgeRange,
        relevanceRange, volumeRange,
        interruptionCritical, priorityBackground, collapseIdLength, expirationPast, expirationFormat, mutableNoAlert,
        richBinaryConnector, tokenFormat, ttlRange, colorFormat, imageUrl, notificationCountRange, notificationEmpty,
        androidIgnoredOption, androidAnalyticsLabel, legacyIgnoredOption, personalizationUnknownField,
        previewUnknownApp,
        deliveryServiceMissing, profileUnreadable, typeCertificateTopic,
    ]

    // MARK: predicates shared with the payload builders

    /// Names a variable may not have (`variable.reserved`): the same predicate the service
    /// rules apply to the apps' declarations.
    public static func isReservedVariable(_ name: String) -> Bool { ServiceRules.isReservedVariableName(name) }

    /// In an Android data message `title` is the delivery title's key (`variable.collision`).
    public static func collidesWithDataTitle(_ name: String) -> Bool { name == "title" }

    // MARK: findings that belong to no single target

    /// `variable.reserved`, `variable.duplicate`, `image.url` on `variables.mediaUrl`.
    /// `delivery` is personalized already.
    static func deliveryFindings(_ delivery: Delivery, file: String) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for v in delivery.variables {
            var field: FieldPath { FieldPath("variables", v.name) }  // built only for a finding
            if !seen.insert(v.name).inserted {
                out.append(
                    Self.variableDuplicate.finding(
                        "variable \"\(Escape.inline(v.name))\" has more than one value; keep one",
                        file: file, field: field))
                continue
            }
            guard !v.value.isEmpty else { continue }
            if isReservedVariable(v.name) {
                out.append(
                    Self.variableReserved.finding(
                        "\"\(Escape.inline(v.name))\" is reserved by APNs/FCM (aps, _mId, _dId, _msg, from, message_type, notification, google…, gcm…) and is not sent; rename the variable",
                        file: file, field: field))
            }
            if v.name == "mediaUrl", !OptionValues.isHTTPSURL(v.value) {
                out.append(imageURL(field: field, file: file))
            }
        }
        return out
    }

    /// `personalization.unknown-field`: `profile` is the profile used by a preview, nil when
    /// validate found the field in no sample profile.
    static func unknownField(_ name: String, field: FieldPath, profile: String?, file: String) -> Finding {
        let message =
            if let profile {
                "profile \"\(Escape.inline(profile))\" has no field \"\(name)\" for <%= recipient.\(name) %>; add it to profiles/\(Escape.inline(profile)).xml or fix the field name"
            } else {
                "no sample profile has field \"\(name)\" for <%= recipient.\(name) %>; fix the field name or add it to a profile"
            }
        return Self.personalizationUnknownField.finding(message, file: file, field: field)
    }

    // MARK: per-target findings

    /// `variable.undeclared` for one app, and on Android data messages `variable.collision`.
    static func variableFindings(_ delivery: Delivery, app: MobileApp, file: String) -> [Finding] {
        var out: [Finding] = []
        var seen: [String] = []  // a delivery gives a few values: lists beat hashing here
        for v in delivery.variables where !v.value.isEmpty && !seen.contains(v.name) {
            seen.append(v.name)
            var field: FieldPath { FieldPath("variables", v.name) }  // built only for a finding
            if !app.variables.contains(where: { $0.name == v.name }) {
                out.append(
                    Self.variableUndeclared.finding(
                        "app \(Escape.inline(app.integrationKey)) does not declare variable \"\(Escape.inline(v.name))\", so it is not sent to it; declare it on the app or remove the value",
                        file: file, field: field))
            } else if case .android = app, delivery.android.effectiveType == .data, collidesWithDataTitle(v.name) {
                out.append(
                    Self.variableCollision.finding(
                        "in a data message \"title\" carries the delivery title, so this variable is not sent; rename it",
                        file: file, field: field))
            }
        }
        return out
    }

    /// `size.limit`: `limit` is the push type's (docs/PAYLOADS.md), 4096 on Android.
    /// `locale`: the variant's tag, named in the message (nil: the default).
    static func sizeFinding(bytes: Int, limit: Int, file: String, locale: String? = nil) -> Finding? {
        guard bytes > limit else { return nil }
        let which = locale.map { "the \($0) variant's payload" } ?? "payload"
        return Self.payloadSize.finding(
            "\(which) is \(bytes) bytes, over the \(limit)-byte limit by \(bytes - limit); shorten the texts or variable values",
            file: file, field: "payload")
    }

    /// The service rules' findings about one app (`connector.binary`, `connector.v1-httpv1`,
    /// `fcm.legacy-api`, missing credentials, …): every preview to that app shows them, so
    /// `fcm.legacy-api` is always on a legacy target (docs/PAYLOADS.md). `serviceFindings` is
    /// `ServiceRules.check(service:)`, computed once per preview.
    static func appFindings(_ serviceFindings: [Finding], appIndex: Int) -> [Finding] {
        serviceFindings.filter { $0.field.index(in: "apps") == appIndex }
    }

    // MARK: validate

    /// All delivery findings for `pushdesk validate`: the preview rules for every app of the
    /// service (text as written, placeholder token and tracking ids), without the app-setting
    /// findings `ServiceRules` already reports on the service file. With sample profiles in the store, a
    /// `<%= recipient.FIELD %>` whose field no profile has is `personalization.unknown-field`.
    /// Identical findings (same rule on several apps) are reported once.
    public static func check(delivery: Delivery, service: Service, profiles: [Profile], now: Date) -> [Finding] {
        // Service findings would be filtered out below: none are computed.
        // Every variant a device can get, against every app.
        let preview = PreviewEngine.preview(
            delivery: delivery, service: service, profile: nil,
            appKey: nil, token: nil, now: now, serviceFindings: [], payloads: false, locale: .all)
        // App settings are the service file's findings; validate reports those from ServiceRules.
        var all = (preview.diagnostics + preview.targets.flatMap(\.diagnostics)).filter {
            $0.file != Service.path(service.name)
        }
        if !profiles.isEmpty {
            let known = Set(profiles.flatMap { $0.fields.map(\.name) })
            for (field, text) in PreviewEngine.personalizedTexts(delivery) {
                for name in Personalization.fields(in: text) where !known.contains(name) {
                    all.append(unknownField(name, field: field, profile: nil, file: Delivery.path(delivery.name)))
                }
            }
        }
        var seen = Set<Finding>()
        return all.filter { seen.insert($0).inserted }
    }

    /// Every delivery of a store snapshot, positioned (line:column from the files), for
    /// `pushdesk validate`. A delivery whose service does not exist is `delivery.service-missing`;
    /// one whose service file does not load is skipped (that file's error is reported already).
    public static func check(_ snapshot: StoreSnapshot, now: Date) -> [Finding] {
        var index: [String: Int] = [:]
        for (i, s) in snapshot.services.enumerated() where index[s.name] == nil { index[s.name] = i }
        let services = index
        let unreadable = Set(snapshot.errors.map(\.file))
        // Deliveries are independent: checked in parallel, reported in store order.
        let out = Parallel.map(snapshot.deliveries) { d -> [Finding] in
            if let i = services[d.service] {
                return check(delivery: d, service: snapshot.services[i], profiles: snapshot.profiles, now: now)
            }
            return unreadable.contains(Service.path(d.service)) ? [] : [serviceMissing(d)]
        }
        return snapshot.positioned(out.flatMap { $0 })
    }

    /// `delivery.service-missing`.
    public static func serviceMissing(_ d: Delivery) -> Finding {
        Self.deliveryServiceMissing.finding(
            "service \"\(Escape.inline(d.service))\" does not exist (no \(Escape.inline(Service.path(d.service)))); fix service= or create the service",
            file: Delivery.path(d.name), field: "service")
    }
}
