import Foundation

/// Rules over the test devices of profiles (docs/FORMATS.md, docs/RULES.md "Profile rules"): one
/// implementation, used by `validate`, the console and `send` (which blocks on them).
public enum ProfileRules {
    public static let unknownApp = Rule(
        "subscription.unknown-app", .error, .profile, "no app of the store has the subscription's integration key")
    public static let tokenFormat = Rule(
        "subscription.token-format", .error, .profile, "the device token does not fit the app's platform")

    public static let kind = Rule(
        "subscription.kind", .error, .profile,
        "an iOS token kind on an Android app's subscription, or an installation ID (fid) on an iOS app's")
    public static let kindMissing = Rule(
        "subscription.kind-missing", .error, .profile,
        "send --profile: no iOS subscription of the token kind the push type needs")

    /// Every profile rule, in the order of docs/RULES.md.
    public static let fidAndToken = Rule(
        "subscription.fid-and-token", .warning, .profile,
        "one installation registered with both its FCM token and its installation ID")

    public static let locale = Rule(
        "subscription.locale", .error, .profile, "a subscription's or the recipient's locale is no language tag")

    public static let all: [Rule] = [unknownApp, tokenFormat, kind, kindMissing, fidAndToken, locale]

    /// `subscription.locale`: the recipient's `locale` field, then each subscription's
    /// `locale`, that is set and is no tag.
    public static func localeFindings(_ p: Profile) -> [Finding] {
        var out: [Finding] = []
        func check(_ text: String?, _ field: @autoclosure () -> FieldPath, _ whose: String) {
            guard let text, !text.isEmpty, LocaleTag(text) == nil else { return }
            out.append(
                locale.finding(
                    "\(whose) locale \"\(Escape.inline(text))\" is no language tag; write language[-Script][-REGION], e.g. de, pt-BR, zh-Hant-TW (_ for - is fine)",
                    file: Profile.path(p.name), field: field()))
        }
        check(p.value(of: "locale"), "locale", "the recipient's")
        for (i, s) in p.subscriptions.enumerated() {
            check(s.locale, FieldPath.subscription(i).appending("locale"), "the device's")
        }
        return out
    }

    /// Every profile's subscriptions against the store's apps, in profile and file order.
    /// With a service file unreadable (`servicesUnreadable`), a key no readable app has may
    /// well be in it: no `subscription.unknown-app` then (the file's own error says what to fix).
    public static func check(profiles: [Profile], services: [Service], servicesUnreadable: Bool = false) -> [Finding] {
        guard profiles.contains(where: { !$0.subscriptions.isEmpty }) else { return profiles.flatMap(localeFindings) }
        let apps = appsByKey(services, only: Set(profiles.flatMap { $0.subscriptions.map(\.app) }))
        var out: [Finding] = []
        for p in profiles {
            for (i, s) in p.subscriptions.enumerated() where apps[s.app] != nil || !servicesUnreadable {
                out += check(s, index: i, profile: p.name, app: apps[s.app])
            }
            out += fidAndToken(p)
            out += localeFindings(p)
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
        if s.kind == .fid, app.platform == .ios {
            return [
                Self.kind.finding(
                    "an installation ID (fid) belongs to an Android app, but \(Escape.inline(s.app)) is an iOS app; remove kind or move the subscription to the Android app",
                    file: file, field: p.appending("kind"))
            ]
        }
        if s.kind == .fid, let problem = fidProblem(s.token) {
            return [tokenFormat.finding(problem, file: file, field: p.appending("token"))]
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

    /// `subscription.fid-and-token` (docs/SENDING.md): a `device` token of an app whose part before
    /// its first `:` is one of that app's `fid` subscriptions — an FCM registration token
    /// starts with the installation's FID, and once a send to the FID succeeds the old token
    /// stops working.
    public static func fidAndToken(_ p: Profile) -> [Finding] {
        var fids: [String: [String: Int]] = [:]
        for (i, s) in p.subscriptions.enumerated() where s.kind == .fid && fids[s.app]?[s.token] == nil {
            fids[s.app, default: [:]][s.token] = i
        }
        guard !fids.isEmpty else { return [] }
        var out: [Finding] = []
        for (i, s) in p.subscriptions.enumerated() where s.kind == .device {
            guard let colon = s.token.firstIndex(of: ":"), let j = fids[s.app]?[String(s.token[..<colon])] else {
                continue
            }
            out.append(
                fidAndToken.finding(
                    "subscription \(i) (\(Escape.inline(Subscription.shortened(s.token)))) is the registration token of the installation that subscription \(j) names by its installation ID: once a send to the FID succeeds, this token stops working; remove this subscription and keep the fid one",
                    file: Profile.path(p.name), field: FieldPath.subscription(i).appending("token")))
        }
        return out
    }

    /// Why `fid` is not a Firebase installation ID (docs/SENDING.md): 22 characters,
    /// `^[cdef][A-Za-z0-9_-]{21}$`; nil when it is one.
    public static func fidProblem(_ fid: String) -> String? {
        if isFID(fid) { return nil }
        return
            "the installation ID \"\(Escape.inline(Subscription.shortened(fid)))\" (\(fid.count) characters) is not a Firebase installation ID (22 characters: c, d, e or f, then letters, digits, - or _); paste the FID the app got from FirebaseInstallations.getId() or onRegistered"
    }

    /// `^[cdef][A-Za-z0-9_-]{21}$`.
    public static func isFID(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count == 22,
            [UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "e"), UInt8(ascii: "f")].contains(u[0])
        else { return false }
        return u.dropFirst().allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "-")
                || b == UInt8(ascii: "_")
        }
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
