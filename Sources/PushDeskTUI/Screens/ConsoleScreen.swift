/// One view on the navigation stack (htop's Panel): it answers actions and keys with an
/// `Effect` that `ConsoleApp.apply` carries out, and draws itself into a rectangle of the
/// cell buffer. It reads the app, never writes into it, and never touches the terminal.
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
    /// Text typed into the focused field; true when the view used the key.
    func handleText(_ key: Key, app: ConsoleApp) -> Bool
    /// An action of the registry; nil when the view leaves it to the global bindings.
    func handle(_ action: Action, app: ConsoleApp) -> Effect?
    /// Keys no binding took (e.g. Tab between form and table, Esc inside a sub-form).
    func handleUnbound(_ key: Key, app: ConsoleApp) -> Bool
    func render(into buf: inout CellBuffer, _ rect: Rect, app: ConsoleApp)
    /// Called when the view comes back to the top of the stack.
    func willAppear(app: ConsoleApp)
    /// A mouse click at a screen cell (with `--mouse`); nil when nothing is there.
    func click(x: Int, y: Int, app: ConsoleApp) -> Effect?
}

extension ConsoleScreen {
    var session: (any DraftSession)? { nil }
    var recoverable: RecoverableDraft? { session }
    func handleUnbound(_ key: Key, app: ConsoleApp) -> Bool { false }
    func willAppear(app: ConsoleApp) {}
    func click(x: Int, y: Int, app: ConsoleApp) -> Effect? { nil }
}
