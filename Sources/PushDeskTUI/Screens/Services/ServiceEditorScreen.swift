import PushDeskCore

/// Edits one service: its fields (form) and its apps (table). Rules run live on the
/// draft; their findings show under the fields and in the pane at the bottom.
final class ServiceEditorScreen: FormTableScreen {
    let s: ServiceSession
    var session: (any DraftSession)? { s }
    var view = FormAndTable(
        form: Form(Service.definitions.map { FormField(id: $0.name, label: $0.label, note: $0.note) }),
        table: TableView(columns: [
            .init("Platform", width: 8), .init("Environment", width: 11), .init("Label"),
            .init("Integration key"), .init("Findings", width: 14),
        ]))
    enum Focus { case form, apps }
    var focusArea: Focus { view.tableFocused ? .apps : .form }
    private var seenVersion = -1

    init(session: ServiceSession) {
        self.s = session
        table.emptyText = "No app yet: press i (iOS pair) or a (Android) here."
    }

    var title: String { s.draft.name.isEmpty ? "New service" : "Service \(s.draft.name)" }
    var contexts: [KeyContext] {
        focusArea == .form ? [.form, .serviceEditor] : [.serviceApps, .list, .serviceEditor]
    }
    var focus: ScreenFocus {
        ScreenFocus(field: focusArea == .apps ? "apps" : form.focused?.id, stops: form.fields.count + 1)
    }

    func selectApp(_ i: Int) {
        sync()
        view.focusTable(row: i)
    }
    func focus(field: FieldPath) {
        let leaf = field.leaf
        if form.fields.contains(where: { $0.id == leaf }) {
            form.focus(id: leaf)
            view.tableFocused = false
        }
    }

    /// Pulls the draft into the widgets after any change (edit, undo, app editor).
    func sync() {
        guard seenVersion != s.version else { return }
        seenVersion = s.version
        let d = s.draft
        for f in Service.definitions { form[f.name] = f.text(d) ?? "" }
        table.setRows(
            d.apps.map { a in
                switch a {
                case .ios(let i): ["iOS", i.environment.rawValue, i.label, i.integrationKey]
                case .android(let x): ["Android", "", x.label, x.integrationKey]
                }
            })
    }

    func apply(_ id: String) {
        let v = form[id]
        s.edit(id) { d in Service.definitions.named(id)?.set(&d, v) }
        seenVersion = s.version
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        sync()
        if action == .deliveries {
            // Deliveries name their service: a service not saved yet has none.
            guard let name = s.original?.name else {
                return .say("Save the service first (Ctrl-S): deliveries name a saved service.")
            }
            return .push(DeliveriesListScreen(service: name, app: app))
        }
        // Deleting an app asks first (`danger`).
        if let e = handleBody(action) { return e }
        if focusArea == .form { return nil }
        let sel = table.selectedRow
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
            table.select(row: s.draft.apps.count - 2)
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
            table.select(row: s.draft.apps.count - 1)
            return .say("Added an Android app: Enter to set package name and credentials.")
        default: return nil
        }
    }

    func danger(_ action: Action, app: AppContext) -> Danger? {
        guard action == .delete, let i = table.selectedRow, s.draft.apps.indices.contains(i) else { return nil }
        let a = s.draft.apps[i]
        return Danger("Delete app", "Delete '\(a.label)' (\(a.integrationKey)) from this service?") { [weak self] _ in
            self?.deleteApp(i)
            return .none
        }
    }

    private func deleteApp(_ i: Int) {
        guard s.draft.apps.indices.contains(i) else { return }
        removeRow(i)
        sync()
    }

    var rowCount: Int { s.draft.apps.count }
    func removeRow(_ i: Int) { s.edit(nil) { $0.apps.remove(at: i) } }
    func swapRows(_ i: Int, _ j: Int) { s.edit(nil) { $0.apps.swapAt(i, j) } }

    /// Integration keys are unique in the store: a proposed key gets -2, -3… when taken.
    private func uniqueKey(_ app: AppContext) -> (String) -> String {
        let taken = Set(
            (app.services.filter { $0.name != s.original?.name } + [s.draft]).flatMap { $0.apps.map(\.integrationKey) })
        return { Drafts.uniqueName($0, taken: taken, separator: "-") }
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
        var rows = table.rows
        for i in rows.indices {
            let fs = byApp[i]?.map(\.1) ?? []
            rows[i] =
                Array(rows[i].prefix(4)) + [
                    ServicesListScreen.summary(fs).replacingOccurrences(of: "error", with: "err").replacingOccurrences(
                        of: "warning", with: "warn")
                ]
        }
        table.setRows(rows, roles: rows.indices.map { ServicesListScreen.role(byApp[$0]?.map(\.1) ?? []) })
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        v.draw(
            into: &buf, rect, formTitle: "Service", tableTitle: "Apps (i: add iOS pair, a: add Android)", formExtra: 2,
            findings: app.findings(forService: s.draft.name))
    }
}
