import Foundation

/// What `pushdesk send` will send, decided before any byte leaves (docs/SENDING.md): one previewed
/// target per device, and the error findings that block the whole send.
public struct SendPlan: Sendable {
    public struct Item: Sendable {
        public var target: PreviewTarget
        public var app: MobileApp
        public var token: String
        /// The profile and device label, nil with `--app --token`.
        public var profile: String?
        public var device: String?
        /// This target's `_mId` (docs/SENDING.md): fresh for every target, in the payload too.
        public var messageId: String
        /// The channel id of a broadcast (docs/SENDING.md); nil for a device request.
        public var channel: String? = nil
        /// A Live Activity's `aps.timestamp` as built (docs/PAYLOADS.md); nil for other types.
        public var timestamp: Int? {
            if case .number(let n)? = target.payload["aps"]?["timestamp"] { return Int(n) }
            return nil
        }
        /// The FCM request targets a Firebase installation ID (`message.fid`, docs/SENDING.md).
        public var isFID: Bool {
            if case .string? = target.payload["message"]?["fid"] { return true }
            return false
        }
        /// Not sent, and why: an Android device of an iOS-only push type (`type.ios-only`).
        public var skip: (reason: String, hint: String)?
    }
    public var delivery: String
    public var service: String
    public var items: [Item] = []
    /// Blocking findings with the app they concern (nil: top level).
    public var blocked: [(app: String?, finding: Finding)] = []

    public var isBlocked: Bool { !blocked.isEmpty }

    /// A fresh message id: a random (version 4) UUID, lowercase, with hyphens.
    public static func newMessageId() -> String { UUID().uuidString.lowercased() }

    /// `profile` (its subscriptions of this service's apps, only `appKey`'s when given) or
    /// `appKey` + `token` (a Firebase installation ID when `fid`, docs/SENDING.md). `allServices` decide whether a subscription's app exists. Every
    /// target is previewed with its own `messageId()` as `_mId`, as Campaign gives every
    /// message its own broadlog id. A Live Activity's `timestamp` is `now`'s second: the
    /// plan is made just before its requests go out.
    public static func make(
        delivery: Delivery, service: Service, profile: Profile?, appKey: String?, token: String?, fid: Bool = false,
        allServices: [Service], now: Date, position: ([Finding]) -> [Finding] = { $0 },
        messageId: () -> String = newMessageId
    ) -> SendPlan {
        var plan = SendPlan(delivery: delivery.name, service: service.name)
        let at = Int(now.timeIntervalSince1970.rounded(.down))
        var topLevel: [Finding] = []
        func addTopLevel(_ findings: [Finding]) {
            for f in position(findings) where f.severity == .error && !topLevel.contains(f) { topLevel.append(f) }
        }
        func add(
            _ target: PreviewTarget, app: MobileApp, token: String, profile: String?, device: String?, id: String
        ) {
            plan.items.append(
                Item(target: target, app: app, token: token, profile: profile, device: device, messageId: id))
            for f in position(target.diagnostics) where f.severity == .error {
                if !plan.blocked.contains(where: { $0.app == target.app && $0.finding == f }) {
                    plan.blocked.append((target.app, f))
                }
            }
        }
        if let profile {
            let apps = ProfileRules.appsByKey(allServices)
            let type = delivery.ios.effectiveType
            // The type's token kind picks the iOS devices (docs/FORMATS.md); Android devices are
            // registration tokens or installation IDs alike (docs/SENDING.md).
            let kind = type.tokenKind(for: delivery)
            var sentToKind = false
            for (i, s) in profile.subscriptions.enumerated() {
                guard let app = service.app(integrationKey: s.app), appKey == nil || appKey == s.app else { continue }
                if app.platform == .ios ? s.kind != kind : (s.kind.iosOnly && !type.iosOnly) { continue }
                for f in position(ProfileRules.check(s, index: i, profile: profile.name, app: apps[s.app] ?? app))
                where f.severity == .error {
                    plan.blocked.append((s.app, f))
                }
                let id = messageId()
                if app.platform == .android && type.iosOnly {
                    plan.items.append(
                        iosOnlySkip(type, app: app, token: s.token, profile: profile.name, device: s.label, id: id))
                    continue
                }
                if app.platform == .ios { sentToKind = true }
                // The variant the device's language looks up (the default without one).
                let p = PreviewEngine.preview(
                    delivery: delivery, service: service, profile: profile, appKey: s.app, token: s.token,
                    fid: app.platform == .android && s.kind == .fid, now: now, messageId: id, at: at,
                    locale: profile.language(of: s).map(PreviewLocale.tag))
                addTopLevel(p.diagnostics)
                if let t = p.targets.first {
                    add(t, app: app, token: s.token, profile: profile.name, device: s.label, id: id)
                }
            }
            if !sentToKind, kind != .device || type.iosOnly {
                plan.blocked.append(
                    (nil, kindMissing(kind, type: type, profile: profile.name, service: service, appKey: appKey)))
            }
            for f in position(ProfileRules.localeFindings(profile)) { plan.blocked.append((nil, f)) }
        } else if let appKey, let token, let app = service.app(integrationKey: appKey) {
            let id = messageId()
            if app.platform == .android && delivery.ios.effectiveType.iosOnly {
                plan.items.append(
                    iosOnlySkip(
                        delivery.ios.effectiveType, app: app, token: token, profile: nil, device: nil, id: id))
            }
            let p = PreviewEngine.preview(
                delivery: delivery, service: service, profile: nil, appKey: appKey, token: token, fid: fid, now: now,
                messageId: id, at: at)
            addTopLevel(p.diagnostics)
            if let t = p.targets.first { add(t, app: app, token: token, profile: nil, device: nil, id: id) }
        }
        // An error in any variant blocks the send, whichever variant each device gets.
        if !delivery.variants.isEmpty {
            let apps = Set(plan.items.filter { $0.skip == nil }.map(\.target.app))
            let all = PreviewEngine.preview(
                delivery: delivery, service: service, profile: profile, appKey: appKey, token: nil, now: now,
                messageId: nil, at: at, serviceFindings: nil, payloads: false, locale: .all)
            addTopLevel(all.diagnostics)
            for t in all.targets where apps.contains(t.app) {
                for f in position(t.diagnostics) where f.severity == .error {
                    if !plan.blocked.contains(where: { $0.app == t.app && $0.finding == f }) {
                        plan.blocked.append((t.app, f))
                    }
                }
            }
        }
        plan.blocked = topLevel.map { (nil, $0) } + plan.blocked
        return plan
    }

