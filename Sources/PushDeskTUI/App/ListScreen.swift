import PushDeskCore

/// A view that is a list (services, deliveries, findings, profiles, sends, a commit's files,
/// a history, a conflict's fields): one `TableView` with the registry's list keys, `/` to
/// filter (while the filter line has focus the keys type into it), and the mouse — a click
/// selects a row, a click on the selected row opens it (like a double-click). Conforming
/// gives all of it (its view state is the `TableView`); the view answers only its own actions.
protocol ListScreen: StatefulScreen where View == TableView {
    /// The view's own key context, before the list keys (nil: the list keys only).
    var listContext: KeyContext? { get }
}

extension ListScreen {
    /// The list: its rows, selection, filter and scroll (all its view state).
    var table: TableView {
        get { view }
        set { view = newValue }
    }
    var contexts: [KeyContext] { table.contexts((listContext.map { [$0] } ?? []) + [.list]) }
    var textFocused: Bool { table.isFiltering }
    func handleText(_ key: Key, app: AppContext) -> Bool { table.handleFilterKey(key) }
    func handleUnbound(_ key: Key, app: AppContext) -> Bool { table.handleFilterKey(key) }

    func click(x: Int, y: Int, app: AppContext) -> Effect? {
        let before = table.selectedRow
        guard table.click(x: x, y: y) else { return nil }
        if before == table.selectedRow { return handle(.open, app: app) }
        return Effect.none
    }
}

/// A list whose rows are read from the store (or git's state of it): read when it opens and
/// again each time it comes back to the front (an editor above it saved or deleted).
protocol StoreListScreen: ListScreen {
    /// The rows from the store as it is now.
    func refresh(_ app: AppContext)
}

extension StoreListScreen {
    func willAppear(app: AppContext) { refresh(app) }
}

/// A list view whose rows are records of one kind, deleted (a dangerous action) after the
/// framework's question.
protocol RecordListScreen: StoreListScreen {
    static var recordKind: RecordKind { get }
}

extension RecordListScreen {
    /// Deleting the record `name`: Yes deletes its file.
    func deleting(_ name: String, _ title: String, _ question: String) -> Danger {
        Danger(title, question, yes: .delete(Self.recordKind, name))
    }
}
