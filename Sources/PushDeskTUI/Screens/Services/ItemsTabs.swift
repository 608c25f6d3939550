import PushDeskCore

/// The app editor's table tabs: Variables, Subscription parameters and Sounds (iOS only),
/// each a table over the form of its selected row (`TableAndRowForm`).
extension AppEditorScreen: DraftRowsEditor {
    /// The table tab's keys: the widget's, then add, delete (at once, `u` brings it back) and move.
    func handleItems(_ action: Action, _ k: ItemKind) -> Effect? {
        if let e = answerItems(view.items.handle(action)) { return e }
        if view.items.editingRow { return nil }
        if let e = editRow(action, deleted: { _ in "Deleted the \(k.noun); u (or Ctrl-Z) brings it back." }) {
            return e
        }
        guard action == .new else { return nil }
        s.edit(nil) { d in k.add(to: &d.apps[index]) }
        sync()
        view.items.select(row: k.count(app) - 1)
        view.items.open()
        return Effect.none
    }

    /// What the widget did: a changed cell goes into the draft; nil when it left the key.
    func answerItems(_ outcome: TableAndRowForm.Outcome) -> Effect? {
        switch outcome {
        case .changed(let r, let id):
            guard let k = itemKind else { return Effect.none }
            let v = view.items.rowForm[id]
            s.edit("\(tab.rawValue)[\(r)].\(id)") { d in k.set(r, id, v, in: &d.apps[index]) }
            sync()
            return Effect.none
        case .handled: return Effect.none
        case .unhandled: return nil
        }
    }

    var selectedRow: Int? { view.items.table.selectedRow }
    var rowCount: Int { itemKind?.count(app) ?? 0 }
    func removeRow(_ i: Int) { s.edit(nil) { d in itemKind?.remove(i, from: &d.apps[index]) } }
    func swapRows(_ i: Int, _ j: Int) { s.edit(nil) { d in itemKind?.swap(i, j, in: &d.apps[index]) } }
    func rowsEdited(selecting row: Int?) {
        sync()
        if let row { view.items.select(row: row) }
    }
}

/// The three tables of an app: variables, subscription parameters, sounds (iOS only).
enum ItemKind: CaseIterable {
    case variables, params, sounds

    var columns: [TableView.Column] {
        switch self {
        case .variables: [.init("Name", width: 24), .init("Label")]
        case .params: [.init("Name", width: 20), .init("Label"), .init("Field", width: 20)]
        case .sounds: [.init("Name (file or system sound)", width: 30), .init("Label")]
        }
    }
    var noun: String {
        switch self {
        case .variables: "variable"
        case .params: "subscription parameter"
        case .sounds: "sound"
        }
    }

    func rows(_ a: MobileApp) -> [[String]] {
        switch self {
        case .variables: a.variables.map { [$0.name, $0.label] }
        case .params: a.subscriptionParams.map { [$0.name, $0.label, $0.field] }
        case .sounds: a.sounds.map { [$0.name, $0.label] }
        }
    }

    /// The form of a row: one field per column, in the columns' order.
    var fields: [FormField] {
        let f = [FormField(id: "name", label: "Name"), FormField(id: "label", label: "Label")]
        return self == .params ? f + [FormField(id: "field", label: "Schema field", note: "e.g. @loyaltyId")] : f
    }

    /// The tab's table over the form of its selected row, empty.
    var widget: TableAndRowForm {
        TableAndRowForm(columns: columns, fields: fields, emptyText: "No \(noun) yet: press n to add one.")
    }

    func add(to a: inout MobileApp) {
        switch self {
        case .variables: a.variables.append(AppVariable(name: ""))
        // The field starts empty and is typed whole: a pre-filled `@` made `@loyaltyId` `@@loyaltyId`.
        case .params: a.subscriptionParams.append(SubscriptionParam(name: "", field: ""))
        case .sounds:
            if case .ios(var i) = a {
                i.sounds.append(Sound(name: ""))
                a = .ios(i)
            }
        }
    }

    func count(_ a: MobileApp) -> Int { rows(a).count }

    func set(_ row: Int, _ id: String, _ v: String, in a: inout MobileApp) {
        switch self {
        case .variables:
            if id == "name" { a.variables[row].name = v } else { a.variables[row].label = v }
        case .params:
            if id == "name" {
                a.subscriptionParams[row].name = v
            } else if id == "label" {
                a.subscriptionParams[row].label = v
            } else {
                a.subscriptionParams[row].field = v
            }
        case .sounds:
            guard case .ios(var i) = a else { return }
            if id == "name" { i.sounds[row].name = v } else { i.sounds[row].label = v }
            a = .ios(i)
        }
    }

    func remove(_ row: Int, from a: inout MobileApp) {
        switch self {
        case .variables: a.variables.remove(at: row)
        case .params: a.subscriptionParams.remove(at: row)
        case .sounds:
            if case .ios(var i) = a {
                i.sounds.remove(at: row)
                a = .ios(i)
            }
        }
    }

    func swap(_ r1: Int, _ r2: Int, in a: inout MobileApp) {
        switch self {
        case .variables: a.variables.swapAt(r1, r2)
        case .params: a.subscriptionParams.swapAt(r1, r2)
        case .sounds:
            if case .ios(var i) = a {
                i.sounds.swapAt(r1, r2)
                a = .ios(i)
            }
        }
    }
}
