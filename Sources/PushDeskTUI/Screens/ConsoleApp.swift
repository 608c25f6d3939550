import Foundation
import PushDeskCore

/// The console's whole state and its one entry point for input: `handle(_:)` asks the top
/// view what a key means and `apply(_:)` carries out the `Effect` it answers with (the one
/// place where views change the app); `render(width:height:)` draws it into a fresh cell
/// buffer. The terminal layer only feeds keys in and copies buffers out, so all of this
/// runs in tests as it does live.
public final class ConsoleApp {
    public static let minWidth = 60
    public static let minHeight = 16

    public let store: any ConsoleStorage
    public internal(set) var services: [Service] = []
    public internal(set) var loadErrors: [String] = []
    public internal(set) var deliveries: [Delivery] = []
    public internal(set) var profiles: [Profile] = []
    /// Every finding of the store, with the record being edited in place of its saved copy.
    public internal(set) var findings: [Finding] = []
    /// True from a lazy start until the background load arrives (StoreLoading.swift).
    public internal(set) var loading = false
    /// The store's git state (GitState.swift); nil outside a work tree or until it is read.
    public internal(set) var git: GitStatus?
    /// Set when the files changed (a load, save or delete): the run loop reads git again.
    public var gitStatusWanted = true
    /// The git work running off the loop (commit, sync, finishing a rebase); nil when none.
    public internal(set) var gitJob: GitJob?
    /// Answers the console's git questions (an interrupted sync found at start).
    var gitOffer: GitOffer?
    /// The interrupted-sync question is asked once per console (Later: at the next start).
    var rebaseOffered = false
    var stack: [ConsoleScreen] = []
    /// The open dialog and where its answer goes.
    var question: Question?
    /// The open dialog, if any.
    public var dialog: Dialog? { question?.dialog }
    public private(set) var helpVisible = false
    private(set) var helpScroll = 0
    /// The size the console is drawn at (the terminal's, from `resize`). View state (scroll
    /// offsets, click areas) is laid out for it after every key, so drawing changes nothing.
    public private(set) var viewWidth = 80
    public private(set) var viewHeight = 24
    /// Borders in ASCII (a non-UTF-8 locale): set by the runner, so settled frames match.
    public var asciiOnly = false { didSet { settledFrame = nil } }
    /// The frame `settle` drew at the view size, which `render` of that size returns: one
    /// drawing per key. Anything drawn that changes outside a key drops it.
    private var settledFrame: CellBuffer?
    /// One-shot status message, cleared by the next key.
    public var message: String? { didSet { settledFrame = nil } }
    public private(set) var quitRequested = false
    /// Set when the operator asked for Ctrl-L (the terminal repaints everything once).
    public var fullRedrawRequested = false
    public internal(set) var themeName: String { didSet { settledFrame = nil } }
    /// A theme the operator picked; the terminal layer applies it and clears this.
    public var pendingTheme: String?
    public var availableThemes: [String]
    /// Text the console prints to standard output once the terminal is restored (the
    /// composer's "copy out to stdout").
    public private(set) var exitOutput: [String] = []
    /// Editing or read-only (another operator holds the store's lock).
    public let access: StoreAccess
    /// Writes the open drafts to the recovery file (set by the runner; nil in screen tests).
    public var recovery: RecoveryKeeper?
    /// Recovery offers waiting for an answer.
    var reliability = ReliabilityState()
    /// The time the composer's previews are made at (a fixed one in tests).
    public var clock: @Sendable () -> Date = { Date() }
    /// Network work off the input loop (BackgroundWork.swift); the runner wakes often while it runs.
    public let background = BackgroundWork()

    /// `loadNow: false` starts from the store's index (names only) and waits for
    /// `finishLoading` (a large store: docs/PERFORMANCE.md).
    public init(
        store: some ConsoleStorage, themeName: String = "default", availableThemes: [String] = ["default"],
        access: StoreAccess = .unlocked(), loadNow: Bool = true
    ) {
        self.store = store
        self.access = access
        self.themeName = themeName
        self.availableThemes = availableThemes
        if loadNow { reload() } else { beginLoading() }
        stack = [ServicesListScreen(app: self)]
        settle()
    }

