import PushDeskCore

/// The composer's tabs.
enum ComposerTab: String, CaseIterable {
    case content = "Content"
    case ios = "iOS"
    /// Only for a delivery of type `liveactivity` (`tabs(for:)`).
    case liveActivity = "Live Activity"
    case android = "Android"
    case variables = "Variables"
    /// The delivery's languages: a table of its variants (`LanguagesTab`), no form.
    case languages = "Languages"

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
    /// The variant being edited (its index in `variants`); nil: the default (`<content>`).
    var language: Int?
}

/// Maps a delivery to the composer's form fields and back. Field ids are the finding
/// paths' names (`title` for `content.title`, `sound` for `ios.sound`, `var.mediaUrl` for
/// `variables.mediaUrl`), so a finding finds its field. Values are stored as typed: the
/// core's rules report a bad number on its field; nothing is checked twice here.
enum ComposerFields {
    static let notSet = "(not set)"
    static let noProfile = "(none)"
    /// The language selector's name for `<content>`.
    static let defaultLanguage = "default"

    static func fields(_ tab: ComposerTab, _ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        switch tab {
        case .content: content(d, c)
        case .ios: ios(d, c)
        case .liveActivity: liveActivity(d)
        case .android: android(d)
        case .variables: variables(d, c)
        case .languages: []
        }
    }

    /// The variant `c` names, when it is one of `d`'s.
    private static func variant(_ d: Delivery, _ c: ComposerChoices) -> DeliveryVariant? {
        c.language.flatMap { d.variants.indices.contains($0) ? d.variants[$0] : nil }
    }

    private static func content(_ d: Delivery, _ c: ComposerChoices) -> [FormField] {
        let services = c.services.contains(d.service) || d.service.isEmpty ? c.services : c.services + [d.service]
        var f = [
            FormField(id: "name", label: "Name", value: d.name, note: "file name"),
            FormField(id: "label", label: "Label", value: d.label),
            FormField(id: "service", label: "Service", kind: .choice(services), value: d.service),
        ]
        // A delivery in one language has nothing to choose (F7 and the Languages tab add one).
        let v = variant(d, c)
        if !d.variants.isEmpty {
            f.append(
                FormField(
                    id: "language", label: "Language", kind: .choice([defaultLanguage] + d.variants.map(\.locale)),
                    value: v?.locale ?? defaultLanguage, note: "the texts and values edited (F7)"))
        }
        // A variant's texts replace the default's as a set; each field names the default's text.
        func note(_ text: DeliveryText, _ other: String = "") -> String {
            guard v != nil else { return other }
            let base = text.value(in: d.content)
            // Bounded: a text field's note takes columns from its value.
            let was = TextWidth.truncate(base.isEmpty ? "default: none" : "default: " + oneLine(base), to: 24)
            return (other.isEmpty ? "" : other + "; ") + was
        }
        let texts: any DeliveryTexts = v ?? d.content
        f += [
            FormField(id: "title", label: "Title", value: texts.title, note: note(.title)),
            FormField(id: "subtitle", label: "Subtitle", value: texts.subtitle, note: note(.subtitle, "iOS only")),
            FormField(id: "body", label: "Body", kind: .textArea(rows: 3...8), value: texts.body, note: note(.body)),
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
        if let v = variant(d, c) { inherit(&f, variant: v, names: names + d.variables.map(\.name)) }
        f.append(
            FormField(
                id: "tracking.messageId", label: "_mId message id", value: d.tracking?.messageId ?? "",
                note: "empty: zeros"))
        f.append(FormField(id: "tracking.deliveryId", label: "_dId delivery id", value: d.tracking?.deliveryId ?? ""))
        return f
    }

    /// A variant's values: its own where it sets one, else the default's, marked inherited —
    /// typing sets its own, emptying it (Ctrl-U) gives the default's back.
    private static func inherit(_ f: inout [FormField], variant v: DeliveryVariant, names: [String]) {
        for i in f.indices where f[i].id.hasPrefix("var.") {
            let name = String(f[i].id.dropFirst(4))
            if let own = v.variables.first(where: { $0.name == name && !$0.value.isEmpty }) {
                f[i].value = own.value
                f[i].note = "own; Ctrl-U: default"
            } else if !f[i].value.isEmpty {
                f[i].note = "inherited"
                f[i].inherited = true
            }
        }
        for own in v.variables where !own.value.isEmpty && !names.contains(own.name) {
            f.insert(
                FormField(id: "var." + own.name, label: own.name, value: own.value, note: "own; no app declares it"),
                at: f.firstIndex { $0.id == "tracking.messageId" } ?? f.endIndex)
        }
    }

    private static func oneLine(_ s: String) -> String { s.replacingOccurrences(of: "\n", with: " ") }

    // MARK: form → delivery

    /// Writes one field of `tab` into the delivery. `saved` is the delivery as saved: an
    /// unchecked box goes back to `false` only when the file said so, else to "not set", so
    /// toggling twice rewrites identical bytes.
    /// `language` is the variant being edited (its index): its texts and its own values.
    static func apply(
        _ tab: ComposerTab, _ id: String, _ v: String, to d: inout Delivery, saved: Delivery?, language: Int? = nil
    ) {
        if let li = language, d.variants.indices.contains(li) {
            switch (tab, id) {
            case (.content, "title"), (.content, "subtitle"), (.content, "body"):
                if let text = DeliveryText(rawValue: id) { text.set(v, in: &d.variants[li]) }
                return
            case (.variables, _) where id.hasPrefix("var."):
                setValue(String(id.dropFirst(4)), v, in: &d.variants[li].variables)
                return
            default: break
            }
        }
        switch tab {
        case .languages: break
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
                setValue(String(id.dropFirst(4)), v, in: &d.variables)
            } else if id == "tracking.messageId" || id == "tracking.deliveryId" {
                var t = d.tracking ?? Tracking(messageId: "", deliveryId: "")
                if id == "tracking.messageId" { t.messageId = v } else { t.deliveryId = v }
                d.tracking = t.messageId.isEmpty && t.deliveryId.isEmpty ? nil : t
            }
        }
    }

    /// An emptied value is "not set": the entry goes, as if never written.
    private static func setValue(_ name: String, _ v: String, in values: inout [VariableValue]) {
        if let i = values.firstIndex(where: { $0.name == name }) {
            if v.isEmpty { values.remove(at: i) } else { values[i].value = v }
        } else if !v.isEmpty {
            values.append(VariableValue(name: name, value: v))
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
        if language(of: path) != nil {
            // `variant[de].title` is de's title; `variant[de].values.x` its value; its locale the tab's row.
            let inner = FieldPath(Array(path.steps.dropFirst(2)))
            switch (inner.head, inner.steps.count) {
            case ("title", 1), ("subtitle", 1), ("body", 1): return (.content, inner.head)
            case ("values", 2...): return (.variables, "var." + inner.tail.description)
            default: return (.languages, LanguagesTab.tableID)
            }
        }
        switch (path.head, path.steps.count) {
        case ("variants", 1): return (.languages, LanguagesTab.tableID)
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

    /// The variant a finding's path is in (`variant[de].title` → `de`); nil for the default's fields.
    static func language(of path: FieldPath) -> String? {
        guard path.steps.count >= 2, path.steps[0] == .name("variant"), case .key(let tag) = path.steps[1] else {
            return nil
        }
        return tag
    }
}
