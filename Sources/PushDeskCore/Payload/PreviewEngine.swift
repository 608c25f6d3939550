import Foundation

/// Which request a target becomes.
public enum PreviewAPI: String, Sendable, CaseIterable {
    case apns, httpv1, legacy
}

/// One app's request: exactly what would be sent, its size and its findings.
public struct PreviewTarget: Equatable, Sendable {
    /// The app's integration key.
    public var app: String
    public var label: String
    public var platform: Platform
    /// iOS only.
    public var environment: IOSEnvironment?
    public var api: PreviewAPI
    public var endpoint: String
    /// In sending order.
    public var headers: [(name: String, value: String)]
    /// Exactly the body that would be sent (token included).
    public var payload: JSONValue
    /// Bytes that count against `limit` (docs/PAYLOADS.md).
    public var bytes: Int
    public var limit: Int
    public var diagnostics: [Finding]
    /// The variant's canonical tag; nil for the default (`<content>`).
    public var locale: String? = nil

    /// The value of header `name`, nil when the request has none.
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    public static func == (a: PreviewTarget, b: PreviewTarget) -> Bool {
        a.app == b.app && a.label == b.label && a.platform == b.platform && a.environment == b.environment
            && a.api == b.api && a.endpoint == b.endpoint
            && a.headers.elementsEqual(b.headers) { $0.name == $1.name && $0.value == $1.value }
            && a.payload == b.payload && a.bytes == b.bytes && a.limit == b.limit && a.diagnostics == b.diagnostics
            && a.locale == b.locale
    }
}

/// A delivery previewed for the apps of its service.
public struct Preview: Equatable, Sendable {
    public var delivery: String
    public var service: String
    public var targets: [PreviewTarget]
    /// Findings that belong to no single target (profile problems, variable names, …).
    public var diagnostics: [Finding]
    /// Integration keys of the Android apps an iOS-only type leaves out (docs/PAYLOADS.md); not in
    /// the preview document (docs/PAYLOADS.md), which lists no target for them.
    public var iosOnlySkipped: [String] = []

    /// The preview document (`pushdesk preview --json`, docs/PAYLOADS.md).
    public var json: JSONValue { PreviewDocument.json(self) }
    /// Top-level and per-target findings together.
    public var allFindings: [Finding] { diagnostics + targets.flatMap(\.diagnostics) }
    public var hasErrors: Bool { allFindings.hasErrors }
}

/// Turns a delivery into the exact APNs / FCM requests (docs/PAYLOADS.md). Pure and fast: the
/// console calls it on every keystroke, so it touches no file and reads the clock only
/// through `now`.
public enum PreviewEngine {
    /// Used when no `--token` is given.
    public static let placeholderToken = "DEVICE_TOKEN"

    /// - Parameters:
    ///   - profile: sample recipient for `<%= recipient.FIELD %>`; nil leaves the text as written.
    ///   - appKey: preview only the app with this integration key; nil = every app.
    ///   - token: device token; nil = `DEVICE_TOKEN`.
    ///   - fid: `token` is a Firebase installation ID: FCM v1 targets it as `message.fid`
    ///     (docs/SENDING.md; `preview --fid`, a `kind="fid"` subscription).
    ///   - now: for `expiration.past`.
    ///   - messageId: `_mId` in place of the delivery's (a send's per-target id, docs/SENDING.md);
    ///     nil = the delivery's.
    ///   - at: the UNIX second a Live Activity's `timestamp` takes (`preview --at`, the second
    ///     a send builds its request); nil = `now`'s.
    ///   - serviceFindings: `ServiceRules.check(service: service)` when the caller already has
    ///     it (the console recomputes it only when the service changes); nil = compute it.
    ///   - locale: the variant to build (`--locale`); nil = the default.
    public static func preview(
        delivery: Delivery, service: Service, profile: Profile?,
        appKey: String?, token: String?, fid: Bool = false, now: Date, messageId: String? = nil, at: Int? = nil,
        serviceFindings: [Finding]? = nil, locale: PreviewLocale? = nil
    ) -> Preview {
        preview(
            delivery: delivery, service: service, profile: profile, appKey: appKey, token: token, fid: fid, now: now,
            messageId: messageId, at: at, serviceFindings: serviceFindings, payloads: true, locale: locale)
    }

    /// The largest payload the delivery sends, in bytes, against the limit — what a list of
    /// deliveries shows per row. Only counted, by the same builders as `preview` (no payload,
    /// header or finding is built). nil when the service has no app. Without a profile, as
    /// `preview(profile: nil)`. Every variant a device can get counts: a Chinese one is
    /// often the largest.
    public static func largestPayload(delivery: Delivery, service: Service) -> (bytes: Int, limit: Int)? {
        let tracking = delivery.tracking ?? .placeholder
        let type = delivery.ios.effectiveType
        // The timestamp's digits count; any second of this century has as many.
        let timestamp = 1_700_000_000
        let versions = [delivery] + delivery.reachableVariants.map { delivery.applying($0) }
        let sizes = versions.flatMap { delivery in
            largest(delivery, service: service, tracking: tracking, timestamp: timestamp)
        }
        return sizes.max().map { ($0, type.sizeLimit) }
    }

