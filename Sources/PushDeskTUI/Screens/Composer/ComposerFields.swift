import PushDeskCore

/// The composer's tabs.
enum ComposerTab: String, CaseIterable {
    case content = "Content"
    case ios = "iOS"
    /// Only for a delivery of type `liveactivity` (`tabs(for:)`).
    case liveActivity = "Live Activity"
    case android = "Android"
    case variables = "Variables"

    /// The tabs a delivery shows: the Live Activity fields only for that type.
    static func tabs(for d: Delivery) -> [ComposerTab] {
        ComposerFields.isLiveActivity(d) ? allCases : allCases.filter { $0 != .liveActivity }
    }
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
        case .liveActivity: liveActivity(d)
        case .android: android(d)
        case .variables: variables(d, c)
        }
    }

    private static func content(_ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        let services = c.services.contains(d.service) || d.service.isEmpty ? c.services : c.services + [d.service]
        var f = [
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
        // An iOS-only type that does not send a text sends it nowhere (Android gets no request).
        let type = d.ios.effectiveType
        if type.iosOnly {
            dim(&f, note: "not sent: \(type.name)") {
                ["title", "subtitle", "body"].contains($0) && !type.sends(content: $0)
            }
        }
        return f
    }

    private static func ios(_ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        let o = d.ios
        var f = IOSOptions.definitions.map { field($0, o) }
        // The app's sounds plus `default`; a value the apps do not have stays listed (sound.unknown says why).
        var sounds = [notSet, "default"]
        for s in (c.service?.iosApps ?? []).flatMap(\.sounds) where !sounds.contains(s.name) { sounds.append(s.name) }
        if let s = o.sound, !sounds.contains(s) { sounds.append(s) }
        if let i = f.firstIndex(where: { $0.id == "sound" }) { f[i].kind = .choice(sounds) }
        // Grey out what the type does not send (its row in PushType.all says what it sends).
        let type = o.effectiveType
        dim(&f, note: "not sent: \(type.name)") { $0 != "type" && !type.sends(option: $0) }
        if let i = f.firstIndex(where: { $0.id == "type" }) { f[i].note = type.note }
        return f
    }

    static let events = [notSet] + LiveActivityEvent.allCases.map(\.rawValue)

    /// Whether the delivery is a Live Activity (its type's row, docs/PAYLOADS.md).
    static func isLiveActivity(_ d: Delivery) -> Bool { d.ios.effectiveType.payload == .liveActivity }

    /// The `<liveActivity>` attributes, then its two JSON texts in editors; a text that does
    /// not read shows `liveactivity.json`'s message, with the line:column inside the text,
    /// under its editor (the preview's findings, `update`).
    private static func liveActivity(_ d: Delivery) -> [FormField] {
        let la = d.liveActivity ?? LiveActivity(contentState: "")
        var f = LiveActivity.definitions.map { field($0, la) }
        if let i = f.firstIndex(where: { $0.id == "event" }) {
            let v = la.event ?? notSet
            f[i].kind = .choice(events.contains(v) ? events : events + [v])
            f[i].value = v
        }
        for t in LiveActivity.texts {
            f.append(
                FormField(
                    id: t.name, label: t.label, kind: .textArea(rows: 3...8), value: la[keyPath: t.text] ?? "",
                    note: t.name == "contentState" ? "JSON object, sent as written" : "start: JSON object"))
        }
        return f
    }

    private static func android(_ d: Delivery) -> [FormField] {
        var f = AndroidOptions.definitions.map { field($0, d.android) }
        // A data message carries only data: grey out the notification options.
        if d.android.effectiveType == .data {
            dim(&f, note: "not sent: data message") { AndroidOptions.definitions.named($0)?.notificationOnly ?? false }
        }
        // Android apps get no request for an iOS-only type.
        let type = d.ios.effectiveType
        if type.iosOnly { dim(&f, note: "not sent: \(type.name) is iOS only") { _ in true } }
        return f
    }

    /// An option's field, from its definition. A choice with a default shows the default
    /// when not set; one without offers "(not set)".
    private static func field<R>(_ o: FieldDefinition<R>, _ r: R) -> FormField {
        let v = o.text(r)
        switch o.kind {
        case .text, .path, .secret, .number: return FormField(id: o.name, label: o.label, value: v ?? "", note: o.note)
        case .flag, .bool:
            return FormField(id: o.name, label: o.label, kind: .checkbox, checked: v == "true", note: o.note)
        case .choice(let values, let dflt?):
            return FormField(id: o.name, label: o.label, kind: .choice(values), value: v ?? dflt, note: o.note)
        case .choice(let values, nil):
            return FormField(
                id: o.name, label: o.label, kind: .choice([notSet] + values), value: v ?? notSet, note: o.note)
        }
    }

    /// Greys out the fields a delivery of this type does not send (by field id), saying why.
    private static func dim(_ fields: inout [FormField], note: String, _ notSent: (String) -> Bool) {
        for i in fields.indices where notSent(fields[i].id) {
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

    // MARK: form → delivery

    /// Writes one field of `tab` into the delivery. `saved` is the delivery as saved: an
    /// unchecked box goes back to `false` only when the file said so, else to "not set", so
    /// toggling twice rewrites identical bytes.
    static func apply(_ tab: ComposerTab, _ id: String, _ v: String, to d: inout Delivery, saved: Delivery?) {
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
            if let o = IOSOptions.definitions.named(id) { apply(o, v, to: &d.ios, saved: saved?.ios) }
        case .liveActivity:
            var la = d.liveActivity ?? LiveActivity(contentState: "")
            if let o = LiveActivity.definitions.named(id) {
                apply(o, v, to: &la, saved: saved?.liveActivity)
            } else if let t = LiveActivity.texts.first(where: { $0.name == id }) {
                // An emptied `<attributes>` is no element; `<contentState>` is always written.
                la[keyPath: t.text] = v.isEmpty && id == "attributes" ? nil : v
            }
            d.liveActivity = la
        case .android:
            if let o = AndroidOptions.definitions.named(id) { apply(o, v, to: &d.android, saved: saved?.android) }
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

    /// One option from its field's text. A default (a choice's, `false`) is written only
    /// when the saved file said it, so choosing it back rewrites identical bytes.
    private static func apply<R>(_ o: FieldDefinition<R>, _ v: String, to r: inout R, saved: R?) {
        let old = saved.flatMap(o.text)
        switch o.kind {
        case .text, .path, .secret, .number: o.set(&r, v.isEmpty || v == notSet ? nil : v)
        case .flag, .bool: o.set(&r, v == "true" ? "true" : (old == "false" ? "false" : nil))
        case .choice(_, let dflt):
            o.set(&r, v == notSet || (v == dflt && old != dflt) ? nil : v)
        }
    }

    /// The tab and field id of a finding's field path (`ios.sound` → iOS / `sound`); the
    /// size finding (`payload`) goes to the body, the biggest lever. nil when the path is
    /// not a field of the delivery.
    static func locate(_ path: FieldPath) -> (tab: ComposerTab, id: String)? {
        let inside = path.tail.description
        switch (path.head, path.steps.count) {
        case ("content", 2...): return (.content, inside)
        case ("ios", 2...): return (.ios, inside)
        case ("liveActivity", 2...): return (.liveActivity, inside)
        case ("android", 2...): return (.android, inside)
        case ("variables", 2...): return (.variables, "var." + inside)
        case ("tracking", 2...): return (.variables, path.description)
        case ("payload", 1): return (.content, "body")
        case ("name", 1), ("label", 1), ("service", 1): return (.content, path.head)
        default: return nil
        }
    }
}