    /// The terminal's size changed (or is first known): lay the views out for it.
    public func resize(width: Int, height: Int) {
        viewWidth = width
        viewHeight = height
        settle()
    }

    /// The title row, the body the views draw in (under the read-only banner) and the status row.
    private func frame(width: Int, height: Int) -> (title: Rect, body: Rect, status: Rect) {
        let all = Rect(x: 0, y: 0, width: width, height: height)
        let (titleRow, rest) = all.splitTop(1)
        var (body, statusRow) = rest.splitBottom(1)
        if access.banner != nil { body = body.splitTop(1).1 }
        return (titleRow, body, statusRow)
    }

    /// After every key: the top view brings what it shows up to date, then the frame of the
    /// current size is drawn once, keeping the scroll offsets and click areas of the view,
    /// the help overlay and the dialog.
    func settle() {
        settledFrame = nil
        guard viewWidth >= Self.minWidth, viewHeight >= Self.minHeight else { return }
        top.update(frame(width: viewWidth, height: viewHeight).body, app: self)
        settledFrame = draw(width: viewWidth, height: viewHeight, asciiOnly: asciiOnly, settling: true)
    }

    // MARK: store

    public func reload() {
        settledFrame = nil
        let r = store.load()
        services = r.services
        loadErrors = r.errors
        deliveries = store.deliveries()
        profiles = store.profiles()
        recheck()
        gitStatusWanted = true
    }

    /// The open sessions editing records of one kind, each once (views may share one).
    func sessions<R>(of: R.Type) -> [EditSession<R>] {
        var out: [EditSession<R>] = []
        for case let s as EditSession<R> in stack.compactMap(\.session) where !out.contains(where: { $0 === s }) {
            out.append(s)
        }
        return out
    }

    /// `base`, or `base2`, `base3`, … : the first name not yet taken (a duplicate's name).
    static func uniqueName(_ base: String, taken: [String]) -> String {
        let names = Set(taken)
        var n = base
        var i = 2
        while names.contains(n) {
            n = "\(base)\(i)"
            i += 1
        }
        return n
    }

    /// Saved records with every open draft in place of its saved copy (new ones appended).
    static func substituting<R>(_ saved: [R], _ sessions: [EditSession<R>]) -> [R] {
        var list = saved
        for s in sessions {
            if let o = s.original, let i = list.firstIndex(where: { $0.name == o.name }) {
                list[i] = s.draft
            } else {
                list.append(s.draft)
            }
        }
        return list
    }

    /// The service as the console sees it now: an open draft of it, else the saved one.
    func currentService(named name: String) -> Service? {
        sessions(of: Service.self).first { $0.draft.name == name }?.draft ?? services.first { $0.name == name }
    }

    /// Re-runs the core rules with every open draft in place of its saved record.
    func recheck() {
        findings = store.check(
            Self.substituting(services, sessions(of: Service.self)),
            Self.substituting(deliveries, sessions(of: Delivery.self)))
    }

    /// Findings of one service file.
    func findings(forService name: String) -> [Finding] {
        findings.filter { $0.file == Service.path(name) }
    }

    /// Saves a session's draft (a service or a delivery) through the store: an atomic write,
    /// only if the file on disk is still the one the draft started from (else the conflict
    /// dialog); a rename saves the new file, then deletes the old one unless it changed.
    @discardableResult
    func save(_ session: any DraftSession) -> Bool { saveDraft(session) }

