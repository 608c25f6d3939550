import PushDeskCore

/// Edits one profile (docs/FORMATS.md): its name, its recipient fields (form) and its test devices
/// (table). The subscription rules run live on the draft (`ProfileRules`, the one
/// implementation `validate` and `send` use); a device's findings show in its row, under its
/// field in the device editor and in the pane at the bottom.
final class ProfileEditorScreen: FormTableScreen, Asking {
    let s: EditSession<Profile>
    var session: (any DraftSession)? { s }
    var view = FormAndTable(
        form: Form([]),
        table: TableView(columns: [
            .init("Device"), .init("App"), .init("Token", width: 11), .init("Kind", width: 11),
            .init("Language", width: 10), .init("Findings", width: 12),
        ]))
    enum Focus { case form, devices }
    var focusArea: Focus { view.tableFocused ? .devices : .form }
    private var seenVersion = -1

    init(session: EditSession<Profile>) {
        self.s = session
        table.emptyText = "No test device yet: press n here to add one (paste its token)."
        // A saved profile opens on its devices (what this view is for); a new one on its name.
        if session.original != nil { view.tableFocused = true }
    }

    var title: String { s.draft.name.isEmpty ? "Test devices › new profile" : "Test devices › \(s.draft.name)" }
    /// Ctrl-N adds a field in the form, a device in the table (each context's own binding).
    var contexts: [KeyContext] { focusArea == .form ? [.form, .profileEditor] : [.profileDevices, .list] }
    var focus: ScreenFocus {
        ScreenFocus(field: focusArea == .devices ? "devices" : form.focused?.id, stops: form.fields.count + 1)
    }

    /// Selects a device in the table and gives the table the focus (a finding's jump).
    func selectDevice(_ i: Int) {
        sync()
        table.setRows(s.draft.subscriptions.map { _ in [] })
        view.focusTable(row: i)
    }

    /// Focuses a form field by finding field (`firstName`, or `name`).
    func focus(field: String) {
        sync()
        let id = field == "name" ? "name" : Self.fieldID(field)
        if form.fields.contains(where: { $0.id == id }) {
            form.focus(id: id)
            view.tableFocused = false
        }
    }

    /// Form field id of a recipient field (`name` is the profile's file name).
    static func fieldID(_ name: String) -> String { "field:" + name }

    /// Pulls the draft into the widgets after any change (edit, undo, the device editor).
    func sync() {
        guard seenVersion != s.version else { return }
        seenVersion = s.version
        let d = s.draft
        let fresh =
            [FormField(id: "name", label: "Name", value: d.name, note: "file name")]
            + d.fields.map {
                FormField(
                    id: Self.fieldID($0.name), label: $0.name, value: $0.value,
                    note: $0.name == "locale" ? "language of devices without their own" : "")
            }
        if !form.replace(with: fresh) {
            form["name"] = d.name
            for f in d.fields where form[Self.fieldID(f.name)] != f.value { form[Self.fieldID(f.name)] = f.value }
        }
    }

    /// The live findings of the draft's devices, from the core's rules.
    static func findings(_ p: Profile, app: AppContext) -> [Finding] {
        ProfileRules.check(profiles: [p], services: app.services)
    }

    /// An app as a row of the device table and the app picker: its label, else its key.
    static func appLabel(_ key: String, app: AppContext) -> String {
        let a = app.services.app(integrationKey: key)
        return Escape.inline(a.map { $0.label.isEmpty ? $0.integrationKey : $0.label } ?? "\(key) (no such app)")
    }

    func apply(_ id: String) {
        let v = form[id]
        s.edit(id) { d in
            if id == "name" {
                d.name = v
            } else if let i = d.fields.firstIndex(where: { Self.fieldID($0.name) == id }) {
                d.fields[i].value = v
            }
        }
        seenVersion = s.version
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        sync()
        if action == .addField {
            return .ask(
                self,
                .text(
                    "Add a field",
                    "The recipient field's name (letters, digits, _ - .), as deliveries write it: <%= recipient.NAME %>"
                ) { $0.map(Reply.addField) ?? .keep })
        }
        if let e = handleBody(action, deleted: { "Removed \(Escape.inline(self.deviceLabel($0))): u brings it back." })
        {
            return e
        }
        if focusArea == .form { return nil }
        let sel = table.selectedRow
        switch action {
        case .open:
            guard let sel else { return Effect.none }
            return .push(DeviceEditorScreen(session: s, index: sel))
        case .new:
            return Self.askApp(self, app: app, title: "Add a test device: which app?", selected: nil) {
                $0.map(Reply.addDevice) ?? .keep
            }
        default: return nil
        }
    }

