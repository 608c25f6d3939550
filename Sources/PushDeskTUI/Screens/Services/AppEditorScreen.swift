import Foundation
import PushDeskCore

/// Edits one app of the service being edited, in the Campaign console's tabs:
/// Information, Credentials, Variables, Subscription parameters, Sounds and Channels (iOS
/// only; the Channels tab is `ChannelsTab`).
final class AppEditorScreen: StatefulScreen, Asking {
    let s: ServiceSession
    var session: (any DraftSession)? { s }
    let index: Int
    enum Tab: String {
        case information = "Information"
        case credentials = "Credentials"
        case variables = "Variables"
        case
            params = "Subscription parameters"
        case sounds = "Sounds"
        case channels = "Channels"
    }
    /// The Channels tab's state, calls and drawing.
    let channelsTab = ChannelsTab()
    private(set) var tab: Tab = .information
    /// The form of the tab, or its table and the form of the selected row; the tab bar's place.
    struct View {
        var form = Form([])
        var table = TableView(columns: ItemKind.variables.columns)
        var rowForm = Form([])
        var tabBarRect = Rect(x: 0, y: 0, width: 0, height: 0)
    }
    var view = View()
    var form: Form {
        get { view.form }
        set { view.form = newValue }
    }
    var table: TableView {
        get { view.table }
        set { view.table = newValue }
    }
    var rowForm: Form {
        get { view.rowForm }
        set { view.rowForm = newValue }
    }
    /// On the table tabs: the table has focus, or the form of its selected row.
    private(set) var editingRow = false
    private var seenVersion = -1
    private var builtFor: Tab?
    /// Input errors (not rule findings), by field id, until the field is fixed.
    private var inputErrors: [String: String] = [:]
    /// The offline credential checks of this app (what `pushdesk credentials check` reports,
    /// from the same `CredentialChecker`), made again when the draft changes; the
    /// Credentials tab shows their findings.
    private(set) var credentialReport: CredentialReport?
    private var credentialVersion = -1

    /// `secretExists` asks the store whether a secret is set (the credentials tab shows it).
    init(session: ServiceSession, index: Int, secretExists: @escaping (String) -> Bool = { _ in false }) {
        self.s = session
        self.index = index
        self.secretExists = secretExists
    }

    var app: MobileApp { s.draft.apps[index] }
    var tabs: [Tab] {
        app.platform == .ios
            ? [.information, .credentials, .variables, .params, .sounds, .channels]
            : [.information, .credentials, .variables, .params]
    }
    var itemKind: ItemKind? {
        switch tab {
        case .variables: .variables
        case .params: .params
        case .sounds: .sounds
        default: nil
        }
    }

    var title: String {
        "Service \(s.draft.name.isEmpty ? "(new)" : s.draft.name) › \(app.label.isEmpty ? app.integrationKey : app.label)"
    }
    var contexts: [KeyContext] {
        if tab == .channels { return channelsTab.table.isFiltering ? [] : [.channelsTab, .list, .appEditor] }
        if itemKind != nil && !editingRow { return table.isFiltering ? [] : [.itemsTable, .list, .appEditor] }
        return [.form, .appEditor]
    }
    var textFocused: Bool {
        if tab == .channels { return channelsTab.table.isFiltering }
        if itemKind == nil { return form.focused?.isTextual ?? false }
        return editingRow ? (rowForm.focused?.isTextual ?? false) : table.isFiltering
    }

    /// Focuses the field of a finding's path inside this app (`auth.keyId`, `variables[2].name`).
    func focus(field path: FieldPath) {
        let leaf = path.leaf
        if path.head == "auth" || AppFields.credentialNames.contains(leaf) {
            tab = .credentials
        } else if path.head == "variables" {
            tab = .variables
        } else if path.head == "subscriptionParams" {
            tab = .params
        } else if path.head == "sounds" {
            tab = .sounds
        } else if path.head == "channels" {
            tab = .channels
        }
        sync(force: true)
        if tab == .channels {
            if let r = path.row { channelsTab.table.select(row: r) }
        } else if itemKind == nil {
            form.focus(id: leaf == "auth" ? "mode" : leaf)
        } else if let r = path.row {
            table.select(row: r)
            syncRowForm()
            editingRow = true
            rowForm.focus(id: leaf)
        }
    }

    /// Asks the store whether a secret exists.
    let secretExists: (String) -> Bool

