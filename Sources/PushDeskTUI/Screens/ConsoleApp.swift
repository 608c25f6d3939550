import PushDeskCore

/// The console's whole state and its one entry point for input: `handle(_:)` changes
/// state, `render(width:height:)` draws it into a fresh cell buffer. The terminal layer
/// only feeds keys in and copies buffers out, so all of this runs in tests as it does live.
public final class ConsoleApp {
    public static let minWidth = 60
    public static let minHeight = 16

    public let store: ConsoleStore
    public private(set) var services: [Service] = []
    public private(set) var loadErrors: [String] = []
    /// Every finding of the store, with the record being edited in place of its saved copy.
    public private(set) var findings: [Finding] = []
    var stack: [ConsoleScreen] = []
    public internal(set) var dialog: Dialog?
    public private(set) var helpVisible = false
    private var helpScroll = 0
    /// One-shot status message, cleared by the next key.
    public var message: String?
    public private(set) var quitRequested = false
    /// Set when the operator asked for Ctrl-L (the terminal repaints everything once).
    public var fullRedrawRequested = false
    public private(set) var themeName: String
    /// A theme the operator picked; the terminal layer applies it and clears this.
    public var pendingTheme: String?
    public var availableThemes: [String]
    /// After save/discard in the quit dialog, where to go: quit or pop.
    private var afterUnsaved: (() -> Void)?

    public init(store: ConsoleStore, themeName: String = "default", availableThemes: [String] = ["default"]) {
        self.store = store
        self.themeName = themeName
        self.availableThemes = availableThemes
        reload()
        stack = [ServicesListScreen(app: self)]
    }

    // MARK: store

    public func reload() {
        let r = store.load()
        services = r.services; loadErrors = r.errors
        recheck()
    }

    /// Re-runs the core rules with every open draft in place of its saved service.
    func recheck() {
        var list = services
        var sessions: [EditSession] = []
        for s in stack.compactMap(\.session) where !sessions.contains(where: { $0 === s }) { sessions.append(s) }
        for s in sessions {
            if let o = s.original, let i = list.firstIndex(where: { $0.name == o.name }) { list[i] = s.draft } else { list.append(s.draft) }
        }
        findings = store.check(list)
    }

    /// Findings of one service file.
    func findings(forService name: String) -> [Finding] {
        findings.filter { $0.file == ConsoleStore.servicePath(name) }
    }

    /// Saves a session's draft through the store (atomic write); renames delete the old file.
    @discardableResult
    func save(_ session: EditSession) -> Bool {
        let d = session.draft
        guard Store.isValidName(d.name) else {
            dialog = .message(title: "Cannot save", message: "The internal name must be \(Store.nameRule):\nit is the file name. Set Name and press Ctrl-S again.")
            return false
        }
        if d.name != session.original?.name, services.contains(where: { $0.name == d.name }) {
            dialog = .message(title: "Cannot save", message: "A service named '\(d.name)' already exists.\nChoose another name.")
            return false
        }
        do {
            try store.save(d)
            if let old = session.original?.name, old != d.name { try store.delete(old) }
        } catch {
            dialog = .message(title: "Save failed", message: Sanitize.string("\(error)"))
            return false
        }
        session.markSaved()
        reload()
        let errs = findings(forService: d.name).filter { $0.severity == .error }.count
        message = "Saved \(ConsoleStore.servicePath(d.name))" + (errs > 0 ? " (\(errs) error\(errs == 1 ? "" : "s") to fix: Ctrl-F)" : "")
        return true
    }

    // MARK: navigation

    var top: ConsoleScreen { stack[stack.count - 1] }

    func push(_ s: ConsoleScreen) {
        if let e = s as? AppEditorScreen { e.secretExists = store.secretExists }
        stack.append(s); recheck()
    }

    func pop() {
        guard stack.count > 1 else { return }
        stack.removeLast()
        recheck()
        top.willAppear(app: self)
    }

    /// Edit sessions with unsaved changes (one per open service editor).
    var dirtySessions: [EditSession] {
        var seen: [EditSession] = []
        for s in stack.compactMap(\.session) where s.isDirty && !seen.contains(where: { $0 === s }) { seen.append(s) }
        return seen
    }

    /// Runs `then` now, or after asking save / discard / cancel when there are unsaved changes.
    func confirmUnsaved(_ sessions: [EditSession], then: @escaping () -> Void) {
        guard !sessions.isEmpty else { then(); return }
        afterUnsaved = { [weak self] in
            guard let self else { return }
            for s in sessions where s.isDirty { if !self.save(s) { return } }
            then()
        }
        let name = sessions[0].draft.name.isEmpty ? "the new service" : "'\(sessions[0].draft.name)'"
        dialog = .confirm(id: "app.unsaved", title: "Unsaved changes",
                          message: "Save the changes to \(name)?", buttons: ["Save", "Discard", "Cancel"], focus: 0)
        unsavedDiscard = then
    }
    private var unsavedDiscard: (() -> Void)?

    func requestQuit() { confirmUnsaved(dirtySessions) { [weak self] in self?.quitRequested = true } }

    // MARK: input

