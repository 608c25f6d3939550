import PushDeskCore

/// Edits one service: its fields (form) and its apps (table). Rules run live on the
/// draft; their findings show under the fields and in the pane at the bottom.
final class ServiceEditorScreen: StatefulScreen {
    let s: ServiceSession
    var session: (any DraftSession)? { s }
    struct View {
        var form = Form(Service.definitions.map { FormField(id: $0.name, label: $0.label, note: $0.note) })
        var apps = TableView(columns: [
            .init("Platform", width: 8), .init("Environment", width: 11), .init("Label"),
            .init("Integration key"), .init("Findings", width: 14),
        ])
    }
    var view = View()
    var form: Form {
        get { view.form }
        set { view.form = newValue }
    }
    var apps: TableView {
        get { view.apps }
        set { view.apps = newValue }
    }
    enum Focus { case form, apps }
    private(set) var focusArea: Focus = .form
    private var seenVersion = -1

    init(session: ServiceSession) {
        self.s = session
        apps.emptyText = "No app yet: press i (iOS pair) or a (Android) here."
    }

    var title: String { s.draft.name.isEmpty ? "New service" : "Service \(s.draft.name)" }
    var contexts: [KeyContext] {
        focusArea == .form ? [.form, .serviceEditor] : [.serviceApps, .list, .serviceEditor]
    }
    var textFocused: Bool { focusArea == .form && (form.focused?.isTextual ?? false) }

    func selectApp(_ i: Int) {
        sync()
        apps.select(row: i)
        focusArea = .apps
    }
    func focus(field: FieldPath) {
        let leaf = field.leaf
        if form.fields.contains(where: { $0.id == leaf }) {
            form.focus(id: leaf)
            focusArea = .form
        }
    }

    /// Pulls the draft into the widgets after any change (edit, undo, app editor).
    private func sync() {
        guard seenVersion != s.version else { return }
        seenVersion = s.version
        let d = s.draft
        for f in Service.definitions { form[f.name] = f.text(d) ?? "" }
        apps.setRows(
            d.apps.map { a in
                switch a {
                case .ios(let i): ["iOS", i.environment.rawValue, i.label, i.integrationKey]
                case .android(let x): ["Android", "", x.label, x.integrationKey]
                }
            })
    }

    func handleText(_ key: Key, app: AppContext) -> Bool {
        sync()
        guard focusArea == .form else { return false }
        switch form.handleText(key) {
        case .changed(let id):
            apply(id)
            return true
        case .moved: return true
        default: return false
        }
    }

    private func apply(_ id: String) {
        let v = form[id]
        s.edit(id) { d in Service.definitions.named(id)?.set(&d, v) }
        seenVersion = s.version
    }

    func handleUnbound(_ key: Key, app: AppContext) -> Bool {
        sync()
        // Tab leaves the apps table for the form (in the form, Tab on the last field enters the table).
        if focusArea == .apps, key == .tab || key == .backTab {
            focusArea = .form
            form.focus = key == .tab ? 0 : form.fields.count - 1
            return true
        }
        return false
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        sync()
        switch action {
        case .save: return .save(s)
        case .undo: return .say(s.undo() ? "Undone." : "Nothing to undo.")
        case .deliveries:
            // Deliveries name their service: a service not saved yet has none.
            guard let name = s.original?.name else {
                return .say("Save the service first (Ctrl-S): deliveries name a saved service.")
            }
            return .push(DeliveriesListScreen(service: name, app: app))
        default: break
        }
        if focusArea == .form {
            if action == .nextField, form.focus == form.fields.count - 1 {
                focusArea = .apps
                return Effect.none
            }
            if action == .prevField, form.focus == 0 {
                focusArea = .apps
                return Effect.none
            }
            if action == .pick, form.focus == form.fields.count - 1 {
                focusArea = .apps
                return Effect.none
            }
            switch form.handle(action) {
            case .changed(let id):
                apply(id)
                return Effect.none
            case .unhandled: return nil
            default: return Effect.none
            }
        }
        if apps.handle(action) { return Effect.none }
        let sel = apps.selectedRow
        switch action {
        case .open:
            guard let sel else { return Effect.none }
            return .push(AppEditorScreen(session: s, index: sel, secretExists: app.secretExists))
        case .addIOS:
            let d = s.draft
            let unique = uniqueKey(app)
            let base = d.name.isEmpty ? "app" : d.name
            let label = d.label.isEmpty ? base : d.label
            // iOS apps come as a pair: sandbox (development) and production, created together.
            s.edit(nil) { d in
                d.apps.append(
                    .ios(
                        IOSApp(
                            environment: .sandbox, label: "\(label) iOS (sandbox)",
                            integrationKey: unique("\(base)-ios-dev"), bundleId: "")))
                d.apps.append(
                    .ios(
                        IOSApp(
                            environment: .production, label: "\(label) iOS", integrationKey: unique("\(base)-ios"),
                            bundleId: "")))
            }
            sync()
            apps.select(row: s.draft.apps.count - 2)
            return .say("Added the iOS sandbox + production pair: Enter to set bundle id and credentials.")
        case .addAndroid:
            let d = s.draft
            let base = d.name.isEmpty ? "app" : d.name
            let label = d.label.isEmpty ? base : d.label
            let key = uniqueKey(app)("\(base)-android")
            s.edit(nil) { d in
                d.apps.append(.android(AndroidApp(label: "\(label) Android", integrationKey: key, packageName: "")))
            }
            sync()
            apps.select(row: s.draft.apps.count - 1)
            return .say("Added an Android app: Enter to set package name and credentials.")
        case .moveUp, .moveDown:
            guard let sel else { return Effect.none }
            let to = action == .moveUp ? sel - 1 : sel + 1
            guard s.draft.apps.indices.contains(to) else { return Effect.none }
            s.edit(nil) { $0.apps.swapAt(sel, to) }
            sync()
            apps.select(row: to)
        default: return nil
        }
        return Effect.none
    }

