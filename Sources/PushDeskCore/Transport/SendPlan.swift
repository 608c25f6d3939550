import Foundation

/// What `pushdesk send` will send, decided before any byte leaves (SPEC §8.1): one previewed
/// target per device, and the error findings that block the whole send.
public struct SendPlan: Sendable {
    public struct Item: Sendable {
        public var target: PreviewTarget
        public var app: MobileApp
        public var token: String
        /// The profile and device label, nil with `--app --token`.
        public var profile: String?
        public var device: String?
        /// This target's `_mId` (SPEC §8.1): fresh for every target, in the payload too.
        public var messageId: String
        /// The channel id of a broadcast (SPEC §12.4); nil for a device request.
        public var channel: String? = nil
        /// A Live Activity's `aps.timestamp` as built (SPEC §12.2); nil for other types.
        public var timestamp: Int64? {
            if case .number(let n)? = target.payload["aps"]?["timestamp"] { return Int64(n) }
            return nil
        }
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
    /// `appKey` + `token`. `allServices` decide whether a subscription's app exists. Every
    /// target is previewed with its own `messageId()` as `_mId`, as Campaign gives every
    /// message its own broadlog id. A Live Activity's `timestamp` is `now`'s second: the
    /// plan is made just before its requests go out.
    public static func make(
        delivery: Delivery, service: Service, profile: Profile?, appKey: String?, token: String?,
        allServices: [Service], now: Date, position: ([Finding]) -> [Finding] = { $0 },
        messageId: () -> String = newMessageId
    ) -> SendPlan {
        var plan = SendPlan(delivery: delivery.name, service: service.name)
        let at = Int64(now.timeIntervalSince1970.rounded(.down))
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
            for (i, s) in profile.subscriptions.enumerated() {
                guard let app = service.app(integrationKey: s.app), appKey == nil || appKey == s.app else { continue }
                for f in position(ProfileRules.check(s, index: i, profile: profile.name, app: apps[s.app] ?? app))
                where f.severity == .error {
                    plan.blocked.append((s.app, f))
                }
                let id = messageId()
                let p = PreviewEngine.preview(
                    delivery: delivery, service: service, profile: profile, appKey: s.app, token: s.token, now: now,
                    messageId: id, at: at)
                addTopLevel(p.diagnostics)
                if let t = p.targets.first {
                    add(t, app: app, token: s.token, profile: profile.name, device: s.label, id: id)
                }
            }
        } else if let appKey, let token, let app = service.app(integrationKey: appKey) {
            let id = messageId()
            let p = PreviewEngine.preview(
                delivery: delivery, service: service, profile: nil, appKey: appKey, token: token, now: now,
                messageId: id, at: at)
            addTopLevel(p.diagnostics)
            if let t = p.targets.first { add(t, app: app, token: token, profile: nil, device: nil, id: id) }
        }
        plan.blocked = topLevel.map { (nil, $0) } + plan.blocked
        return plan
    }

    /// A broadcast of a Live Activity update or end to one channel of `app` (SPEC §12.4):
    /// one item, blocked by the error findings of its preview.
    public static func broadcast(
        delivery: Delivery, service: Service, app: IOSApp, channel: BroadcastChannel, now: Date, at: Int64? = nil,
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
}
