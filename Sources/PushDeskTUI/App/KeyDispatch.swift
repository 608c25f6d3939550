import Foundation
import PushDeskCore

/// Input: a key goes to the help overlay, the dialog, or through the key registry to the
/// top view (its refusals first); what the view answers is applied.
extension ConsoleApp {
    // MARK: input

    /// The one entry point for input. Every state change happens here; then the views are
    /// laid out for the next frame.
    public func handle(_ key: Key) {
        dispatch(key)
        settle()
    }

    func dispatch(_ key: Key) {
        if key == .resize || key == .ignored { return }
        // While git works, keys redraw and Esc asks it to stop after the current step.
        if let job = foregroundJob {
            if key == .escape { job.cancel() }
            message = job.statusLine
            return
        }
        message = nil
        if helpVisible {
            // Arrows scroll a help longer than the screen; any other key closes it.
            switch KeyRegistry.binding(for: key, in: [.help])?.action {
            case .down?: helpScroll += 1
            case .up?: helpScroll = max(0, helpScroll - 1)
            case .pageDown?: helpScroll += 10
            case .pageUp?: helpScroll = max(0, helpScroll - 10)
            default:
                helpVisible = false
                helpScroll = 0
            }
            return
        }
        if var q = question {
            let r = q.dialog.handle(key)
            question = q
            if let r {
                question = nil
                apply(q.answer(r, context))
                recheck()
            }
            return
        }
        defer { recheckIfEdited() }
        if let why = refusal(for: key) {
            message = why
            return
        }
        let s = top
        switch key {
        case .wheelUp:
            apply(s.handle(.up, app: context) ?? .none)
            return
        case .wheelDown:
            apply(s.handle(.down, app: context) ?? .none)
            return
        case .click(let x, let y):
            apply(s.click(x: x, y: y, app: context) ?? .none)
            return
        default: break
        }
        if s.textFocused, Self.isText(key), s.handleText(key, app: context) { return }
        if let b = KeyRegistry.binding(for: key, in: activeContexts) {
            // Editing keys go to the focused field, whose one line editor acts on them.
            if b.context == .textField {
                _ = s.handleText(key, app: context)
                return
            }
            if let e = s.handle(b.action, app: context) { apply(e) } else { handleGlobal(b.action) }
        } else if !s.handleUnbound(key, app: context), s.textFocused {
            _ = s.handleText(key, app: context)
        }
    }

    /// Live rules: re-run them when an open service draft changed since the last check. A
    /// composer previews its own delivery on each edit through the payload engine; the
    /// store-wide check sees the delivery draft when a view opens or closes, or on save —
    /// so typing in a body never re-validates the whole store.
    func recheckIfEdited() {
        let v = stack.compactMap { ($0.session as? ServiceSession)?.version }
        if v != checkedVersions {
            checkedVersions = v
            recheck()
        }
    }

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

    func handleGlobal(_ a: Action) {
        switch a {
        case .help: helpVisible = true
        case .quit: requestQuit()
        case .redraw: fullRedrawRequested = true
        case .findings: if !(top is FindingsScreen) { push(FindingsScreen(app: context)) }
        case .themes:
            let themes = availableThemes
            ask(
                .choices("Theme", options: themes, selected: themes.firstIndex(of: themeName) ?? 0) { i in
                    i.map { .theme(themes[$0]) } ?? .cancelled
                })
        case .back:
            if stack.count > 1 {
                let s = top
                // Leaving the last view of a session asks about its unsaved changes.
                if let sess = s.session, stack.dropLast().allSatisfy({ $0.session !== sess }), sess.isDirty {
                    confirmUnsaved([sess], then: .pop)
                } else {
                    pop()
                }
            }
        case .takeLock: takeLock()
        case .undo: message = "Nothing to undo here."
        default: break
        }
    }
}
