/// One view on the navigation stack (htop's Panel): it answers actions and keys, and
/// draws itself into a rectangle of the cell buffer. It never touches the terminal.
protocol ConsoleScreen: AnyObject {
    /// Title-bar text (the app adds the dirty marker from `session`).
    var title: String { get }
    /// Key contexts of the focused part, most specific first (`.global` is added).
    var contexts: [KeyContext] { get }
    /// True when a text field has focus: printable keys and pastes are text there.
    var textFocused: Bool { get }
    /// The record this view edits, if any.
    var session: (any DraftSession)? { get }
    /// The draft a dropped connection must not lose: the view's session (service or delivery).
    var recoverable: RecoverableDraft? { get }
    func handleText(_ key: Key, app: ConsoleApp) -> Bool
    func handle(_ action: Action, app: ConsoleApp) -> Bool
    /// Keys no binding took (e.g. Tab between form and table, Esc inside a sub-form).
    func handleUnbound(_ key: Key, app: ConsoleApp) -> Bool
    func dialogResult(_ id: String, _ result: Dialog.Result, app: ConsoleApp)
    func render(into buf: inout CellBuffer, _ rect: Rect, app: ConsoleApp)
    /// Called when the view comes back to the top of the stack.
    func willAppear(app: ConsoleApp)
    /// A mouse click at a screen cell (with `--mouse`); true when it did something.
    func click(x: Int, y: Int, app: ConsoleApp) -> Bool
}

extension ConsoleScreen {
    var session: (any DraftSession)? { nil }
    var recoverable: RecoverableDraft? { session }
    func handleUnbound(_ key: Key, app: ConsoleApp) -> Bool { false }
    func dialogResult(_ id: String, _ result: Dialog.Result, app: ConsoleApp) {}
    func willAppear(app: ConsoleApp) {}
    func click(x: Int, y: Int, app: ConsoleApp) -> Bool { false }
}
