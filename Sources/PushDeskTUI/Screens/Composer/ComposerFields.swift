import PushDeskCore

/// The composer's tabs.
enum ComposerTab: String, CaseIterable {
    case content = "Content"
    case ios = "iOS"
    case android = "Android"
    case variables = "Variables"
}

/// What the fields offer besides the delivery itself: the services to choose from, the
/// delivery's service (its apps' sounds and variables) and the sample profiles.
struct ComposerChoices {
    var services: [String] = []
    var service: Service?
    var profiles: [String] = []
    var profile: String?
}

/// Maps a delivery to the composer's form fields and back. Field ids are the finding
/// paths' names (`title` for `content.title`, `sound` for `ios.sound`, `var.mediaUrl` for
/// `variables.mediaUrl`), so a finding finds its field. Values are stored as typed: the
/// core's rules report a bad number on its field; nothing is checked twice here.
enum ComposerFields {
    static let notSet = "(not set)"
    static let noProfile = "(none)"

    static func fields(_ tab: ComposerTab, _ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        switch tab {
        case .content: content(d, c)
        case .ios: ios(d, c)
        case .android: android(d)
        case .variables: variables(d, c)
        }
    }

    private static func content(_ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        let services = c.services.contains(d.service) || d.service.isEmpty ? c.services : c.services + [d.service]
        return [
            FormField(id: "name", label: "Name", value: d.name, note: "file name"),
            FormField(id: "label", label: "Label", value: d.label),
            FormField(id: "service", label: "Service", kind: .choice(services), value: d.service),
            FormField(id: "title", label: "Title", value: d.content.title),
            FormField(id: "subtitle", label: "Subtitle", value: d.content.subtitle, note: "iOS only"),
            FormField(id: "body", label: "Body", kind: .textArea(rows: 3...8), value: d.content.body),
            FormField(
                id: "profile", label: "Preview as", kind: .choice([noProfile] + c.profiles),
                value: c.profile ?? noProfile,
                note: "sample recipient for <%= recipient.… %>; not saved"),
        ]
    }

    private static func ios(_ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        let o = d.ios
        // The app's sounds plus `default`; a value the apps do not have stays listed (sound.unknown says why).
        var sounds = [notSet, "default"]
        for s in (c.service?.iosApps ?? []).flatMap(\.sounds) where !sounds.contains(s.name) { sounds.append(s.name) }
        if let s = o.sound, !sounds.contains(s) { sounds.append(s) }
        var f = [
            FormField(
                id: "type", label: "Type", kind: .choice(IOSDeliveryType.allCases.map(\.rawValue)),
                value: o.effectiveType.rawValue,
                note: "silent: a background update, no alert"),
            FormField(id: "sound", label: "Sound", kind: .choice(sounds), value: o.sound ?? notSet),
            text("badge", "Badge", o.badge, note: "0 clears it"),
            text("category", "Category", o.category, note: "e.g. image"),
            check("mutableContent", "Mutable content", o.mutableContent, note: "rich: the service extension runs"),
            check("contentAvailable", "Content available", o.contentAvailable, note: "also wake the app"),
            text("threadId", "Thread id", o.threadId),
            choice(
                "interruptionLevel", "Interruption", InterruptionLevel.allCases.map(\.rawValue),
                o.interruptionLevel?.rawValue),
            text("relevanceScore", "Relevance", o.relevanceScore, note: "0…1"),
            text("targetContentId", "Target content id", o.targetContentId),
            text("launchImage", "Launch image", o.launchImage),
            check("critical", "Critical sound", o.critical, note: "needs Apple's entitlement"),
            text("volume", "Critical volume", o.volume, note: "0…1"),
            choice(
                "priority", "Priority", APNsPriority.allCases.map(\.rawValue), o.priority?.rawValue,
                note: "10 now, 5 power-friendly"),
            text("collapseId", "Collapse id", o.collapseId, note: "≤ 64 bytes"),
            text("expiration", "Expiration", o.expiration, note: "2026-12-01T00:00:00Z"),
        ]
        // A silent notification carries only content-available: grey out the rest.
        if o.effectiveType == .silent {
            dim(&f, except: ["type", "priority", "collapseId", "expiration"], note: "not sent: silent")
        }
        return f
    }

