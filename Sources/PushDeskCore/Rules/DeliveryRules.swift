import Foundation

/// Every rule about deliveries (SPEC §5 plus the extra ones in docs/RULES.md, "Delivery
/// rules"). Each rule has exactly one implementation here; the preview engine calls these
/// per target and `check` runs them for `pushdesk validate`. Findings point at the field
/// of the delivery file (`ios.sound`, `android.color`, `variables.mediaUrl`, `content.body`).
/// App settings (`connector.binary`, `fcm.legacy-api`, …) are ServiceRules' findings, which
/// previews show on the app's target.
public enum DeliveryRules {
    /// APNs and FCM both refuse payloads over 4 KB.
    public static let sizeLimit = 4096

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
                    Finding(
                        .error, "variable.duplicate",
                        "variable \"\(Escape.inline(v.name))\" has more than one value; keep one",
                        file: file, field: field))
                continue
            }
            guard !v.value.isEmpty else { continue }
            if isReservedVariable(v.name) {
                out.append(
                    Finding(
                        .error, "variable.reserved",
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
        return Finding(.error, "personalization.unknown-field", message, file: file, field: field)
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
                    Finding(
                        .error, "variable.undeclared",
                        "app \(Escape.inline(app.integrationKey)) does not declare variable \"\(Escape.inline(v.name))\", so it is not sent to it; declare it on the app or remove the value",
                        file: file, field: field))
            } else if case .android = app, delivery.android.effectiveType == .data, collidesWithDataTitle(v.name) {
                out.append(
                    Finding(
                        .error, "variable.collision",
                        "in a data message \"title\" carries the delivery title, so this variable is not sent; rename it",
                        file: file, field: field))
            }
        }
        return out
    }

    /// `size.limit`.
    static func sizeFinding(bytes: Int, file: String) -> Finding? {
        guard bytes > sizeLimit else { return nil }
        return Finding(
            .error, "size.limit",
            "payload is \(bytes) bytes, over the \(sizeLimit)-byte limit by \(bytes - sizeLimit); shorten the texts or variable values",
            file: file, field: "payload")
    }

    /// Everything about the `<ios>` options for one iOS app.
    static func iosFindings(_ delivery: Delivery, app: IOSApp, token: String?, now: Date, file: String) -> [Finding] {
        var out: [Finding] = []
        let ios = delivery.ios
        let c = delivery.content
        let silent = ios.effectiveType == .silent
        func add(_ s: Severity, _ rule: String, _ field: FieldPath, _ message: String) {
            out.append(Finding(s, rule, message, file: file, field: field))
        }
        if silent {
            let sent: [(FieldPath, Bool)] = [
                ("content.title", !c.title.isEmpty), ("content.subtitle", !c.subtitle.isEmpty),
                ("content.body", !c.body.isEmpty), ("ios.sound", ios.sound.nonEmpty != nil),
                ("ios.badge", ios.badge.nonEmpty != nil),
            ]
            for (field, isSet) in sent where isSet {
                add(
                    .error, "silent.content", field,
                    "a silent (background) notification cannot show text, play a sound or change the badge; remove it or use type=\"alert\""
                )
            }
            if let p = ios.priority, p != .powerConsiderate {
                add(
                    .error, "priority.background", "ios.priority",
                    "APNs requires priority 5 for background notifications (10 is an error, 1 is not allowed here); set priority=\"5\" or leave it unset"
                )
            }
            for o in IOSOptions.definitions where o.visibleOnly && o.isSet(in: ios) && !silentOwnRule.contains(o.name) {
                add(
                    .warning, "silent.ignored-option", o.field,
                    "not sent: a silent notification carries only content-available; remove it or use type=\"alert\"")
            }
        } else {
            // A Live Activity update or end may carry no alert (liveactivity.start-alert covers a start).
            if c.title.isEmpty && c.body.isEmpty && !LiveActivityPayload.applies(to: delivery) {
                add(
                    .error, "alert.empty", "content.body",
                    "an alert needs a title or a body; write one, or use type=\"silent\" for a background update")
            }
            if let sound = ios.sound.nonEmpty, sound != "default", !app.sounds.contains(where: { $0.name == sound }) {
                let known = app.sounds.map(\.name)
                add(
                    .error, "sound.unknown", "ios.sound",
                    "sound \"\(Escape.inline(sound))\" is neither \"default\" nor a sound of \(ServiceRules.appName(.ios(app))) (key \(Escape.inline(app.integrationKey))); use one of: "
                        + (["default"] + known).map { Escape.inline($0) }.joined(separator: ", "))
            }
        }
        if let text = ios.badge.nonEmpty, OptionValues.badge(text) == nil {
            add(
                .error, "badge.range", "ios.badge",
                "badge \"\(Escape.inline(text))\" is not a whole number ≥ 0; use e.g. 0 (clears the badge) or 3")
        }
        if let text = ios.relevanceScore.nonEmpty,
            LiveActivityPayload.applies(to: delivery)
                ? OptionValues.number(text) == nil : OptionValues.unitInterval(text) == nil
        {
            add(
                .error, "relevance.range", "ios.relevanceScore",
                "relevance score \"\(Escape.inline(text))\" is not a number between 0 and 1; use e.g. 0.8")
        }
        if let text = ios.volume.nonEmpty, OptionValues.unitInterval(text) == nil {
            add(
                .error, "volume.range", "ios.volume",
                "critical volume \"\(Escape.inline(text))\" is not a number between 0 and 1; use e.g. 1 (full volume)")
        }
        if ios.interruptionLevel == .critical {
            add(
                .warning, "interruption.critical", "ios.interruptionLevel",
                "critical alerts need Apple's critical-alerts entitlement in the app; without it iOS shows a normal alert"
            )
        }
        if ios.critical == true {
            add(
                .warning, "interruption.critical", "ios.critical",
                "a critical sound needs Apple's critical-alerts entitlement in the app; without it iOS plays a normal sound"
            )
        }
        if ios.mutableContent == true && (silent || (c.title.isEmpty && c.subtitle.isEmpty && c.body.isEmpty)) {
            add(
                .warning, "mutable.no-alert", "ios.mutableContent",
                "the notification service extension only runs for notifications with an alert; add a title or body")
        }
        if app.connector == .binary {
            if ios.mutableContent == true && !silent {
                add(
                    .error, "rich.binary-connector", "ios.mutableContent",
                    "app \(Escape.inline(app.integrationKey)) uses the binary connector, which cannot send rich notifications; switch the app to connector=\"http2\""
                )
            }
            if !c.subtitle.isEmpty && !silent {
                add(
                    .error, "rich.binary-connector", "content.subtitle",
                    "app \(Escape.inline(app.integrationKey)) uses the binary connector, which cannot send a subtitle; switch the app to connector=\"http2\""
                )
            }
        }
        if let id = ios.collapseId.nonEmpty, id.utf8.count > OptionValues.maxCollapseIdBytes {
            add(
                .error, "collapse-id.length", "ios.collapseId",
                "collapse id is \(id.utf8.count) bytes; APNs accepts at most \(OptionValues.maxCollapseIdBytes)")
        }
        if let text = ios.expiration.nonEmpty {
            if let seconds = OptionValues.expiration(text) {
                if Double(seconds) < now.timeIntervalSince1970 {
                    add(
                        .warning, "expiration.past", "ios.expiration",
                        "expiration \(Escape.inline(text)) is in the past: APNs will not store the notification or retry delivery; move it later"
                    )
                }
            } else {
                add(
                    .error, "expiration.format", "ios.expiration",
                    "expiration \"\(Escape.inline(text))\" is not an ISO 8601 UTC date-time; write it like 2026-12-01T00:00:00Z"
                )
            }
        }
        if let token, !OptionValues.isHexToken(token) {
            add(.warning, "token.format", "token", "APNs device tokens are hexadecimal; check the --token value")
        }
        return out
    }

    /// Alert-only options a silent delivery reports by their own rule (`silent.content`,
    /// `mutable.no-alert`) or that cost nothing there (content-available is sent anyway).
    private static let silentOwnRule: Set<String> = ["sound", "badge", "mutableContent", "contentAvailable"]

    /// Everything about the `<android>` options for one Android app.
    static func androidFindings(_ delivery: Delivery, app: AndroidApp, file: String) -> [Finding] {
        var out: [Finding] = []
        let o = delivery.android
        func add(_ s: Severity, _ rule: String, _ field: FieldPath, _ message: String) {
            out.append(Finding(s, rule, message, file: file, field: field))
        }
        if let text = o.ttl.nonEmpty, OptionValues.ttlSeconds(text) == nil {
            add(
                .error, "ttl.range", "android.ttl",
                "ttl \"\(Escape.inline(text))\" is not a whole number of seconds in 0…\(OptionValues.maxTTLSeconds) (4 weeks); use e.g. 86400"
            )
        }
        if let text = o.color.nonEmpty, !OptionValues.isColor(text) {
            add(
                .error, "color.format", "android.color",
                "color \"\(Escape.inline(text))\" is not #RRGGBB; write it like #FF6600")
        }
        if let text = o.image.nonEmpty, !OptionValues.isHTTPSURL(text) {
            out.append(imageURL(field: "android.image", file: file))
        }
        if let text = o.notificationCount.nonEmpty, OptionValues.notificationCount(text) == nil {
            add(
                .error, "notification-count.range", "android.notificationCount",
                "notification count \"\(Escape.inline(text))\" is not a whole number ≥ 0; use e.g. 1")
        }
        if o.effectiveType == .notification, delivery.content.title.isEmpty, delivery.content.body.isEmpty {
            add(
                .warning, "notification.empty", "content.body",
                "a notification message with neither title nor body shows an empty notification; write one, or use type=\"data\""
            )
        }
        let isData = o.effectiveType == .data
        if isData {
            for d in AndroidOptions.definitions where d.visibleOnly && d.isSet(in: o) {
                add(
                    .warning, "android.ignored-option", d.field,
                    "not sent: a data message carries only data; set type=\"notification\" on <android> or remove it")
            }
        }
        if app.api == .legacy {
            // A notification-only option of a data message has its android.ignored-option already.
            for d in AndroidOptions.definitions where !d.legacy && d.isSet(in: o) && !(isData && d.visibleOnly) {
                add(
                    .warning, "legacy.ignored-option", d.field,
                    "not sent: the FCM legacy API has no such key; move app \(Escape.inline(app.integrationKey)) to api=\"httpv1\""
                )
            }
        }
        return out
    }

    private static func imageURL(field: FieldPath, file: String) -> Finding {
        Finding(
            .error, "image.url",
            "image must be an absolute https:// URL (devices refuse other schemes); write it like https://cdn.example.com/a.jpg",
            file: file, field: field)
    }

    /// The service rules' findings about one app (`connector.binary`, `connector.v1-httpv1`,
    /// `fcm.legacy-api`, missing credentials, …): every preview to that app shows them, so
    /// `fcm.legacy-api` is always on a legacy target (SPEC §4.3). `serviceFindings` is
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
        let preview = PreviewEngine.preview(
            delivery: delivery, service: service, profile: nil,
            appKey: nil, token: nil, now: now, serviceFindings: [], payloads: false)
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
        Finding(
            .error, "delivery.service-missing",
            "service \"\(Escape.inline(d.service))\" does not exist (no \(Escape.inline(Service.path(d.service)))); fix service= or create the service",
            file: Delivery.path(d.name), field: "service")
    }
}