    /// Rebuilds the widgets from the draft when it changed (edit, undo) or the tab did.
    private func sync(force: Bool = false) {
        guard force || seenVersion != s.version || builtFor != tab, s.draft.apps.indices.contains(index) else { return }
        let tabChanged = builtFor != tab
        seenVersion = s.version
        builtFor = tab
        switch tab {
        case .information, .credentials:
            let fresh = tab == .information ? AppFields.info(app) : AppFields.credentials(app, secretSet: secretExists)
            if tabChanged || fresh.map(\.id) != form.fields.map(\.id) {
                let keep = form.focused?.id
                form = Form(fresh)
                if !tabChanged, let keep { form.focus(id: keep) }
            } else {
                // Same fields: update values in place so cursors stay where they are.
                for f in fresh {
                    // A value being typed that is not valid yet stays as typed.
                    if form[f.id] != f.value, inputErrors[f.id] == nil { form[f.id] = f.value }
                    if let i = form.fields.firstIndex(where: { $0.id == f.id }) { form.fields[i].note = f.note }
                }
            }
        case .channels:
            if case .ios(let a) = app { channelsTab.sync(a) }
        case .variables, .params, .sounds:
            let k = itemKind!
            if tabChanged {
                table = TableView(columns: k.columns)
                table.emptyText = "No \(k.noun) yet: press n to add one."
                editingRow = false
            }
            let keep = table.selectedRow
            table.setRows(k.rows(app))
            if let keep { table.select(row: min(keep, max(0, k.count(app) - 1))) }
            syncRowForm()
        }
    }

    private func syncRowForm() {
        guard let k = itemKind, let r = table.selectedRow else {
            rowForm = Form([])
            editingRow = false
            return
        }
        let row = k.rows(app)[r]
        if rowForm.fields.isEmpty || rowForm.fields.count != (k == .params ? 3 : 2) {
            rowForm = k.form(row)
        } else {
            for (i, f) in rowForm.fields.enumerated() where f.value != row[i] { rowForm.fields[i].value = row[i] }
        }
    }

    func handleText(_ key: Key, app: AppContext) -> Bool {
        sync()
        if tab == .channels { return channelsTab.table.handleFilterKey(key) }
        if let k = itemKind {
            if !editingRow { return table.handleFilterKey(key) }
            switch rowForm.handleText(key) {
            case .changed(let id):
                guard let r = table.selectedRow else { return true }
                let v = rowForm[id]
                s.edit("\(tab.rawValue)[\(r)].\(id)") { d in k.set(r, id, v, in: &d.apps[index]) }
                sync()
                return true
            case .moved: return true
            default: return false
            }
        }
        switch form.handleText(key) {
        case .changed(let id):
            applyForm(id, app: app)
            return true
        case .moved: return true
        default: return false
        }
    }

    private func applyForm(_ id: String, app: AppContext) {
        let v = form[id]
        var error: String?
        s.edit("\(tab.rawValue).\(id)") { d in error = AppFields.apply(id, v, to: &d.apps[index]) }
        inputErrors[id] = error
        sync()
    }