    private static func android(_ d: Delivery) -> [FormField] {
        let o = d.android
        var f = [
            FormField(
                id: "type", label: "Type", kind: .choice(AndroidDeliveryType.allCases.map(\.rawValue)),
                value: o.effectiveType.rawValue,
                note: "data: the app draws it"),
            choice("priority", "Priority", AndroidPriority.allCases.map(\.rawValue), o.priority?.rawValue),
            text("ttl", "TTL (seconds)", o.ttl, note: "0…2419200"),
            text("collapseKey", "Collapse key", o.collapseKey),
            text("channelId", "Channel id", o.channelId),
            text("sound", "Sound", o.sound),
            text("icon", "Icon", o.icon, note: "small icon resource"),
            text("color", "Colour", o.color, note: "#RRGGBB"),
            text("tag", "Tag", o.tag),
            text("clickAction", "Click action", o.clickAction),
            text("image", "Image", o.image, note: "https:// URL"),
            text("ticker", "Ticker", o.ticker),
            check("sticky", "Sticky", o.sticky),
            choice("visibility", "Visibility", NotificationVisibility.allCases.map(\.rawValue), o.visibility?.rawValue),
            choice(
                "notificationPriority", "Notif. priority", NotificationPriority.allCases.map(\.rawValue),
                o.notificationPriority?.rawValue),
            text("notificationCount", "Notif. count", o.notificationCount),
        ]
        // A data message carries only data: grey out the notification options.
        if o.effectiveType == .data {
            dim(&f, except: ["type", "priority", "ttl", "collapseKey"], note: "not sent: data message")
        }
        return f
    }

    /// Greys out the fields a delivery of this type does not send, saying why.
    private static func dim(_ fields: inout [FormField], except sent: Set<String>, note: String) {
        for i in fields.indices where !sent.contains(fields[i].id) {
            fields[i].dimmed = true
            fields[i].note = note
        }
    }

    /// Every variable the service's apps declare (in declaration order), then any value the
    /// delivery gives a variable no app declares (so it can be seen and cleared), then tracking.
    private static func variables(_ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        let apps = c.service?.apps ?? []
        var names: [String] = []
        var labels: [String: String] = [:]
        for a in apps {
            for v in a.variables where !names.contains(v.name) {
                names.append(v.name)
                labels[v.name] = v.label
            }
        }
        var f: [FormField] = names.map { name in
            let declaring = apps.filter { $0.variables.contains { $0.name == name } }
            var note = labels[name] ?? ""
            if declaring.count < apps.count {
                note += (note.isEmpty ? "" : "; ") + "only " + declaring.map(\.integrationKey).joined(separator: ", ")
            }
            return FormField(id: "var." + name, label: name, value: d.value(ofVariable: name) ?? "", note: note)
        }
        for v in d.variables where !names.contains(v.name) {
            f.append(FormField(id: "var." + v.name, label: v.name, value: v.value, note: "no app declares it"))
        }
        f.append(
            FormField(
                id: "tracking.messageId", label: "_mId message id", value: d.tracking?.messageId ?? "",
                note: "empty: zeros"))
        f.append(FormField(id: "tracking.deliveryId", label: "_dId delivery id", value: d.tracking?.deliveryId ?? ""))
        return f
    }

    private static func text(_ id: String, _ label: String, _ v: String?, note: String = "") -> FormField {
        FormField(id: id, label: label, value: v ?? "", note: note)
    }
    private static func choice(_ id: String, _ label: String, _ options: [String], _ v: String?, note: String = "")
        -> FormField
    {
        FormField(id: id, label: label, kind: .choice([notSet] + options), value: v ?? notSet, note: note)
    }
    private static func check(_ id: String, _ label: String, _ v: Bool?, note: String = "") -> FormField {
        FormField(id: id, label: label, kind: .checkbox, checked: v == true, note: note)
    }

    // MARK: form → delivery