    /// The one entry point for input. Every state change happens here.
    public func handle(_ key: Key) {
        if key == .resize || key == .ignored { return }
        message = nil
        if helpVisible {
            // Arrows scroll a help longer than the screen; any other key closes it.
            switch key {
            case .down, .char("j"): helpScroll += 1
            case .up, .char("k"): helpScroll = max(0, helpScroll - 1)
            case .pageDown: helpScroll += 10
            case .pageUp: helpScroll = max(0, helpScroll - 10)
            default: helpVisible = false; helpScroll = 0
            }
            return
        }
        if var d = dialog {
            let r = d.handle(key)
            dialog = d
            if let r { dialog = nil; route(d.id, r) }
            return
        }
        defer { recheckIfEdited() }
        let s = top
        switch key {
        case .wheelUp: _ = s.handle(.up, app: self); return
        case .wheelDown: _ = s.handle(.down, app: self); return
        case .click(let x, let y): _ = s.click(x: x, y: y, app: self); return
        default: break
        }
        if s.textFocused, Self.isText(key), s.handleText(key, app: self) { return }
        if let a = KeyRegistry.action(for: key, in: s.contexts + [.global]) {
            if !s.handle(a, app: self) { handleGlobal(a) }
        } else if !s.handleUnbound(key, app: self), s.textFocused {
            _ = s.handleText(key, app: self)
        }
    }

    /// Live rules: re-run them when an open draft changed since the last check.
    private var checkedVersions: [Int] = []
    private func recheckIfEdited() {
        let v = stack.compactMap { $0.session?.version }
        if v != checkedVersions { checkedVersions = v; recheck() }
    }

    /// Printable text and pastes (never commands while a text field has focus).
    static func isText(_ key: Key) -> Bool {
        switch key { case .char, .paste: true; default: false }
    }

    private func handleGlobal(_ a: Action) {
        switch a {
        case .help: helpVisible = true
        case .quit: requestQuit()
        case .redraw: fullRedrawRequested = true
        case .findings: if !(top is FindingsScreen) { push(FindingsScreen(app: self)) }
        case .themes:
            dialog = .choices(id: "app.theme", title: "Theme", options: availableThemes,
                              selected: availableThemes.firstIndex(of: themeName) ?? 0)
        case .back:
            if stack.count > 1 {
                let s = top
                // Leaving the last view of a session asks about its unsaved changes.
                if let sess = s.session, stack.dropLast().allSatisfy({ $0.session !== sess }), sess.isDirty {
                    confirmUnsaved([sess]) { [weak self] in self?.pop() }
                } else { pop() }
            }
        case .save: message = "Nothing to save here: open a service (Enter) first."
        case .undo: message = "Nothing to undo here."
        default: break
        }
    }

    private func route(_ id: String, _ r: Dialog.Result) {
        switch id {
        case "app.unsaved":
            let save = afterUnsaved, discard = unsavedDiscard
            afterUnsaved = nil; unsavedDiscard = nil
            if case .button(0) = r { save?() } else if case .button(1) = r { discard?() }
        case "app.theme":
            if case .choice(let i) = r, availableThemes.indices.contains(i) {
                themeName = availableThemes[i]; pendingTheme = themeName
                message = "Theme: \(themeName)"
            }
        case "message": break
        default: top.dialogResult(id, r, app: self)
        }
        recheck()
    }

    /// Called by the terminal layer when a theme could not be loaded.
    public func themeFailed(_ why: String) { themeName = "default"; message = why }

    // MARK: drawing

    /// Draws the whole state into a new buffer of this size.
    public func render(width: Int, height: Int, asciiOnly: Bool = false) -> CellBuffer {
        var buf = CellBuffer(width: width, height: height)
        buf.asciiOnly = asciiOnly
        buf.fill(buf.bounds, role: .normal)
        guard width >= Self.minWidth, height >= Self.minHeight else {
            TooSmallView.render(into: &buf, dialog: dialog)
            return buf
        }
        let (titleRow, rest) = buf.bounds.splitTop(1)
        let (body, statusRow) = rest.splitBottom(1)
        buf.fill(titleRow, role: .title)
        let dirty = stack.contains { $0.session?.isDirty ?? false }
        var x = 1
        if dirty { x = buf.put("* ", x: x, y: 0, role: .titleDirty) }
        let right = "? help  " + themeName
        let titleEnd = width - TextWidth.width(of: right) - 2
        let title = "PushDesk — " + top.title
        x = buf.put(TextWidth.truncate(title, to: titleEnd - x - (dirty ? 11 : 0)), x: x, y: 0, role: .title, maxX: titleEnd)
        if dirty { buf.put(" (modified)", x: x, y: 0, role: .titleDirty, maxX: titleEnd) }
        buf.put(right, x: width - TextWidth.width(of: right) - 1, y: 0, role: .title)
        top.render(into: &buf, body, app: self)
        let hintContexts = top.contexts + [.global]
        // No "save" hint where there is nothing to save.
        let hints = KeyRegistry.hints(for: hintContexts).filter { top.session != nil || $0.label != "save" }
        StatusBar.render(into: &buf, statusRow, hints: hints, message: message)
        if helpVisible {
            buf.cursor = nil
            helpScroll = HelpOverlay.render(into: &buf, in: body, contexts: hintContexts, textField: top.textFocused, scroll: helpScroll)
        }
        if var d = dialog {
            buf.cursor = nil
            d.render(into: &buf, in: body)
            dialog = d
        }
        return buf
    }
}
