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
    var contexts: [KeyContext] { table.isFiltering ? [] : (listContext.map { [$0] } ?? []) + [.list] }
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

/// The answer to a list view's delete question: the record to delete, or keep everything.
enum DeleteReply {
    case delete(String)
    case keep
}

/// A list view whose rows are records of one kind, each deleted after the question.
protocol RecordListScreen: ListScreen, Asking where Reply == DeleteReply {
    static var recordKind: RecordKind { get }
}

extension RecordListScreen {
    func answer(_ reply: DeleteReply, app: AppContext) -> Effect {
        switch reply {
        case .delete(let name): .delete(Self.recordKind, name)
        case .keep: .none
        }
    }
}

extension Effect {
    /// The question before a dangerous action (a binding marked `dangerous` in the registry:
    /// a delete): Yes does it, No — focused, and Esc — keeps everything.
    static func confirm<A: Asking>(_ asker: A, _ title: String, _ message: String, yes: A.Reply, no: A.Reply)
        -> Effect
    {
        .ask(asker, .buttons(title, message, [("Yes", yes), ("No", no)], focus: 1, cancel: no))
    }
}