    /// Writes one field of `tab` into the delivery. `saved` is the delivery as saved: an
    /// unchecked box goes back to `false` only when the file said so, else to "not set", so
    /// toggling twice rewrites identical bytes.
    static func apply(_ tab: ComposerTab, _ id: String, _ v: String, to d: inout Delivery, saved: Delivery?) {
        let opt: String? = v.isEmpty || v == notSet ? nil : v
        func bool(_ old: Bool?) -> Bool? { v == "true" ? true : (old == false ? false : nil) }
        switch tab {
        case .content:
            switch id {
            case "name": d.name = v
            case "label": d.label = v
            case "service": d.service = v
            case "title": d.content.title = v
            case "subtitle": d.content.subtitle = v
            case "body": d.content.body = v
            default: break
            }
        case .ios:
            let old = saved?.ios
            switch id {
            // The default type is written only when the file said it (absent = alert).
            case "type": d.ios.type = v == "alert" && old?.type != .alert ? nil : IOSDeliveryType(rawValue: v)
            case "sound": d.ios.sound = opt
            case "badge": d.ios.badge = opt
            case "category": d.ios.category = opt
            case "mutableContent": d.ios.mutableContent = bool(old?.mutableContent)
            case "contentAvailable": d.ios.contentAvailable = bool(old?.contentAvailable)
            case "threadId": d.ios.threadId = opt
            case "interruptionLevel": d.ios.interruptionLevel = opt.flatMap(InterruptionLevel.init(rawValue:))
            case "relevanceScore": d.ios.relevanceScore = opt
            case "targetContentId": d.ios.targetContentId = opt
            case "launchImage": d.ios.launchImage = opt
            case "critical": d.ios.critical = bool(old?.critical)
            case "volume": d.ios.volume = opt
            case "priority": d.ios.priority = opt.flatMap(APNsPriority.init(rawValue:))
            case "collapseId": d.ios.collapseId = opt
            case "expiration": d.ios.expiration = opt
            default: break
            }
        case .android:
            switch id {
            case "type":
                d.android.type = v == "data" && saved?.android.type != .data ? nil : AndroidDeliveryType(rawValue: v)
            case "priority": d.android.priority = opt.flatMap(AndroidPriority.init(rawValue:))
            case "ttl": d.android.ttl = opt
            case "collapseKey": d.android.collapseKey = opt
            case "channelId": d.android.channelId = opt
            case "sound": d.android.sound = opt
            case "icon": d.android.icon = opt
            case "color": d.android.color = opt
            case "tag": d.android.tag = opt
            case "clickAction": d.android.clickAction = opt
            case "image": d.android.image = opt
            case "ticker": d.android.ticker = opt
            case "sticky": d.android.sticky = bool(saved?.android.sticky)
            case "visibility": d.android.visibility = opt.flatMap(NotificationVisibility.init(rawValue:))
            case "notificationPriority":
                d.android.notificationPriority = opt.flatMap(NotificationPriority.init(rawValue:))
            case "notificationCount": d.android.notificationCount = opt
            default: break
            }
        case .variables:
            if id.hasPrefix("var.") {
                let name = String(id.dropFirst(4))
                if let i = d.variables.firstIndex(where: { $0.name == name }) {
                    // An emptied value is "not set": the entry goes, as if never written.
                    if v.isEmpty { d.variables.remove(at: i) } else { d.variables[i].value = v }
                } else if !v.isEmpty {
                    d.variables.append(VariableValue(name: name, value: v))
                }
            } else if id == "tracking.messageId" || id == "tracking.deliveryId" {
                var t = d.tracking ?? Tracking(messageId: "", deliveryId: "")
                if id == "tracking.messageId" { t.messageId = v } else { t.deliveryId = v }
                d.tracking = t.messageId.isEmpty && t.deliveryId.isEmpty ? nil : t
            }
        }
    }

    /// The tab and field id of a finding's field path (`ios.sound` → iOS / `sound`); the
    /// size finding (`payload`) goes to the body, the biggest lever. nil when the path is
    /// not a field of the delivery.
    static func locate(_ path: String) -> (tab: ComposerTab, id: String)? {
        func after(_ prefix: String) -> String? { path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil }
        if let f = after("content.") { return (.content, f) }
        if let f = after("ios.") { return (.ios, f) }
        if let f = after("android.") { return (.android, f) }
        if let f = after("variables.") { return (.variables, "var." + f) }
        if path.hasPrefix("tracking.") { return (.variables, path) }
        switch path {
        case "payload": return (.content, "body")
        case "name", "label", "service": return (.content, path)
        default: return nil
        }
    }
}
