import Foundation
import PushDeskCore

/// Edits one app of the service being edited, in the Campaign console's tabs: Information
/// and Credentials (forms: `AppFormTabs.swift`), Variables, Subscription parameters and
/// Sounds (tables: `ItemsTabs.swift`) and Channels (iOS only: `ChannelsTab`).
final class AppEditorScreen: StatefulScreen, Asking {
    let s: ServiceSession
    var session: (any DraftSession)? { s }
    let index: Int
    enum Tab: String {
        case information = "Information"
        case credentials = "Credentials"
        case variables = "Variables"
        case params = "Subscription parameters"
        case sounds = "Sounds"
        case channels = "Channels"
    }
    /// The Channels tab's state, calls and drawing.
    let channelsTab = ChannelsTab()
    private(set) var tab: Tab = .information
    /// The form of a form tab, the table and row form of a table tab; the tab bar's place.
    struct View {
        var form = Form([])
        var items = ItemKind.variables.widget
        var tabBarRect = Rect(x: 0, y: 0, width: 0, height: 0)
        var channels = ChannelsTab.makeTable()
    }
    var view = View()
    var form: Form {
        get { view.form }
        set { view.form = newValue }
    }
    /// On the table tabs: the form of the selected row, and whether it has the focus (else the table).
    var rowForm: Form { view.items.rowForm }
    var editingRow: Bool { view.items.editingRow }
    private var seenVersion = -1
    private var builtFor: Tab?
    /// Input errors (not rule findings), by field id, until the field is fixed.
    var inputErrors: [String: String] = [:]
    /// The offline credential checks of this app (what `pushdesk credentials check` reports,
    /// from the same `CredentialChecker`), made again when the draft changes; the
    /// Credentials tab shows their findings.
    var credentialReport: CredentialReport?
    var credentialVersion = -1
    /// Asks the store whether a secret exists.
    let secretExists: (String) -> Bool

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
        if tab == .channels { return view.channels.contexts([.channelsTab, .list, .appEditor]) }
        if itemKind != nil && !editingRow {
            return view.items.table.contexts([.itemsTable, .list, .appEditor])
        }
        return [.form, .appEditor]
    }
    var focus: ScreenFocus {
        ScreenFocus(
            tab: String(describing: tab),
            field: itemKind == nil ? form.focused?.id : editingRow ? rowForm.focused?.id : "table",
            stops: max(form.fields.count, rowForm.fields.count) + 1)
    }
    var textFocused: Bool {
        if tab == .channels { return view.channels.isFiltering }
        return itemKind == nil ? form.focused?.isTextual ?? false : view.items.textFocused
    }

    /// Focuses the field of a finding's path inside this app (`auth.keyId`, `variables[2].name`).
    func focus(field path: FieldPath) {
        let leaf = path.leaf
        if path.head == "auth" || AppFields.credentialNames.contains(leaf) {
            tab = .credentials
        } else if let t = [
            Tab.variables: "variables", .params: "subscriptionParams", .sounds: "sounds", .channels: "channels",
        ]
        .first(where: { $0.value == path.head })?.key {
            tab = t
        }
        sync(force: true)
        if tab == .channels {
            if let r = path.row { view.channels.select(row: r) }
        } else if itemKind == nil {
            form.focus(id: leaf == "auth" ? "mode" : leaf)
        } else if let r = path.row {
            view.items.select(row: r)
            view.items.open()
            view.items.rowForm.focus(id: leaf)
        }
    }

    /// Rebuilds the widgets from the draft when it changed (edit, undo) or the tab did.
    func sync(force: Bool = false) {
        guard force || seenVersion != s.version || builtFor != tab, s.draft.apps.indices.contains(index) else { return }
        let tabChanged = builtFor != tab
        seenVersion = s.version
        builtFor = tab
        switch tab {
        case .information, .credentials: syncForm(tabChanged: tabChanged)
        case .channels:
            if case .ios(let a) = app { channelsTab.sync(a, table: &view.channels) }
        case .variables, .params, .sounds:
            let k = itemKind!
            if tabChanged { view.items = k.widget }
            view.items.setRows(k.rows(app))
        }
    }

    func handleText(_ key: Key, app: AppContext) -> Bool {
        sync()
        if tab == .channels { return view.channels.handleFilterKey(key) }
        if itemKind != nil { return answerItems(view.items.handleText(key)) != nil }
        let typed = form.handleText(key)
        if let id = typed.changedField { applyForm(id) }
        return typed.used
    }

    func handleUnbound(_ key: Key, app: AppContext) -> Bool {
        if tab == .channels { return view.channels.handleFilterKey(key) }
        return itemKind != nil && view.items.handleUnbound(key)
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
        case .checkOnline: return checkOnline(app)
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
        if let k = itemKind { return handleItems(action, k) }
        return handleForm(action, app: app)
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
            applyForm(id)
            return .none
        case .secret(let id, let value): return storeSecret(field: id, value: value)
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
        if tab == .channels { return view.channels.click(x: x, y: y) ? Effect.none : nil }
        if itemKind == nil { return form.click(x: x, y: y) ? Effect.none : nil }
        return view.items.click(x: x, y: y) ? Effect.none : nil
    }

    /// The draft into the widgets; findings and input errors under the fields.
    func update(_ rect: Rect, app ca: AppContext) {
        guard s.draft.apps.indices.contains(index) else { return }
        sync()
        if tab == .credentials { refreshCredentials(ca) }
        // The channels' rows follow Apple's list too (a fetch changes no draft).
        if tab == .channels, case .ios(let a) = app { channelsTab.sync(a, table: &view.channels) }
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
            channelsTab.draw(into: &buf, body, app: a, table: &v.channels)
        } else if let k = itemKind {
            v.items.draw(
                into: &buf, body, title: tab.rawValue + " (n add, Enter/Tab edit, d delete, K/J move)",
                formTitle: "Selected \(k.noun) (Esc back to the table)")
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
