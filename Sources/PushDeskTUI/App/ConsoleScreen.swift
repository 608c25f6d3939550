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
    func handleText(_ key: Key, app: AppContext) -> Bool
    /// An action of the registry; nil when the view leaves it to the global bindings.
    func handle(_ action: Action, app: AppContext) -> Effect?
    /// What an action whose binding is `dangerous` would do, which the framework asks about
    /// before doing it (`respond(to:)`); nil when there is nothing to act on.
    func danger(_ action: Action, app: AppContext) -> Danger?
    /// Keys no binding took (e.g. Tab between form and table, Esc inside a sub-form).
    func handleUnbound(_ key: Key, app: AppContext) -> Bool
    /// Draws the view; changes nothing (a `StatefulScreen` draws from a copy of its view state).
    func render(into buf: inout CellBuffer, _ rect: Rect, app: AppContext)
    /// After each key (and a resize), first: brings what the view shows up to date with the
    /// state (draft → form values, findings → messages).
    func update(_ rect: Rect, app: AppContext)
    /// Then: draws the view at the size it is shown, keeping the view state that drawing lays
    /// out (scroll offsets that follow the selection or the cursor, click areas).
    func layOut(into buf: inout CellBuffer, _ rect: Rect, app: AppContext)
    /// Called when the view comes back to the top of the stack.
    func willAppear(app: AppContext)
    /// A mouse click at a screen cell (with `--mouse`); nil when nothing is there.
    func click(x: Int, y: Int, app: AppContext) -> Effect?
    /// Work the view shows from the moment it opens (a git read): the app runs it when the
    /// view is pushed, and cancels the view's jobs when it leaves the stack.
    var jobsOnOpen: [Job] { get }
    /// Where the focus is, by name (the tab, the field, how many stops): what tests and the
    /// test driver ask, so that nothing outside the view switches on its class.
    var focus: ScreenFocus { get }
}

/// Where a view's focus is, by name.
struct ScreenFocus: Equatable {
    /// The tab in view, by its case name (`content`, `ios`, `credentials`); nil without tabs.
    var tab: String?
    /// The focused field's id, or the name of the part that has focus instead (`apps`,
    /// `table`, `devices`, `preview`); nil when nothing named has it.
    var field: String?
    /// How many stops the next-field key goes through before it comes round again.
    var stops = 0
}

extension ConsoleScreen {
    var session: (any DraftSession)? { nil }
    var recoverable: RecoverableDraft? { session }
    func handleUnbound(_ key: Key, app: AppContext) -> Bool { false }
    func willAppear(app: AppContext) {}
    func danger(_ action: Action, app: AppContext) -> Danger? { nil }
    func click(x: Int, y: Int, app: AppContext) -> Effect? { nil }
    var jobsOnOpen: [Job] { [] }
    var focus: ScreenFocus { ScreenFocus() }
}

/// A view whose scroll offsets and click areas live in one value, `view` (ratatui's stateful
/// widgets). After each key the app settles it: `update`, then `layOut` draws the frame of
/// the terminal's size and keeps `view`. `render` draws from a copy, so drawing changes
/// nothing: the same state gives the same frame, however often it is drawn.
protocol StatefulScreen: ConsoleScreen {
    associatedtype View
    var view: View { get set }
    /// Draws into `buf`, laying out `view` (scroll offsets that follow the selection or the
    /// cursor, click areas) for `rect`.
    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view: inout View)
}

extension StatefulScreen {
    func update(_ rect: Rect, app: AppContext) {}

    func render(into buf: inout CellBuffer, _ rect: Rect, app: AppContext) {
        var v = view
        draw(into: &buf, rect, app: app, view: &v)
    }

    func layOut(into buf: inout CellBuffer, _ rect: Rect, app: AppContext) {
        var v = view
        draw(into: &buf, rect, app: app, view: &v)
        view = v
    }
}