    private func deviceLabel(_ i: Int) -> String {
        s.draft.subscriptions[i].label ?? s.draft.subscriptions[i].shortToken
    }
    var rowCount: Int { s.draft.subscriptions.count }
    func removeRow(_ i: Int) { s.edit(nil) { $0.subscriptions.remove(at: i) } }
    func swapRows(_ i: Int, _ j: Int) { s.edit(nil) { $0.subscriptions.swapAt(i, j) } }

    /// The store's apps, each as label · platform environment · integration key: the
    /// device's app is picked by label, never typed as a key.
    static func appChoices(app: AppContext) -> [(key: String, text: String)] {
        app.services.flatMap(\.apps).map { a in
            let kind =
                switch a {
                case .ios(let i): "iOS \(i.environment.rawValue)"
                case .android: "Android"
                }
            let label = a.label.isEmpty ? "(no label)" : a.label
            return (a.integrationKey, Escape.inline("\(label) · \(kind) · \(a.integrationKey)"))
        }
    }

    /// Opens the app picker; `reply` gets the chosen app's integration key (nil: cancelled).
    static func askApp<A: Asking>(
        _ asker: A, app: AppContext, title: String, selected: String?, _ reply: @escaping (String?) -> A.Reply
    ) -> Effect {
        let choices = appChoices(app: app)
        guard !choices.isEmpty else {
            return .say("The store has no app yet: add one to a service first (Enter on a service, then i or a).")
        }
        return .ask(
            asker,
            .choices(
                title, options: choices.map(\.text),
                selected: choices.firstIndex { $0.key == selected } ?? 0
            ) { i in reply(i.map { choices[$0].key }) })
    }

    enum Reply {
        case addDevice(String)
        case addField(String)
        case keep
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .addDevice(let key):
            s.edit(nil) { $0.subscriptions.append(Subscription(app: key, token: "")) }
            sync()
            let i = s.draft.subscriptions.count - 1
            table.select(row: i)
            let editor = DeviceEditorScreen(session: s, index: i)
            editor.form.focus(id: "token")
            return .all([.push(editor), .say("Paste the device's token (or type it), then Ctrl-S saves the profile.")])
        case .addField(let typed):
            let name = typed.trimmingCharacters(in: .whitespaces)
            guard ProfileXML.isFieldName(name) else {
                return .say(
                    "\"\(Escape.inline(name))\" cannot be a field name: letters, digits, _, - and . (a letter or _ first)."
                )
            }
            guard s.draft.value(of: name) == nil else { return .say("The profile already has a field \(name).") }
            s.edit(nil) { $0.fields.append((name, "")) }
            sync()
            form.focus(id: Self.fieldID(name))
            view.tableFocused = false
            return .say("Added the field \(name): type its value.")
        case .keep: return .none
        }
    }

    /// The draft into the widgets; the name's problem under it, findings in the device rows.
    func update(_ rect: Rect, app: AppContext) {
        sync()
        form.clearMessages()
        let name = s.draft.name
        if !name.isEmpty, !Store.isValidName(name) {
            form.setMessage("name", "the name must be \(Store.nameRule): it is the file name")
        }
        // Narrow, the app's label gives way so the device's ("Ana's iPhone 15") fits at 80.
        table.columns[1].width = rect.width < 100 ? 14 : nil
        let found = Self.findings(s.draft, app: app)
        // The recipient's own fields' findings (its `locale`) under the field.
        for f in found where f.field.row == nil {
            form.setMessage(Self.fieldID(f.field.leaf), "\(f.severity.rawValue): \(f.message) [\(f.rule)]")
        }
        let byRow = Dictionary(grouping: found) { $0.field.row ?? -1 }
        let subs = s.draft.subscriptions
        table.setRows(
            subs.enumerated().map { i, d in
                [
                    Escape.inline(d.label ?? "(no label)"), Self.appLabel(d.app, app: app), Escape.inline(d.shortToken),
                    d.kind.rawValue, Self.languageCell(d, s.draft),
                    ServicesListScreen.summary(byRow[i] ?? []).replacingOccurrences(of: "error", with: "err"),
                ]
            }, roles: subs.indices.map { ServicesListScreen.role(byRow[$0] ?? []) })
    }

    /// A device's language in the table: its own `locale` (canonical when it is a tag, as
    /// the file will have it), else the recipient's in parentheses (what it is sent by),
    /// else `-` (the default text).
    static func languageCell(_ d: Subscription, _ p: Profile) -> String {
        func shown(_ text: String) -> String { LocaleTag(text)?.description ?? Escape.inline(text) }
        if let own = d.locale, !own.isEmpty { return shown(own) }
        if let r = p.value(of: "locale"), !r.isEmpty { return "(" + shown(r) + ")" }
        return "-"
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        v.draw(
            into: &buf, rect, formTitle: "Profile (sample recipient)", tableTitle: "Test devices (n: add, Enter: edit)",
            formExtra: 1, findings: Self.findings(s.draft, app: app))
    }
}
