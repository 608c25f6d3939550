import Foundation

/// The rules a delivery's push type brings (docs/PAYLOADS.md), read from its row in `PushType.all`:
/// what the type does not send, the priorities it allows, the auth it needs, the topic a
/// certificate must list. `silent` keeps its pinned ids (`silent.content`,
/// `priority.background`); `size.limit` takes the type's limit in the preview.
extension DeliveryRules {
    public static let typeIgnoredOption = Rule(
        "type.ignored-option", .warning, .target, "a content field or iOS option the push type does not send")
    public static let typePriority = Rule(
        "type.priority", .error, .target, "an iOS priority the push type does not allow")
    public static let typeTokenAuth = Rule(
        "type.token-auth", .error, .target, "a token-only push type on an iOS app with certificate auth")
    public static let liveActivityJSON = Rule(
        "liveactivity.json", .error, .target, "a Live Activity's content state or attributes is no JSON object")
    public static let typeCertificateTopic = Rule(
        "type.certificate-topic", .error, .credential, "the app's certificate does not list the push type's topic")

    /// Options a silent delivery reports by their own rule (`silent.content`, `mutable.no-alert`)
    /// or that cost nothing there (content-available is sent anyway).
    static let silentOwnRule: Set<String> = ["sound", "badge", "mutableContent", "contentAvailable"]

    /// `type.certificate-topic`: the certificate's topics lack `topic`, the `apns-topic` of a
    /// request of push type `apnsPushType`; nil when they list it. `topics` are those
    /// `credentials check` reads from the certificate.
    public static func certificateTopicProblem(topic: String, apnsPushType: String, topics: [String]) -> String? {
        guard !topics.contains(topic) else { return nil }
        let listed = topics.isEmpty ? "no topic" : topics.map { Escape.inline($0) }.joined(separator: ", ")
        return
            "the app's certificate lists \(listed), not \(Escape.inline(topic)), the topic of a \(Escape.inline(apnsPushType)) push: APNs would refuse it (TopicDisallowed); use a certificate made for that topic, or token auth (a .p8 key sends every type)"
    }

    /// What each push type needs of an iOS app's credential, for `credentials check`: the
    /// types it can send, and for each other one why not. `topics` is nil for token auth.
    public static func pushTypes(bundleId: String, topics: [String]?) -> (can: [PushType], cannot: [(PushType, String)])
    {
        var can: [PushType] = []
        var cannot: [(PushType, String)] = []
        for type in PushType.all {
            if let topics {
                if type.tokenAuthOnly {
                    cannot.append((type, "token auth only"))
                } else if !topics.contains(type.topic(bundleId: bundleId)) {
                    cannot.append((type, "topic \(type.topic(bundleId: bundleId)) not in the certificate"))
                } else {
                    can.append(type)
                }
            } else {
                can.append(type)
            }
        }
        return (can, cannot)
    }
}

/// The rows the push type's row brings to an iOS target (`RuleCatalog.iosTargetChecks`).
enum PushTypeRules {
    typealias R = DeliveryRules

    /// What the type does not send: content texts (an iOS-only type), options, custom keys.
    static let ignoredOption = RuleCheck<IOSTarget>([R.typeIgnoredOption]) { t, out in
        let type = t.type
        func ignored(_ field: FieldPath, _ what: String) {
            out.append(
                t.finding(
                    R.typeIgnoredOption, field,
                    "not sent: a \(type.name) push carries no \(what); remove it or choose a type that sends it"))
        }
        // Texts a silent push cannot carry are silent.content errors already; the texts of
        // alert and silent still go to Android apps.
        if type.iosOnly {
            let c = t.content
            for (name, text) in [("title", c.title), ("subtitle", c.subtitle), ("body", c.body)]
            where !text.isEmpty && !type.sends(content: name) {
                ignored(FieldPath("content", name), name)
            }
        }
        for o in IOSOptions.definitions
        where o.name != "type" && !type.sends(option: o.name) && o.isSet(in: t.ios)
            && !(type == .silent && R.silentOwnRule.contains(o.name))
        {
            ignored(o.field, o.name)
        }
        if !type.customKeys {
            var seen: [String] = []
            for v in t.delivery.variables where !v.value.isEmpty && !seen.contains(v.name) {
                seen.append(v.name)
                ignored(FieldPath("variables", v.name), "custom keys (variable \(Escape.inline(v.name)))")
            }
        }
    }

    /// A priority the type does not allow; a silent push keeps its pinned `priority.background`.
    static let priority = RuleCheck<IOSTarget>([R.priorityBackground, R.typePriority]) { t, out in
        let type = t.type
        guard let p = t.ios.priority, !type.priorities.contains(p) else { return }
        if type == .silent {
            out.append(
                t.finding(
                    R.priorityBackground, "ios.priority",
                    "APNs requires priority 5 for background notifications (10 is an error, 1 is not allowed here); set priority=\"5\" or leave it unset"
                ))
        } else {
            let allowed = type.priorities.map(\.rawValue).joined(separator: " or ")
            out.append(
                t.finding(
                    R.typePriority, "ios.priority",
                    "APNs refuses priority \(p.rawValue) for a \(type.name) push (BadPriority); set \(allowed), or leave it unset (\(type.defaultPriority.rawValue))"
                ))
        }
    }

    static let tokenAuth = RuleCheck<IOSTarget>([R.typeTokenAuth]) { t, out in
        guard t.type.tokenAuthOnly, case .certificate = t.app.auth else { return }
        out.append(
            t.finding(
                R.typeTokenAuth, "ios.type",
                "APNs accepts a \(t.type.name) push only with token auth, and app \(Escape.inline(t.app.integrationKey)) uses a certificate; give the app a .p8 key (auth mode=\"token\") or choose another type"
            ))
    }
}