    func handleUnbound(_ key: Key, app: AppContext) -> Bool {
        if tab == .channels { return channelsTab.table.handleFilterKey(key) }
        if itemKind != nil {
            if editingRow, key == .escape {
                editingRow = false
                return true
            }
            if !editingRow, key == .tab, table.selectedRow != nil {
                editingRow = true
                rowForm.focus = 0
                return true
            }
            if !editingRow { return table.handleFilterKey(key) }
        }
        return false
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        sync()
        switch action {
        case .save:
            if let (id, e) = inputErrors.first {
                let label = form.fields.first { $0.id == id }?.label ?? id
                return .inform("Not saved", "\(label): \(e).\nFix it (or Ctrl-Z) and save again.")
            }
            return .save(s)
        case .undo:
            let undone = s.undo()
            inputErrors = [:]
            sync(force: true)
            return .say(undone ? "Undone." : "Nothing to undo.")
        case .nextTab, .prevTab:
            let i = tabs.firstIndex(of: tab) ?? 0
            tab = tabs[(i + (action == .nextTab ? 1 : tabs.count - 1)) % tabs.count]
            sync()
            return Effect.none
        case .checkOnline:
            refreshCredentials(app)
            let offline = credentialReport?.findings.first { $0.severity == .error }
            return .push(
                OnlineCheckScreen(
                    app: self.app, label: self.app.label.isEmpty ? self.app.integrationKey : self.app.label,
                    offlineFinding: offline, storeRoot: URL(fileURLWithPath: app.storeRoot),
                    environment: app.environment))
        case .generateKey:
            tab = .information
            sync()
            s.edit(nil) { d in d.apps[index].integrationKey = AppFields.generatedKey() }
            sync(force: true)
            form.focus(id: "integrationKey")
            return .say("Generated a new integration key: give it to the app's developers (setIntegrationKey).")
        default: break
        }
        if tab == .channels {
            defer { sync(force: true) }
            return channelsTab.handle(action, editor: self, app: app)
        }
        if let k = itemKind {
            if table.isFiltering, [.back, .open].contains(action) { return table.handle(action) ? Effect.none : nil }
            if editingRow {
                if action == .nextField, rowForm.focus == rowForm.fields.count - 1 {
                    editingRow = false
                    return Effect.none
                }
                if action == .pick, rowForm.focus == rowForm.fields.count - 1 {
                    editingRow = false
                    return Effect.none
                }
                if action == .back {
                    editingRow = false
                    return Effect.none
                }
                return rowForm.handle(action) != .unhandled ? Effect.none : nil
            }
            if table.handle(action) {
                syncRowForm()
                return Effect.none
            }
            let sel = table.selectedRow
            switch action {
            case .new:
                s.edit(nil) { d in k.add(to: &d.apps[index]) }
                sync()
                table.select(row: k.count(self.app) - 1)
                syncRowForm()
                rowForm = k.form(k.rows(self.app)[k.count(self.app) - 1])
                editingRow = true
            case .open:
                guard sel != nil else { return Effect.none }
                syncRowForm()
                editingRow = true
                rowForm.focus = 0
            case .delete:
                guard let sel else { return Effect.none }
                s.edit(nil) { d in k.remove(sel, from: &d.apps[index]) }
                sync()
                return .say("Deleted the \(k.noun); u (or Ctrl-Z) brings it back.")
            case .moveUp, .moveDown:
                guard let (sel, to) = table.moveTarget(action, count: k.count(self.app)) else { return Effect.none }
                s.edit(nil) { d in k.swap(sel, to, in: &d.apps[index]) }
                sync()
                table.select(row: to)
                syncRowForm()
            default: return nil
            }
            return Effect.none
        }
        switch form.handle(action) {
        case .changed(let id):
            applyForm(id, app: app)
            return Effect.none
        case .pick(let id):
            guard let f = form.fields.first(where: { $0.id == id }) else { return Effect.none }
            if f.kind == .secret {
                let what = id == "password" ? "the .p12/.pem password" : "the FCM server key"
                return .ask(
                    self,
                    .text(
                        f.label,
                        "Type or paste \(what). It is stored in the store's secrets/\n(mode 0600), never in services/, and never shown.",
                        masked: true
                    ) { v in v.map { .secret(field: id, value: $0) } ?? .cancelled })
            } else if case .choice(let opts) = f.kind {
                return .ask(
                    self,
                    .choices(f.label, options: opts, selected: opts.firstIndex(of: f.value) ?? 0) { i in
                        i.map { .set(field: id, value: opts[$0]) } ?? .cancelled
                    })
            } else {
                return .ask(
                    self,
                    .filePath(
                        f.label, "Path, relative to the store (Tab completes):", value: f.value, base: app.storeRoot
                    ) { v in v.map { .set(field: id, value: $0) } ?? .cancelled })
            }
        case .moved: return Effect.none
        case .unhandled: return nil
        }
    }

    /// The question before a dangerous action: deleting a channel at Apple (Channels tab).
    func danger(_ action: Action, app: AppContext) -> Danger? {
        guard tab == .channels else { return nil }
        sync()
        return channelsTab.danger(action, editor: self, app: app)
    }

