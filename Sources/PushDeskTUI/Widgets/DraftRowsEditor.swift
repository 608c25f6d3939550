import PushDeskCore

/// An editor whose table shows a list of its draft row for row (a service's apps, a
/// profile's test devices, an app's variables, parameters or sounds). The row keys they all
/// share act here: delete the selected row at once (`u` brings it back; where deleting asks
/// first, the editor's `danger` answers instead) and move it up or down (K/J). Each is one
/// edit of the draft, so one undo takes it back.
protocol DraftRowsEditor: AnyObject {
    /// The selected row of the table, nil when none is shown.
    var selectedRow: Int? { get }
    /// How many rows the list has in the draft.
    var rowCount: Int { get }
    /// Removes a row from the draft (one edit).
    func removeRow(_ i: Int)
    /// Swaps two rows in the draft (one edit).
    func swapRows(_ i: Int, _ j: Int)
    /// Pulls the draft into the widgets after a row edit, selecting `row` (nil: where it was).
    func rowsEdited(selecting row: Int?)
}

extension DraftRowsEditor {
    /// Delete and move; nil for any other action. `deleted` says what a deletion removed
    /// (nil: the table does not delete at once).
    func editRow(_ action: Action, deleted: ((Int) -> String)? = nil) -> Effect? {
        switch action {
        case .delete:
            guard let deleted else { return nil }
            guard let sel = selectedRow, sel < rowCount else { return Effect.none }
            let said = deleted(sel)
            removeRow(sel)
            rowsEdited(selecting: nil)
            return .say(said)
        case .moveUp, .moveDown:
            guard let sel = selectedRow else { return Effect.none }
            let to = action == .moveUp ? sel - 1 : sel + 1
            guard (0..<rowCount).contains(to) else { return Effect.none }
            swapRows(sel, to)
            rowsEdited(selecting: to)
            return Effect.none
        default: return nil
        }
    }
}
