import PushDeskCore

/// Edits one test device of the profile being edited (a `<subscription>`, docs/FORMATS.md): the
/// app, picked from the store's apps by label (Enter lists them), the token (a pasted token
/// loses the white space and line breaks around it), an optional label and user key, the
/// token's kind (docs/FORMATS.md: which push types it receives) and the device's language
/// (`locale`: which variant of a delivery it gets; empty, the recipient's). The
/// rules' findings show under their field as the operator types. Shares the profile
/// editor's session: Ctrl-S here saves the profile, Esc goes back to it.
final class DeviceEditorScreen: StatefulScreen, Asking {
    let s: EditSession<Profile>
    var session: (any DraftSession)? { s }
    let index: Int
    struct View {
        var form = Form([
            FormField(id: "app", label: "App", kind: .choice([])),
            FormField(id: "token", label: "Token", note: "paste it"),
            FormField(id: "label", label: "Label", note: "optional"),
            FormField(id: "userKey", label: "User key", note: "optional"),
            FormField(
                id: "kind", label: "Kind", kind: .choice(TokenKind.allCases.map(\.rawValue)), value: "device",
                note: "which push token (device for alerts)"),
            FormField(id: "locale", label: "Language", note: "e.g. de, pt-BR, zh-Hant-TW"),
        ])
    }
    var view = View()
    var form: Form {
        get { view.form }
        set { view.form = newValue }
    }
    private var seenVersion = -1
    /// The store's apps as the App field offers them (labels; Enter shows platform and key too).
    private var apps: [(key: String, text: String)] = []
    private var appLabels: [String] = []

    init(session: EditSession<Profile>, index: Int) {
        self.s = session
        self.index = index
    }

    var device: Subscription? { s.draft.subscriptions.indices.contains(index) ? s.draft.subscriptions[index] : nil }
    var title: String {
        let name = s.draft.name.isEmpty ? "new profile" : s.draft.name
        let device = device.map { $0.label ?? ($0.token.isEmpty ? "new device" : $0.shortToken) } ?? "(removed)"
        return "Test devices › \(Escape.inline(name)) › \(Escape.inline(device))"
    }
    var contexts: [KeyContext] { [.form] }
    var textFocused: Bool { form.focused?.isTextual ?? false }
    var focus: ScreenFocus { ScreenFocus(field: form.focused?.id, stops: form.fields.count) }

    private func sync(_ app: AppContext) {
        guard seenVersion != s.version || apps.isEmpty, let d = device else { return }
        seenVersion = s.version
        apps = ProfileEditorScreen.appChoices(app: app)
        appLabels = apps.map { ProfileEditorScreen.appLabel($0.key, app: app) }
        let current = ProfileEditorScreen.appLabel(d.app, app: app)
        let options = appLabels.contains(current) ? appLabels : appLabels + [current]
        if let i = form.fields.firstIndex(where: { $0.id == "app" }) { form.fields[i].kind = .choice(options) }
        form["app"] = current
        if form["token"] != d.token { form["token"] = d.token }
        if form["label"] != (d.label ?? "") { form["label"] = d.label ?? "" }
        if form["userKey"] != (d.userKey ?? "") { form["userKey"] = d.userKey ?? "" }
        if form["kind"] != d.kind.rawValue { form["kind"] = d.kind.rawValue }
        if form["locale"] != (d.locale ?? "") { form["locale"] = d.locale ?? "" }
    }

    func handleText(_ key: Key, app: AppContext) -> Bool {
        sync(app)
        var key = key
        pastedNote = nil
        if form.focused?.id == "token", case .paste(let text) = key {
            let clean = Self.cleanPastedToken(text, ios: isIOS(app))
            if clean != text.trimmingCharacters(in: .whitespacesAndNewlines) {
                pastedNote = "Pasted as NSData prints it (<… …>): kept the hexadecimal digits only."
            }
            key = .paste(clean)
        }
        let typed = form.handleText(key)
        if let id = typed.changedField { apply(id, app: app) }
        return typed.used
    }

    private func apply(_ id: String, app: AppContext) {
        let v = form[id]
        let i = index
        s.edit("subscriptions[\(i)].\(id)") { d in
            guard d.subscriptions.indices.contains(i) else { return }
            switch id {
            case "app":
                // Space cycles the labels: the label picked stands for its app's key.
                if let k = appLabels.firstIndex(of: v) { d.subscriptions[i].app = apps[k].key }
            case "token": d.subscriptions[i].token = v
            case "label": d.subscriptions[i].label = v.isEmpty ? nil : v
            case "userKey": d.subscriptions[i].userKey = v.isEmpty ? nil : v
            case "kind": d.subscriptions[i].kind = TokenKind(rawValue: v) ?? .device
            case "locale": d.subscriptions[i].locale = v.isEmpty ? nil : v
            default: break
            }
        }
        seenVersion = -1
        sync(app)
    }

    /// Said once after a paste that was cleaned more than trimmed (shown under the form).
    private var pastedNote: String?