    private static func largest(_ delivery: Delivery, service: Service, tracking: Tracking, timestamp: Int) -> [Int] {
        let type = delivery.ios.effectiveType
        return service.apps.compactMap { app -> Int? in
            switch app {
            case .ios(let a):
                return APNsRequest.payloadBytes(delivery: delivery, app: a, tracking: tracking, timestamp: timestamp)
            case .android where type.iosOnly: return nil
            case .android(let a):
                return a.api == .legacy
                    ? FCMLegacyMessage.payloadBytes(delivery: delivery, app: a, tracking: tracking)
                    : FCMv1Message.payloadBytes(delivery: delivery, app: a, tracking: tracking)
            }
        }
    }

    /// `payloads: false` is for the rules alone (`validate`): each target's payload is left
    /// null and only its byte count is computed, by the same builder.
    static func preview(
        delivery: Delivery, service: Service, profile: Profile?,
        appKey: String?, token: String?, fid: Bool = false, now: Date, messageId: String? = nil, at: Int? = nil,
        serviceFindings: [Finding]?, payloads: Bool, locale: PreviewLocale? = nil
    ) -> Preview {
        let variants: [DeliveryVariant?] =
            switch locale {
            case nil: [nil]
            case .tag(let tag): [delivery.variant(for: tag)]
            case .all: [nil] + delivery.reachableVariants
            }
        let serviceFindings = serviceFindings ?? ServiceRules.check(service: service)
        let runs = variants.map { v in
            single(
                delivery: delivery, variant: v, service: service, profile: profile, appKey: appKey, token: token,
                fid: fid, now: now, messageId: messageId, at: at, serviceFindings: serviceFindings, payloads: payloads)
        }
        var result = runs[0]
        if case .tag(let tag) = locale, variants == [nil],
            let f = DeliveryRules.fallback(tag, delivery: delivery, file: Delivery.path(delivery.name))
        {
            for i in result.targets.indices { result.targets[i].diagnostics.append(f) }
        }
        if runs.count > 1 {
            // Per app, the default then each variant; top-level findings once each.
            result.targets = result.targets.indices.flatMap { i in runs.map { $0.targets[i] } }
            var seen = Set(result.diagnostics)
            for run in runs.dropFirst() {
                for f in run.diagnostics where seen.insert(f).inserted { result.diagnostics.append(f) }
            }
        }
        result.diagnostics += DeliveryRules.languageFindings(delivery, file: Delivery.path(delivery.name))
        return result
    }

    /// One variant (nil: the default) for the apps: its findings on the variant's fields.
    private static func single(
        delivery original: Delivery, variant: DeliveryVariant?, service: Service, profile: Profile?,
        appKey: String?, token: String?, fid: Bool, now: Date, messageId: String?, at: Int?,
        serviceFindings: [Finding], payloads: Bool
    ) -> Preview {
        let delivery = variant.map { original.applying($0) } ?? original
        let timestamp = at ?? Int(now.timeIntervalSince1970.rounded(.down))
        let file = Delivery.path(delivery.name)
        let serviceFile = Service.path(service.name)
        var diagnostics: [Finding] = []

        // Personalize first: sizes and rules see the text that is sent (docs/PAYLOADS.md).
        var resolved = delivery
        if let profile {
            func fill(_ text: String, _ field: @autoclosure () -> FieldPath) -> String {
                let (out, unknown) = Personalization.apply(text, profile: profile)
                for name in unknown {
                    diagnostics.append(
                        DeliveryRules.unknownField(name, field: field(), profile: profile.name, file: file))
                }
                return out
            }
            resolved.content.title = fill(delivery.content.title, Self.titlePath)
            resolved.content.subtitle = fill(delivery.content.subtitle, Self.subtitlePath)
            resolved.content.body = fill(delivery.content.body, Self.bodyPath)
            for i in resolved.variables.indices {
                resolved.variables[i].value = fill(
                    delivery.variables[i].value, FieldPath("variables", delivery.variables[i].name))
            }
            if var keys = resolved.content.localized {
                for a in LocalizedKeys.arguments {
                    let args: [String] = keys[keyPath: a.args]
                    keys[keyPath: a.args] = args.map { fill($0, FieldPath("content", "localized", a.element)) }
                }
                resolved.content.localized = keys
            }
        }
        diagnostics += DeliveryRules.deliveryFindings(resolved, file: file)

        var apps: [(index: Int, app: MobileApp)]
        if let appKey {
            apps = service.apps.enumerated().filter { $0.element.integrationKey == appKey }.map {
                ($0.offset, $0.element)
            }
            if apps.isEmpty {
                let keys = service.apps.map(\.integrationKey).joined(separator: ", ")
                diagnostics.append(
                    DeliveryRules.previewUnknownApp.finding(
                        "service \(service.name) has no app with integration key \"\(Escape.inline(appKey))\"; use one of: \(Escape.inline(keys))",
                        file: serviceFile))
            }
        } else {
            apps = service.apps.enumerated().map { ($0.offset, $0.element) }
        }
        // A type other than alert and silent reaches iOS apps only (docs/PAYLOADS.md).
        var iosOnlySkipped: [String] = []
        if delivery.ios.effectiveType.iosOnly {
            iosOnlySkipped = apps.filter { $0.app.platform == .android }.map(\.app.integrationKey)
            apps.removeAll { $0.app.platform == .android }
        }
        var tracking = delivery.tracking ?? .placeholder
        if let messageId { tracking.messageId = messageId }
        let sendToken = token ?? placeholderToken
        let tag = variant?.tag?.description
        var targets = apps.map { entry in
            target(
                resolved, app: entry.app, tracking: tracking, token: sendToken, fid: fid, givenToken: token, now: now,
                timestamp: timestamp, file: file,
                appFindings: DeliveryRules.appFindings(serviceFindings, appIndex: entry.index), payload: payloads,
                locale: tag)
        }
        if let variant {
            diagnostics = diagnostics.map(variant.moving)
            for i in targets.indices {
                targets[i].locale = tag
                targets[i].diagnostics = targets[i].diagnostics.map(variant.moving)
            }
        }
        return Preview(
            delivery: delivery.name, service: service.name, targets: targets, diagnostics: diagnostics,
            iosOnlySkipped: iosOnlySkipped)
    }