    private func saveDraft<S: DraftSession>(_ session: S) -> Bool {
        let d = session.draft
        let kind = S.Record.kind
        guard Store.isValidName(d.name) else {
            let what =
                switch kind {
                case .service: "The internal name must be \(Store.nameRule):\nit is the file name. Set Name"
                case .delivery:
                    "The delivery name must be \(Store.nameRule):\nit is the file name. Set Name (Content tab)"
                case .profile: "The profile name must be \(Store.nameRule):\nit is the file name. Set Name"
                }
            show("Cannot save", what + " and press Ctrl-S again.")
            return false
        }
        let taken = savedNames(kind)
        if d.name != session.original?.name, taken.contains(d.name) {
            show("Cannot save", "A \(S.Record.noun) named '\(d.name)' already exists.\nChoose another name.")
            return false
        }
        let written: FileFingerprint
        // A renamed record is a new file (it must not exist yet); the old one goes afterwards.
        let renamed = session.original.map { $0.name != d.name } ?? false
        do {
            written = try store.saveChecked(record: d, renamed ? .absent : session.baseline ?? baseline(for: session))
        } catch let c as StoreConflict {
            showConflict(session, c)
            return false
        } catch {
            show("Save failed", Sanitize.string("\(error)"))
            return false
        }
        var kept: String?
        if let old = session.original?.name, old != d.name {
            // A rename deletes the old file, unless it changed on disk meanwhile.
            do { try store.deleteChecked(kind, old, session.baseline ?? .absent) } catch {
                kept =
                    " — kept \(kind.path(old)): \(error is StoreConflict ? "it changed on disk" : Sanitize.string("\(error)"))"
            }
        }
        session.markSaved(baseline: .read(written))
        reload()
        let errs = findings.filter { $0.file == kind.path(d.name) && $0.severity == .error }.count
        message =
            "Saved \(kind.path(d.name))" + (errs > 0 ? " (\(errs) error\(errs == 1 ? "" : "s") to fix: Ctrl-F)" : "")
            + (kept ?? "")
        return true
    }

    // MARK: navigation

    var top: ConsoleScreen { stack[stack.count - 1] }

    func push(_ s: ConsoleScreen) {
        if let sess = s.session {
            // The editor's baseline is the file as last loaded, where `original` came from.
            if sess.baseline == nil { sess.baseline = baseline(for: sess) }
            sess.readOnly = access.isReadOnly
        }
        stack.append(s)
        recheck()
    }

    func pop() {
        guard stack.count > 1 else { return }
        stack.removeLast()
        recheck()
        top.willAppear(app: self)
    }

    /// Edit sessions with unsaved changes (one per open editor or composer).
    var dirtySessions: [any DraftSession] {
        var seen: [any DraftSession] = []
        for s in stack.compactMap(\.session) where s.isDirty && !seen.contains(where: { $0 === s }) { seen.append(s) }
        return seen
    }

    /// Runs `then` now, or after asking save / discard / cancel when there are unsaved changes.
    func confirmUnsaved(_ sessions: [any DraftSession], then: @escaping () -> Void) {
        guard !sessions.isEmpty else {
            then()
            return
        }
        let more =
            sessions.count > 1 ? " (and \(sessions.count - 1) other record\(sessions.count == 2 ? "" : "s"))" : ""
        ask(
            .buttons(
                "Unsaved changes", "Save the changes to \(sessions[0].displayName)\(more)?",
                [
                    ("Save", .unsaved(save: sessions, then: then)), ("Discard", .unsaved(save: [], then: then)),
                    ("Cancel", .cancelled),
                ], focus: 0, cancel: .cancelled))
    }

    func requestQuit() { confirmUnsaved(dirtySessions) { [weak self] in self?.quitRequested = true } }

    // MARK: effects and dialogs

    /// The one place where what a view answered happens.
    func apply(_ effect: Effect) {
        switch effect {
        case .none: break
        case .push(let s): push(s)
        case .pop: pop()
        case .replace(let s):
            if stack.count > 1 { stack.removeLast() }
            push(s)
        case .ask(let q): question = q
        case .say(let m): message = m
        case .save(let s): save(s)
        case .delete(let kind, let name): delete(kind, name)
        case .quit: requestQuit()
        case .printOnExit(let text): exitOutput.append(text)
        case .offerNextRecovery: showNextOffer()
        case .git(let job): startGitJob(job)
        case .all(let effects): for e in effects { apply(e) }
        case .jump(let screens): jump(to: screens)
        }
    }

