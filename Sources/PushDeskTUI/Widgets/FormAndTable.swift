import PushDeskCore

/// A record editor's body: a form above a table — a service's fields over its apps, a
/// profile's recipient fields over its test devices — with the focus in one of them, and
/// the findings pane at the bottom. The plumbing both editors share: text into the focused
/// field, Tab off the last field (or Shift-Tab off the first, or Enter on the last) into the
/// table and Tab or Shift-Tab back, clicks, and the layout. The editor answers what is its own
/// (the record's edits, open, add; delete and move through `DraftRowsEditor`).
struct FormAndTable {
    var form: Form
    var table: TableView
    var tableFocused = false

    /// What a key or an action did in the body.
    enum Outcome: Equatable {
        /// The form field with this id changed: the editor writes it into the draft.
        case changed(String)
        /// Handled (moved, selected, the focus changed).
        case handled
        /// Not the body's: the editor's own action, or the global bindings'.
        case unhandled
    }

    /// A text key: into the focused form field.
    mutating func handleText(_ key: Key) -> Outcome {
        guard !tableFocused else { return .unhandled }
        switch form.handleText(key) {
        case .changed(let id): return .changed(id)
        case .moved: return .handled
        default: return .unhandled
        }
    }

    /// An action: in the form, the field keys (Tab off the last field, Shift-Tab off the
    /// first, Enter on the last enter the table); in the table, the list keys, and Tab or
    /// Shift-Tab back into the form (at its first or last field).
    mutating func handle(_ action: Action) -> Outcome {
        if tableFocused, action == .nextField || action == .prevField {
            leaveTable(forward: action == .nextField)
            return .handled
        }
        guard !tableFocused else { return table.handle(action) ? .handled : .unhandled }
        let last = form.fields.count - 1
        if (action == .nextField || action == .pick) && form.focus == last || action == .prevField && form.focus == 0 {
            tableFocused = true
            return .handled
        }
        switch form.handle(action) {
        case .changed(let id): return .changed(id)
        case .unhandled: return .unhandled
        default: return .handled
        }
    }

    /// From the table back into the form, at its first field (`forward`) or its last.
    private mutating func leaveTable(forward: Bool) {
        tableFocused = false
        form.focus = forward ? 0 : form.fields.count - 1
    }

    /// The focus on the table at a row (a finding's jump, a row just added).
    mutating func focusTable(row: Int) {
        table.select(row: row)
        tableFocused = true
    }

    /// A click: a form field takes the focus; a table row is selected, and a click on the
    /// row already selected in the focused table opens it (`open` true).
    mutating func click(x: Int, y: Int) -> (hit: Bool, open: Bool) {
        if form.click(x: x, y: y) {
            tableFocused = false
            return (true, false)
        }
        let before = table.selectedRow
        guard table.click(x: x, y: y) else { return (false, false) }
        let open = tableFocused && before == table.selectedRow
        tableFocused = true
        return (true, open)
    }

    /// Draws the form (at most about half the height, `formExtra` rows more) over the table,
    /// the findings pane under both.
    mutating func draw(
        into buf: inout CellBuffer, _ rect: Rect, formTitle: String, tableTitle: String, formExtra: Int,
        findings: [Finding]
    ) {
        let paneH = min(max(findings.count, 1), 4) + 1
        let (main, pane) = rect.splitBottom(paneH)
        let formH = form.height(width: main.width - 2) + 2
        let (formBox, tableBox) = main.splitTop(min(formH, main.height / 2 + formExtra))
        buf.box(formBox, role: tableFocused ? .border : .borderFocus, title: formTitle)
        form.render(into: &buf, formBox.inset(1), focused: !tableFocused)
        buf.box(tableBox, role: tableFocused ? .borderFocus : .border, title: tableTitle)
        table.render(into: &buf, tableBox.inset(1), focused: tableFocused)
        FindingsPane.render(into: &buf, pane, findings: findings)
    }
}
