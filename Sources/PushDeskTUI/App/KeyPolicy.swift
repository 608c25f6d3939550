import Foundation
import PushDeskCore

/// Where a key stands right now: the key contexts in force (the top view's, the text-field
/// keys when a field has focus, the global ones) and, from each binding's policy in the
/// registry, why it cannot act (loading, nothing open, no repository, a read-only console),
/// what the status bar hides and what help leaves out. Made afresh for each key and frame.
struct KeyPolicy {
    let access: StoreAccess
    let loading: Bool
    let git: GitStatus?
    let top: ConsoleScreen

    /// The key contexts in force: the top view's, the text-field keys when a field has
    /// focus, then the global ones.
    var activeContexts: [KeyContext] { top.contexts + (top.textFocused ? [.textField] : []) + [.global] }

    /// Why a key cannot act here, from its binding's policy in the registry (or typing into
    /// a record of a read-only console); nil when it can.
    func refusal(for key: Key) -> String? {
        if access.isReadOnly, top.recoverable != nil, top.textFocused, Self.isText(key) { return access.refusal }
        return KeyRegistry.binding(for: key, in: activeContexts).flatMap(refusal)
    }

    /// The refusal of an action reached another way than its key (a click opens a row).
    func refusal(for action: Action) -> Effect? {
        KeyRegistry.bindings(in: activeContexts).first { $0.action == action }.flatMap(refusal).map { .say($0) }
    }

    /// Why a binding cannot act now: a condition it is unavailable under, or it writes and
    /// the console is read-only (a text field writes only when it is a record's).
    func refusal(_ b: KeyBinding) -> String? {
        if let u = b.unavailable.first(where: { holds($0.when) }) { return u.why }
        if b.writes, access.isReadOnly, b.context != .textField || top.recoverable != nil { return access.refusal }
        return nil
    }

    /// Left out of the help overlay: the git keys outside a repository (the console then
    /// looks as it does without git).
    func notHereInHelp(_ b: KeyBinding) -> Bool {
        git == nil && b.unavailable.contains { $0.when == .noRepository }
    }

    func holds(_ c: KeyCondition) -> Bool {
        switch c {
        case .storeLoading: loading
        case .nothingOpen: top.session == nil
        case .noRepository: git == nil
        }
    }

    /// Not offered in the status bar: what a read-only console refuses, or what cannot act
    /// for a lasting reason (nothing open).
    func hintHidden(_ b: KeyBinding) -> Bool {
        if b.unavailable.contains(where: { $0.when.hidesHint && holds($0.when) }) { return true }
        return b.writes && access.isReadOnly && (b.context != .textField || top.recoverable != nil)
    }

    /// Printable text and pastes (never commands while a text field has focus).
    static func isText(_ key: Key) -> Bool {
        switch key {
        case .char, .paste: true
        default: false
        }
    }
}

/// The help overlay's state: shown or not, and how far it is scrolled.
struct HelpState {
    var visible = false
    var scroll = 0

    /// A key while help shows: arrows scroll a help longer than the screen; any other key
    /// closes it.
    mutating func handle(_ key: Key) {
        switch KeyRegistry.binding(for: key, in: [.help])?.action {
        case .down?: scroll += 1
        case .up?: scroll = max(0, scroll - 1)
        case .pageDown?: scroll += 10
        case .pageUp?: scroll = max(0, scroll - 10)
        default: (visible, scroll) = (false, 0)
        }
    }
}

/// The global keys (help, quit, redraw, findings, themes, back, the lock, undo) as effects,
/// for when the top view leaves an action to them.
enum GlobalKeys {
    static func effect(_ a: Action, stack: ScreenStack, state: AppState, app: AppContext) -> Effect {
        switch a {
        case .help: return .showHelp
        case .quit: return .quit
        case .redraw: return .redraw
        case .findings: return stack.top is FindingsScreen ? .none : .push(FindingsScreen(app: app))
        case .themes:
            let themes = state.availableThemes
            let pick = Ask<Effect>.choices(
                "Theme", options: themes, selected: themes.firstIndex(of: state.themeName) ?? 0
            ) { i in i.map { .setTheme(themes[$0]) } ?? .none }
            return .ask(Question(dialog: pick.dialog) { r, _ in pick.reply(r) })
        case .back:
            guard stack.count > 1 else { return .none }
            // Leaving the last view of a session asks about its unsaved changes.
            if let sess = stack.sessionLeftByPop, sess.isDirty { return UnsavedChanges.ask([sess], then: .pop) }
            return .pop
        case .takeLock: return .takeLock(force: false)
        case .undo: return .say("Nothing to undo here.")
        default: return .none
        }
    }
}