    /// A finding's record opened from the findings view (or the composer's preview).
    private func jump(to screens: [ConsoleScreen]) {
        if top is FindingsScreen, stack.count > 1 { stack.removeLast() }
        if let sess = screens.first?.session {
            // The list under everything stays, so Esc always ends somewhere.
            let kept = [stack[0]] + stack.dropFirst().filter { $0.session !== sess }
            stack = kept
        }
        for s in screens { push(s) }
    }

    /// Opens one of the console's own dialogs (its answer comes back to `answer`).
    func ask(_ q: Ask<AppReply>) { apply(.ask(self, q)) }

    /// A message dialog (OK only).
    func show(_ title: String, _ message: String) { apply(.inform(title, message)) }

    /// Deletes a listed record's file, only the version that was listed: a file changed
    /// on disk since is kept (and the lists show it as it is now).
    private func delete(_ kind: RecordKind, _ name: String) {
        do {
            try store.deleteChecked(kind, name, store.baseline(kind.path(name)))
            reload()
            top.willAppear(app: self)
            message = "Deleted \(kind.path(name))"
        } catch {
            if error is StoreConflict {
                reload()
                top.willAppear(app: self)
            }
            show("Delete failed", Sanitize.string("\(error)"))
        }
    }

    // MARK: input

    /// The one entry point for input. Every state change happens here; then the views are
    /// laid out for the next frame.
    public func handle(_ key: Key) {
        dispatch(key)
        settle()
    }