    func danger(_ action: Action, app: AppContext) -> Danger? {
        guard action == .delete, let i = apps.selectedRow, s.draft.apps.indices.contains(i) else { return nil }
        let a = s.draft.apps[i]
        return Danger("Delete app", "Delete '\(a.label)' (\(a.integrationKey)) from this service?") { [weak self] _ in
            self?.deleteApp(i)
            return .none
        }
    }

    private func deleteApp(_ i: Int) {
        guard s.draft.apps.indices.contains(i) else { return }
        s.edit(nil) { $0.apps.remove(at: i) }
        sync()
    }

    func click(x: Int, y: Int, app: AppContext) -> Effect? {
        sync()
        if form.click(x: x, y: y) {
            focusArea = .form
            return Effect.none
        }
        let before = apps.selectedRow
        guard apps.click(x: x, y: y) else { return nil }
        if focusArea == .apps && before == apps.selectedRow { return handle(.open, app: app) }
        focusArea = .apps
        return Effect.none
    }

    /// Integration keys are unique in the store: a proposed key gets -2, -3… when taken.
    private func uniqueKey(_ app: AppContext) -> (String) -> String {
        let taken = Set(
            (app.services.filter { $0.name != s.original?.name } + [s.draft]).flatMap { $0.apps.map(\.integrationKey) })
        return { base in
            var k = base
            var i = 2
            while taken.contains(k) {
                k = "\(base)-\(i)"
                i += 1
            }
            return k
        }
    }

    /// The draft into the widgets; findings under the fields and in the apps' column.
    func update(_ rect: Rect, app: AppContext) {
        sync()
        let mine = app.findings(forService: s.draft.name)
        // Findings on service fields go under the field; all of them go to the pane.
        form.clearMessages()
        for f in mine where f.field.index(in: "apps") == nil {
            form.setMessage(
                f.field.leaf, "\(f.severity.rawValue): \(f.message)",
                role: f.severity == .error ? .findingError : .findingWarning)
        }
        let byApp = Dictionary(
            grouping: mine.compactMap { f in f.field.index(in: "apps").map { ($0, f) } }, by: { $0.0 })
        var rows = apps.rows
        for i in rows.indices {
            let fs = byApp[i]?.map(\.1) ?? []
            rows[i] =
                Array(rows[i].prefix(4)) + [
                    ServicesListScreen.summary(fs).replacingOccurrences(of: "error", with: "err").replacingOccurrences(
                        of: "warning", with: "warn")
                ]
        }
        apps.setRows(rows, roles: rows.indices.map { ServicesListScreen.role(byApp[$0]?.map(\.1) ?? []) })
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        let mine = app.findings(forService: s.draft.name)
        let paneH = min(max(mine.count, 1), 4) + 1
        let (main, pane) = rect.splitBottom(paneH)
        let formH = v.form.height(width: main.width - 2) + 2
        let (formBox, appsBox) = main.splitTop(min(formH, main.height / 2 + 2))
        buf.box(formBox, role: focusArea == .form ? .borderFocus : .border, title: "Service")
        v.form.render(into: &buf, formBox.inset(1), focused: focusArea == .form)
        buf.box(
            appsBox, role: focusArea == .apps ? .borderFocus : .border, title: "Apps (i: add iOS pair, a: add Android)")
        v.apps.render(into: &buf, appsBox.inset(1), focused: focusArea == .apps)
        FindingsPane.render(into: &buf, pane, findings: mine)
    }
}
