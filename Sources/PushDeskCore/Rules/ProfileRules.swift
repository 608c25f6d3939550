import Foundation

/// Rules over the test devices of profiles (docs/FORMATS.md, docs/RULES.md "Profile rules"): one
/// implementation, used by `validate`, the console and `send` (which blocks on them).
public enum ProfileRules {
    public static let unknownApp = Rule(
        "subscription.unknown-app", .error, .profile, "no app of the store has the subscription's integration key")
    public static let tokenFormat = Rule(
        "subscription.token-format", .error, .profile, "the device token does not fit the app's platform")

    public static let kind = Rule(
        "subscription.kind", .error, .profile, "an iOS token kind on an Android app's subscription")
    public static let kindMissing = Rule(
        "subscription.kind-missing", .error, .profile,
        "send --profile: no iOS subscription of the token kind the push type needs")

    /// Every profile rule, in the order of docs/RULES.md.
    public static let all: [Rule] = [unknownApp, tokenFormat, kind, kindMissing]

    /// Every profile's subscriptions against the store's apps, in profile and file order.
    /// With a service file unreadable (`servicesUnreadable`), a key no readable app has may
    /// well be in it: no `subscription.unknown-app` then (the file's own error says what to fix).
    public static func check(profiles: [Profile], services: [Service], servicesUnreadable: Bool = false) -> [Finding] {
        guard profiles.contains(where: { !$0.subscriptions.isEmpty }) else { return [] }
        let apps = appsByKey(services, only: Set(profiles.flatMap { $0.subscriptions.map(\.app) }))
        var out: [Finding] = []
        for p in profiles {
            for (i, s) in p.subscriptions.enumerated() where apps[s.app] != nil || !servicesUnreadable {
                out += check(s, index: i, profile: p.name, app: apps[s.app])
            }
        }
        return out
    }

    /// The findings of one subscription (the `index`-th of `profile`), `app` being the app
    /// whose integration key it names, nil when the store has none.
    public static func check(_ s: Subscription, index: Int, profile: String, app: MobileApp?) -> [Finding] {
        let file = Profile.path(profile)
        let p = FieldPath.subscription(index)
        guard let app else {
            return [
                unknownApp.finding(
                    "no app of the store has the integration key \"\(Escape.inline(s.app))\"; use the key of one of the store's apps (pushdesk list)",
                    file: file, field: p.appending("app"))
            ]
        }
        if s.kind.iosOnly, app.platform == .android {
            return [
                Self.kind.finding(
                    "a \(s.kind.rawValue) token is an iOS token, but \(Escape.inline(s.app)) is an Android app (FCM has one kind of token); remove kind or move the subscription to the iOS app",
                    file: file, field: p.appending("kind"))
            ]
        }
        // Every iOS kind is an APNs token: the same hex form (docs/FORMATS.md).
        if let problem = tokenProblem(s.token, platform: app.platform) {
            return [tokenFormat.finding(problem, file: file, field: p.appending("token"))]
        }
        return []
    }

    /// Why `token` cannot be a device token of an app of `platform`, nil when it can: an APNs
    /// token is an even number of hex digits, at least 64; an FCM registration token is not
    /// empty and holds no white space or control character.
    public static func tokenProblem(_ token: String, platform: Platform) -> String? {
        switch platform {
        case .ios:
            let hex = token.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
            if !hex || token.utf8.count < 64 || token.utf8.count % 2 != 0 {
                return
                    "the APNs device token \"\(Escape.inline(Subscription.shortened(token)))\" (\(token.count) characters) is not an even number of hexadecimal digits, at least 64; paste the token the app logged from didRegisterForRemoteNotificationsWithDeviceToken"
            }
        case .android:
            if token.isEmpty {
                return
                    "the FCM registration token is empty; paste the token the app got from FirebaseMessaging.getToken()"
            }
            if token.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
            }) {
                return
                    "the FCM registration token holds white space or a control character; paste it again as one unbroken string"
            }
        }
        return nil
    }

    /// Integration key → app, the first app when a key repeats (`integration-key.duplicate` reports that).
    /// With `only`, just those keys: a few test devices against thousands of apps copy a few apps.
    public static func appsByKey(_ services: [Service], only: Set<String>? = nil) -> [String: MobileApp] {
        var apps: [String: MobileApp] = [:]
        for s in services {
            for a in s.apps where apps[a.integrationKey] == nil && only?.contains(a.integrationKey) != false {
                apps[a.integrationKey] = a
            }
        }
        return apps
    }

    /// What the findings of `check(profiles:services:)` depend on in one service: its apps'
    /// integration keys and platforms (an edit elsewhere in it cannot change them).
    public static func sameAppKeys(_ a: Service, _ b: Service) -> Bool {
        a.apps.count == b.apps.count
            && zip(a.apps, b.apps).allSatisfy { $0.integrationKey == $1.integrationKey && $0.platform == $1.platform }
    }
}