    private func dispatch(_ key: Key) {
        if key == .resize || key == .ignored { return }
        // While git works, keys redraw and Esc asks it to stop after the current step.
        if let job = gitJob {
            if key == .escape { job.cancel() }
            message = job.statusLine
            return
        }
        message = nil
        if helpVisible {
            // Arrows scroll a help longer than the screen; any other key closes it.
            switch key {
            case .down, .char("j"): helpScroll += 1
            case .up, .char("k"): helpScroll = max(0, helpScroll - 1)
            case .pageDown: helpScroll += 10
            case .pageUp: helpScroll = max(0, helpScroll - 10)
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
                apply(q.answer(r, self))
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
            apply(s.handle(.up, app: self) ?? .none)
            return
        case .wheelDown:
            apply(s.handle(.down, app: self) ?? .none)
            return
        case .click(let x, let y):
            apply(s.click(x: x, y: y, app: self) ?? .none)
            return
        default: break
        }
        if s.textFocused, Self.isText(key), s.handleText(key, app: self) { return }
        if let b = KeyRegistry.binding(for: key, in: activeContexts) {
            // Editing keys go to the focused field, whose one line editor acts on them.
            if b.context == .textField {
                _ = s.handleText(key, app: self)
                return
            }
            if let e = s.handle(b.action, app: self) { apply(e) } else { handleGlobal(b.action) }
        } else if !s.handleUnbound(key, app: self), s.textFocused {
            _ = s.handleText(key, app: self)
        }
    }

    /// Live rules: re-run them when an open service draft changed since the last check. A
    /// composer previews its own delivery on each edit through the payload engine; the
    /// store-wide check sees the delivery draft when a view opens or closes, or on save —
    /// so typing in a body never re-validates the whole store.
    private var checkedVersions: [Int] = []
    private func recheckIfEdited() {
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
    private func hintHidden(_ b: KeyBinding) -> Bool {
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

    private func handleGlobal(_ a: Action) {
        switch a {
        case .help: helpVisible = true
        case .quit: requestQuit()
        case .redraw: fullRedrawRequested = true
        case .findings: if !(top is FindingsScreen) { push(FindingsScreen(app: self)) }
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
                    confirmUnsaved([sess]) { [weak self] in self?.pop() }
                } else {
                    pop()
                }
            }
        case .takeLock: takeLock()
        case .undo: message = "Nothing to undo here."
        default: break
        }
    }

    /// Called by the terminal layer when a theme could not be loaded.
    public func themeFailed(_ why: String) {
        themeName = "default"
        message = why
    }

    /// A message dialog from outside the views (the runner: a theme that was not used).
    public func inform(title: String, message: String) {
        show(title, message)
        settle()
    }

    // MARK: drawing

    /// Draws the whole state into a new buffer of this size; changes nothing (view state was
    /// laid out for `viewWidth` × `viewHeight` after the last key: another size draws from
    /// copies laid out on the fly).
    public func render(width: Int, height: Int, asciiOnly: Bool = false) -> CellBuffer {
        if let f = settledFrame, f.width == width, f.height == height, f.asciiOnly == asciiOnly { return f }
        return draw(width: width, height: height, asciiOnly: asciiOnly, settling: false)
    }

    /// Draws a frame. Only `settle` passes `settling`: then the views keep the view state the
    /// drawing lays out (scroll offsets, click areas, the help overlay's and the dialog's);
    /// otherwise each draws from a copy and nothing changes.
    func draw(width: Int, height: Int, asciiOnly: Bool, settling: Bool) -> CellBuffer {
        var buf = CellBuffer(width: width, height: height)
        buf.asciiOnly = asciiOnly
        buf.fill(buf.bounds, role: .normal)
        guard width >= Self.minWidth, height >= Self.minHeight else {
            TooSmallView.render(into: &buf, dialog: dialog)
            return buf
        }
        let (titleRow, body, statusRow) = frame(width: width, height: height)
        if let banner = access.banner {
            // A read-only console says so on every screen, with who holds the store.
            let line = Rect(x: 0, y: titleRow.maxY, width: width, height: 1)
            buf.fill(line, role: .findingWarning)
            buf.put(" " + banner, x: line.x, y: line.y, role: .findingWarning, maxX: line.maxX)
        }
        buf.fill(titleRow, role: .title)
        let dirty = stack.contains { $0.session?.isDirty ?? false }
        var x = 1
        if dirty { x = buf.put("* ", x: x, y: 0, role: .titleDirty) }
        // In a text field `?` is a character: the title names the key that opens help there.
        let help = KeyRegistry.bindings(in: [.global]).first { $0.action == .help }
        let helpKey = help?.shownKey(textFocused: top.textFocused).label ?? "?"
        let right = "\(helpKey) help  " + themeName
        let titleEnd = width - TextWidth.width(of: right) - 2
        let title =
            "PushDesk — " + top.title + (git.map { " [\($0.summary)]" } ?? "")
            + (access.isReadOnly ? " [read-only]" : "")
        x = buf.put(
            TextWidth.truncate(title, to: titleEnd - x - (dirty ? 11 : 0)), x: x, y: 0, role: .title, maxX: titleEnd)
        if dirty { buf.put(" (modified)", x: x, y: 0, role: .titleDirty, maxX: titleEnd) }
        buf.put(right, x: width - TextWidth.width(of: right) - 1, y: 0, role: .title)
        if settling { top.layOut(into: &buf, body, app: self) } else { top.render(into: &buf, body, app: self) }
        // Only what can act here: no "save" where nothing is open, no "new" in a read-only console.
        // A dialog has the focus: its keys, not those of the view behind it.
        let hints =
            dialog?.hints ?? KeyRegistry.hints(for: activeContexts, textFocused: top.textFocused, hiding: hintHidden)
        StatusBar.render(into: &buf, statusRow, hints: hints, message: message)
        if helpVisible {
            buf.cursor = nil
            let used = HelpOverlay.render(
                into: &buf, in: body, contexts: activeContexts, scroll: helpScroll, hiding: notHereInHelp)
            if settling { helpScroll = used }
        }
        if var q = question {
            buf.cursor = nil
            q.dialog.render(into: &buf, in: body)
            if settling { question = q }
        }
        return buf
    }
}
