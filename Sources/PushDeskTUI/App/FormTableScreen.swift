import PushDeskCore

/// An editor whose body is a `FormAndTable` (the service editor, the profile editor): the
/// form's text keys, the form and list keys, clicks, and deleting and moving the table's
/// rows come from here; the editor keeps the draft in step (`sync`), writes a changed field
/// into it (`apply`), names the list its table shows (`DraftRowsEditor`) and answers the rest.
protocol FormTableScreen: StatefulScreen, DraftRowsEditor where View == FormAndTable {
    /// Pulls the draft into the widgets after any change (edit, undo, a sub-editor).
    func sync()
    /// The form field `id` changed: its value goes into the draft.
    func apply(_ id: String)
}

extension FormTableScreen {
    var form: Form {
        get { view.form }
        set { view.form = newValue }
    }
    var table: TableView {
        get { view.table }
        set { view.table = newValue }
    }
    var textFocused: Bool { !view.tableFocused && (form.focused?.isTextual ?? false) }
    var selectedRow: Int? { view.table.selectedRow }

    func rowsEdited(selecting row: Int?) {
        sync()
        if let row { view.table.select(row: row) }
    }

    func handleText(_ key: Key, app: AppContext) -> Bool {
        sync()
        switch view.handleText(key) {
        case .changed(let id): apply(id)
        case .handled: break
        case .unhandled: return false
        }
        return true
    }

    /// Save and undo of the record, then the body's share of an action — the form's keys,
    /// the list keys, deleting the table's row (`deleted` says what; nil: deleting asks first,
    /// in `danger`) and moving it: `.none` when it took it, nil when the editor answers it
    /// (or, in the form, the global bindings).
    func handleBody(_ action: Action, deleted: ((Int) -> String)? = nil) -> Effect? {
        switch action {
        case .save: return session.map { .save($0) }
        case .undo: return session.map { .say($0.undo() ? "Undone." : "Nothing to undo.") }
        default: break
        }
        switch view.handle(action) {
        case .changed(let id):
            apply(id)
            return Effect.none
        case .handled: return Effect.none
        case .unhandled: return view.tableFocused ? editRow(action, deleted: deleted) : nil
        }
    }

    func click(x: Int, y: Int, app: AppContext) -> Effect? {
        sync()
        let (hit, open) = view.click(x: x, y: y)
        guard hit else { return nil }
        return open ? handle(.open, app: app) : Effect.none
    }
}