    /// The answers of this editor's dialogs: a choice or a path for a field, a secret.
    enum Reply {
        case set(field: String, value: String)
        case secret(field: String, value: String)
        case channels(ChannelsTab.Reply)
        case cancelled
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .set(let id, let value):
            form[id] = value
            applyForm(id, app: app)
            return .none
        case .secret(let id, let value): return storeSecret(field: id, value: value, app: app)
        case .channels(let r):
            defer { sync(force: true) }
            return channelsTab.answer(r, editor: self, app: app)
        case .cancelled: return .none
        }
    }

    func click(x: Int, y: Int, app: AppContext) -> Effect? {
        sync()
        if y == view.tabBarRect.y, let i = TabBar.index(atX: x, in: view.tabBarRect, tabs: tabs.map(\.rawValue)) {
            tab = tabs[i]
            sync()
            return Effect.none
        }
        if tab == .channels { return channelsTab.table.click(x: x, y: y) ? Effect.none : nil }
        if itemKind == nil { return form.click(x: x, y: y) ? Effect.none : nil }
        if editingRow || rowForm.fields.count > 0, rowForm.click(x: x, y: y) {
            editingRow = true
            return Effect.none
        }
        if table.click(x: x, y: y) {
            editingRow = false
            syncRowForm()
            return Effect.none
        }
        return nil
    }

    /// Saves a typed secret under the app's reference, creating the reference
    /// (`<integration key>-p12` / `-server-key`) when it is empty.
    private func storeSecret(field: String, value: String, app: AppContext) -> Effect {
        let refField = field == "password" ? "passwordRef" : "serverKeyRef"
        var ref = form[refField]
        if ref.isEmpty {
            ref = self.app.integrationKey + (field == "password" ? "-p12" : "-server-key")
            form[refField] = ref
            applyForm(refField, app: app)
        }
        return .storeSecret(ref, value) { [weak self] error in
            // The credential checks read the secrets: run again once it is stored.
            self?.sync(force: true)
            self?.form.focus(id: field)
            guard let error else { return .say("Stored the secret '\(ref)' in secrets/ (not in the service file).") }
            return .inform("Secret not stored", Sanitize.string("\(error)"))
        }
    }

    /// Runs the credential checks again when the draft changed since the last run (they
    /// read the key and certificate files, so not on every frame).
    private func refreshCredentials(_ ca: AppContext) {
        guard credentialVersion != s.version, s.draft.apps.indices.contains(index) else { return }
        credentialVersion = s.version
        let reports = CredentialChecker.check(
            service: s.draft, storeRoot: URL(fileURLWithPath: ca.storeRoot), now: ca.clock())
        credentialReport = reports.first { $0.index == index }
    }

    /// The draft into the widgets; findings and input errors under the fields.
    func update(_ rect: Rect, app ca: AppContext) {
        guard s.draft.apps.indices.contains(index) else { return }
        sync()
        if tab == .credentials { refreshCredentials(ca) }
        guard itemKind == nil, tab != .channels else { return }
        form.clearMessages()
        for f in findings(ca) {
            let leaf = f.field.inside("apps").leaf
            form.setMessage(
                leaf == "auth" ? "mode" : leaf, "\(f.severity.rawValue): \(f.message)",
                role: f.severity == .error ? .findingError : .findingWarning)
        }
        for (id, e) in inputErrors { form.setMessage(id, e) }
    }

    /// The rules' findings of this app; on the Credentials tab also the credential checks'
    /// (without `fcm.legacy-api`, which the rules report already, as `pushdesk validate` does).
    private func findings(_ ca: AppContext) -> [Finding] {
        let rules = ca.findings(forService: s.draft.name).filter { $0.field.index(in: "apps") == index }
        guard tab == .credentials, let r = credentialReport else { return rules }
        let extra = r.findings.filter { f in
            f.rule != CredentialRules.fcmLegacyAPI.id && !rules.contains { $0.rule == f.rule && $0.field == f.field }
        }
        return rules + extra
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app ca: AppContext, view v: inout View) {
        guard s.draft.apps.indices.contains(index) else { return }
        let mine = findings(ca)
        let header: String
        switch app {
        case .ios(let i): header = "iOS \(i.environment.rawValue) app · \(i.integrationKey)"
        case .android(let x): header = "Android app (\(x.api.rawValue)) · \(x.integrationKey)"
        }
        buf.put(" " + header, x: rect.x, y: rect.y, role: .muted, maxX: rect.maxX)
        v.tabBarRect = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: 1)
        TabBar.render(
            into: &buf, v.tabBarRect,
            tabs: tabs.map(\.rawValue), active: tabs.firstIndex(of: tab) ?? 0)
        let paneH = min(max(mine.count, 1), 4) + 1
        let body = Rect(x: rect.x, y: rect.y + 2, width: rect.width, height: rect.height - 2 - paneH)
        let pane = Rect(x: rect.x, y: body.maxY, width: rect.width, height: paneH)
        if tab == .channels, case .ios(let a) = app {
            channelsTab.sync(a)
            channelsTab.draw(into: &buf, body, app: a)
        } else if let k = itemKind {
            let formH = v.rowForm.fields.count + 2
            let (tb, fb) = body.splitBottom(v.table.selectedRow == nil ? 0 : formH)
            buf.box(
                tb, role: editingRow ? .border : .borderFocus,
                title: tab.rawValue + " (n add, Enter/Tab edit, d delete, K/J move)")
            v.table.render(into: &buf, tb.inset(1), focused: !editingRow)
            if !fb.isEmpty {
                buf.box(
                    fb, role: editingRow ? .borderFocus : .border, title: "Selected \(k.noun) (Esc back to the table)")
                v.rowForm.render(into: &buf, fb.inset(1), focused: editingRow)
            }
        } else {
            // Check online has no status-bar hint (save keeps its place): the tab names its key.
            let key = KeyRegistry.bindings(in: [.appEditor]).first { $0.action == .checkOnline }?.keys.first?.label
            buf.box(
                body, role: .borderFocus,
                title: tab == .credentials ? "\(tab.rawValue) (\(key ?? "Ctrl-Y"): check online)" : tab.rawValue)
            v.form.render(into: &buf, body.inset(1), focused: true)
        }
        FindingsPane.render(
            into: &buf, pane, findings: mine, what: tab == .credentials ? "Rules and credential checks" : "Rules")
    }
}