    /// A broadcast of a Live Activity update or end to one channel of `app` (docs/SENDING.md):
    /// one item, blocked by the error findings of its preview.
    public static func broadcast(
        delivery: Delivery, service: Service, app: IOSApp, channel: BroadcastChannel, now: Date, at: Int? = nil,
        position: ([Finding]) -> [Finding] = { $0 }, messageId: () -> String = newMessageId
    ) -> SendPlan {
        var plan = SendPlan(delivery: delivery.name, service: service.name)
        let id = messageId()
        let p = BroadcastRequest.preview(
            delivery: delivery, service: service, app: app, channel: channel, now: now, at: at, messageId: id)
        for f in position(p.diagnostics) where f.severity == .error { plan.blocked.append((nil, f)) }
        if let t = p.targets.first {
            plan.items.append(
                Item(
                    target: t, app: .ios(app), token: "", profile: nil, device: nil, messageId: id,
                    channel: channel.id))
            for f in position(t.diagnostics) where f.severity == .error { plan.blocked.append((t.app, f)) }
        }
        return plan
    }

    /// An Android device of a push type only iOS has: a result, never a request (docs/PAYLOADS.md).
    static func iosOnlySkip(
        _ type: PushType, app: MobileApp, token: String, profile: String?, device: String?, id: String
    ) -> Item {
        let target = PreviewTarget(
            app: app.integrationKey, label: app.label, platform: app.platform, environment: nil,
            api: { if case .android(let a) = app, a.api == .legacy { .legacy } else { .httpv1 } }(), endpoint: "",
            headers: [], payload: .null, bytes: 0,
            limit: DeliveryRules.sizeLimit, diagnostics: [])
        return Item(
            target: target, app: app, token: token, profile: profile, device: device, messageId: id,
            skip: (
                "type.ios-only",
                "a \(type.name) push exists on iOS only: Android devices get no request; send an alert or silent delivery to reach them"
            ))
    }

    /// `subscription.kind-missing`: the profile has no iOS token of the kind the type is sent to.
    static func kindMissing(_ kind: TokenKind, type: PushType, profile: String, service: Service, appKey: String?)
        -> Finding
    {
        let app = appKey ?? service.iosApps.first?.integrationKey ?? "APP"
        return ProfileRules.kindMissing.finding(
            "profile \(Escape.inline(profile)) has no \(kind.rawValue) token of an iOS app of service \(Escape.inline(service.name))\(appKey.map { " with key \(Escape.inline($0))" } ?? ""), and a \(type.name) push is sent only to those; add one: <subscription app=\"\(Escape.inline(app))\" token=\"…\" kind=\"\(kind.rawValue)\"/> in \(Escape.inline(Profile.path(profile))), or Test devices in the console (Kind)",
            file: Profile.path(profile), field: "subscriptions")
    }
}
