import PushDeskCore

/// A table over the form of its selected row — an app's variables, subscription parameters
/// or sounds — with the focus in the table or in the row's form. The plumbing: the table's
/// list and filter keys, Enter or Tab into the row's form, Esc (or Tab or Enter off its last
/// field) back to the table, clicks, and the layout. The editor answers what is its own:
/// a changed cell into its draft, and adding, deleting and moving rows (`DraftRowsEditor`).
struct TableAndRowForm {
    var table: TableView
    /// The row form's fields (ids, labels, notes); their values are the selected row's cells, in order.
    let fields: [FormField]
    var rowForm = Form([])
    /// The focus is in the selected row's form (else in the table).
    var editingRow = false

    init(columns: [TableView.Column], fields: [FormField], emptyText: String) {
        table = TableView(columns: columns)
        table.emptyText = emptyText
        self.fields = fields
    }

    var textFocused: Bool { editingRow ? (rowForm.focused?.isTextual ?? false) : table.isFiltering }

    /// The rows from the draft; the selection stays on its row (or the last one), its form follows.
    mutating func setRows(_ rows: [[String]]) {
        let keep = table.selectedRow
        table.setRows(rows)
        if let keep { table.select(row: min(keep, max(0, rows.count - 1))) }
        syncRowForm()
    }

    /// Selects a row (a finding's jump, a row just added or moved); its form follows.
    mutating func select(row: Int) {
        table.select(row: row)
        syncRowForm()
    }

    /// The focus into the selected row's form, at its first field; false when no row is selected.
    @discardableResult
    mutating func open() -> Bool {
        guard table.selectedRow != nil else { return false }
        syncRowForm()
        editingRow = true
        rowForm.focus = 0
        return true
    }

    /// The selected row's cells into its form: built afresh when it has no fields yet, else
    /// changed in place so the cursor stays where it is.
    private mutating func syncRowForm() {
        guard let r = table.selectedRow else {
            rowForm = Form([])
            editingRow = false
            return
        }
        let row = table.rows[r]
        func cell(_ i: Int) -> String { row.indices.contains(i) ? row[i] : "" }
        if rowForm.fields.count != fields.count {
            var filled = fields
            for i in filled.indices { filled[i].value = cell(i) }
            rowForm = Form(filled)
        } else {
            for (i, f) in rowForm.fields.enumerated() where f.value != cell(i) { rowForm.fields[i].value = cell(i) }
        }
    }

    /// What a key or an action did.
    enum Outcome: Equatable {
        /// The field `id` of the row `row` changed: the editor writes it into the draft.
        case changed(row: Int, id: String)
        /// Handled (moved, selected, filtered, the focus changed).
        case handled
        /// Not the widget's: the editor's own action (add, delete, move), or the global bindings'.
        case unhandled
    }

    /// A text key: into the row's form, or the table's filter line.
    mutating func handleText(_ key: Key) -> Outcome {
        guard editingRow else { return table.handleFilterKey(key) ? .handled : .unhandled }
        switch rowForm.handleText(key) {
        case .changed(let id):
            guard let r = table.selectedRow else { return .handled }
            return .changed(row: r, id: id)
        case .moved: return .handled
        default: return .unhandled
        }
    }

    /// A key no binding takes: the table's filter line while it is being edited.
    mutating func handleUnbound(_ key: Key) -> Bool { !editingRow && table.handleFilterKey(key) }

    /// An action: in the row's form, its field keys (Esc, or Tab or Enter off the last field,
    /// go back to the table); in the table, the list keys, and Enter or Tab into the row's form.
    mutating func handle(_ action: Action) -> Outcome {
        if table.isFiltering, action == .back || action == .open { return table.handle(action) ? .handled : .unhandled }
        if editingRow {
            let last = rowForm.focus == rowForm.fields.count - 1
            if action == .back || (action == .nextField || action == .pick) && last {
                editingRow = false
                return .handled
            }
            return rowForm.handle(action) != .unhandled ? .handled : .unhandled
        }
        if table.handle(action) {
            syncRowForm()
            return .handled
        }
        if action == .open || action == .nextField {
            open()
            return .handled
        }
        return .unhandled
    }

    /// A click: a field of the row's form takes the focus; a table row is selected.
    mutating func click(x: Int, y: Int) -> Bool {
        if !rowForm.fields.isEmpty, rowForm.click(x: x, y: y) {
            editingRow = true
            return true
        }
        guard table.click(x: x, y: y) else { return false }
        editingRow = false
        syncRowForm()
        return true
    }

    /// Draws the table, with `title`, over the selected row's form (`formTitle`).
    mutating func draw(into buf: inout CellBuffer, _ rect: Rect, title: String, formTitle: String) {
        let (tb, fb) = rect.splitBottom(table.selectedRow == nil ? 0 : rowForm.fields.count + 2)
        buf.box(tb, role: editingRow ? .border : .borderFocus, title: title)
        table.render(into: &buf, tb.inset(1), focused: !editingRow)
        guard !fb.isEmpty else { return }
        buf.box(fb, role: editingRow ? .borderFocus : .border, title: formTitle)
        rowForm.render(into: &buf, fb.inset(1), focused: editingRow)
    }
}