    private func isIOS(_ app: AppContext) -> Bool {
        guard let d = device else { return false }
        return app.services.app(integrationKey: d.app)?.platform == .ios
    }

    /// A pasted token without the white space and line breaks around it. For an iOS app, a
    /// token pasted as `NSData`'s description (`<a1b2c3d4 e5f60718 …>`, what apps logged
    /// before iOS 13) keeps its hexadecimal digits only; anything else is kept as pasted,
    /// for the rules to judge.
    static func cleanPastedToken(_ text: String, ios: Bool) -> String {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard ios, t.hasPrefix("<"), t.hasSuffix(">") else { return t }
        let inner = t.dropFirst().dropLast().filter { $0 != " " }
        return inner.allSatisfy(\.isHexDigit) && !inner.isEmpty ? String(inner) : t
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        sync(app)
        pastedNote = nil
        switch action {
        case .save: return .save(s)
        case .undo:
            guard s.undo() else { return .say("Nothing to undo.") }
            // Undoing the device's addition leaves nothing to edit here: back to the profile.
            return device == nil ? .all([.pop, .say("Undone: the device is not added.")]) : .say("Undone.")
        default: break
        }
        guard device != nil else { return nil }
        switch form.handle(action) {
        case .changed(let id):
            apply(id, app: app)
            return Effect.none
        case .pick("app"):
            return ProfileEditorScreen.askApp(self, app: app, title: "App of this device", selected: device?.app) {
                $0.map(Reply.app) ?? .keep
            }
        case .unhandled: return nil
        default: return Effect.none
        }
    }

    enum Reply {
        case app(String)
        case keep
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .app(let key):
            let i = index
            s.edit(nil) { d in if d.subscriptions.indices.contains(i) { d.subscriptions[i].app = key } }
            sync(app)
            form.focus(id: "token")
        case .keep: break
        }
        return .none
    }

    func click(x: Int, y: Int, app: AppContext) -> Effect? { form.click(x: x, y: y) ? Effect.none : nil }

    /// The draft into the form; each rule finding under its field.
    func update(_ rect: Rect, app: AppContext) {
        sync(app)
        form.clearMessages()
        guard let d = device else { return }
        let a = app.services.app(integrationKey: d.app)
        if let i = form.fields.firstIndex(where: { $0.id == "app" }) {
            form.fields[i].note =
                a.map { a in
                    switch a {
                    case .ios(let i): "iOS \(i.environment.rawValue) · \(Escape.inline(a.integrationKey))"
                    case .android: "Android · \(Escape.inline(a.integrationKey))"
                    }
                } ?? "Enter: pick one of the store's apps"
        }
        // The push types this kind of token receives (docs/FORMATS.md), from their rows.
        if let i = form.fields.firstIndex(where: { $0.id == "kind" }) {
            let types = PushType.all.filter { $0.tokenKinds.contains(d.kind) }.map(\.name)
            form.fields[i].note =
                d.kind == .fid
                ? "installation ID: alert, silent as message.fid"
                : "receives " + types.joined(separator: ", ")
        }
        if let i = form.fields.firstIndex(where: { $0.id == "locale" }) {
            form.fields[i].note = Self.languageNote(d, profile: s.draft)
        }
        let own = ProfileRules.localeFindings(s.draft).filter { $0.field.index(in: "subscriptions") == index }
        for f in ProfileRules.check(d, index: index, profile: s.draft.name, app: a) + own {
            form.setMessage(
                f.field.leaf, "\(f.severity.rawValue): \(f.message) [\(f.rule)]",
                role: f.severity == .error ? .findingError : .findingWarning)
        }
    }

    /// What the Language field means for this device: the variant it is sent by, or where
    /// an empty field takes its language from (docs/FORMATS.md, "Languages").
    static func languageNote(_ d: Subscription, profile: Profile) -> String {
        if let own = d.locale, !own.isEmpty {
            guard let tag = LocaleTag(own) else { return "language[-Script][-REGION]" }
            guard tag.description == own else { return "saved as \(tag)" }
            return "variant: " + (tag.lookupChain.map(\.description) + ["default"]).joined(separator: " › ")
        }
        if let recipient = profile.value(of: "locale").flatMap(LocaleTag.init) {
            return "empty: the recipient's, \(recipient)"
        }
        return "empty: the recipient's (none: the default text)"
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        let (main, foot) = rect.splitTop(min(v.form.height(width: rect.width - 2) + 2, rect.height - 1))
        buf.box(main, role: .borderFocus, title: "Test device")
        v.form.render(into: &buf, main.inset(1), focused: true)
        let token = device?.token ?? ""
        buf.put(
            pastedNote ?? "", x: foot.x + 1, y: foot.y + 1, role: .muted, maxX: foot.maxX)
        buf.put(
            token.isEmpty
                ? "APNs: the token from didRegisterForRemoteNotificationsWithDeviceToken; FCM: from getToken()."
                : "Token: \(token.count) characters, shown in lists as \(Escape.inline(Subscription.shortened(token))).",
            x: foot.x + 1, y: foot.y, role: .muted, maxX: foot.maxX)
    }
}