    private static func target(
        _ d: Delivery, app: MobileApp, tracking: Tracking, token: String, fid: Bool, givenToken: String?,
        now: Date, timestamp: Int, file: String, appFindings: [Finding], payload: Bool, locale: String?
    ) -> PreviewTarget {
        let built: BuiltRequest
        let api: PreviewAPI
        let environment: IOSEnvironment?
        var findings = appFindings
        var limit = DeliveryRules.sizeLimit
        switch app {
        case .ios(let a):
            built = APNsRequest.build(
                delivery: d, app: a, tracking: tracking, token: token, timestamp: timestamp,
                withPayload: payload)
            limit = d.ios.effectiveType.sizeLimit
            api = .apns
            environment = a.environment
            findings += DeliveryRules.iosFindings(d, app: a, token: givenToken, now: now, file: file)
        case .android(let a):
            built =
                a.api == .legacy
                ? FCMLegacyMessage.build(delivery: d, app: a, tracking: tracking, token: token, withPayload: payload)
                : FCMv1Message.build(
                    delivery: d, app: a, tracking: tracking, token: token, fid: fid, withPayload: payload)
            api = a.api == .legacy ? .legacy : .httpv1
            environment = nil
            findings += DeliveryRules.androidFindings(d, app: a, file: file)
        }
        findings += DeliveryRules.variableFindings(d, app: app, file: file)
        if let f = DeliveryRules.sizeFinding(bytes: built.bytes, limit: limit, file: file, locale: locale) {
            findings.append(f)
        }
        return PreviewTarget(
            app: app.integrationKey, label: app.label, platform: app.platform, environment: environment,
            api: api, endpoint: built.endpoint, headers: built.headers.map { (name: $0.0, value: $0.1) },
            payload: built.payload, bytes: built.bytes, limit: limit,
            diagnostics: findings)
    }

    /// The content's paths, built once (validate asks for them for every delivery).
    static let titlePath = FieldPath("content", "title")
    static let subtitlePath = FieldPath("content", "subtitle")
    static let bodyPath = FieldPath("content", "body")

    /// The texts personalization applies to, with their field paths.
    public static func personalizedTexts(_ d: Delivery) -> [(field: FieldPath, text: String)] {
        var out: [(field: FieldPath, text: String)] = [
            (titlePath, d.content.title), (subtitlePath, d.content.subtitle), (bodyPath, d.content.body),
        ]
        out += d.variables.map { (FieldPath("variables", $0.name), $0.value) }
        if let keys = d.content.localized {
            for a in LocalizedKeys.arguments {
                let args: [String] = keys[keyPath: a.args]
                out += args.map { (FieldPath("content", "localized", a.element), $0) }
            }
        }
        for v in d.variants {
            out += DeliveryText.allCases.map { (v.field.appending($0.rawValue), $0.value(in: v)) }
            out += v.variables.map { (v.field.appending("values", $0.name), $0.value) }
        }
        return out
    }
}
