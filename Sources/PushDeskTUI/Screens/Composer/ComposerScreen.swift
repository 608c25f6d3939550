import Foundation
import PushDeskCore

/// Composes one delivery: its fields in tabs (content, iOS, Android, variables) beside a
/// live preview of every target app — recomputed on each edit by the core's
/// `PreviewEngine`, the function behind `pushdesk preview` — with the size meter, the
/// device view and the findings (Enter jumps to the field). Below 120 columns the preview
/// goes under the form. The language selector (F7, or the Content tab's Language field)
/// chooses what the form edits — the default or a variant — and what the preview builds
/// (`ComposerLanguages.swift`); the Languages tab lists the variants (`LanguagesTab`).
final class ComposerScreen: StatefulScreen, Asking {
    static let wideWidth = 120

    let s: DeliverySession
    var session: (any DraftSession)? { s }
    var tab: ComposerTab = .content
    /// The form of the tab, the preview pane and the tab bar's place (mouse clicks).
    struct View {
        var form = Form([])
        var pane = PreviewPane()
        var tabBarRect = Rect(x: 0, y: 0, width: 0, height: 0)
        var languages = LanguagesTab.makeTable()
    }
    var view = View()
    var form: Form {
        get { view.form }
        set { view.form = newValue }
    }
    enum Focus { case form, preview }
    var focusArea: Focus = .form
    /// The language being edited: a variant's locale as written; nil: the default (`<content>`).
    var language: String?
    /// The Languages tab's rows, sizes and test devices.
    let languagesTab = LanguagesTab()
    /// The sample recipient the preview is personalized for (not part of the delivery).
    private(set) var profileName: String?
    var pane: PreviewPane {
        get { view.pane }
        set { view.pane = newValue }
    }

    private var seenVersion = -1
    private var builtFor: ComposerTab?
    /// The preview shown: made when the draft, the profile or the service changed (`update`).
    private var shown: Preview?
    /// The last preview and what it was made from: only an edit, a profile change or a
    /// change of the service recomputes it.
    private var cached: (version: Int, profile: String?, language: String?, service: Service, preview: Preview)?
    /// Counts recomputations, so the pane knows when its drawn rows are stale.
    private var previewStamp = 0
    private var serviceFindings: (service: Service, findings: [Finding])?

    /// The time previews and curl commands are made at (tests pass a fixed one).
    let clock: () -> Date

    init(session: DeliverySession, app: AppContext) {
        self.s = session
        self.clock = app.clock
        sync(app)
    }

    var title: String {
        (s.draft.name.isEmpty ? "New delivery" : "Delivery \(s.draft.name)")
            + (s.draft.service.isEmpty ? "" : " · \(s.draft.service)") + languageTitle
    }
    var contexts: [KeyContext] {
        if focusArea == .preview { return [.composerPreview, .composer] }
        if tab == .languages { return view.languages.contexts([.composerLanguages, .list, .composer]) }
        return (form.focused?.isTextArea == true ? [.textArea] : []) + [.composer, .form]
    }
    var textFocused: Bool {
        guard focusArea == .form else { return false }
        return tab == .languages ? view.languages.isFiltering : form.focused?.isTextual ?? false
    }
    var focus: ScreenFocus {
        let field = tab == .languages ? LanguagesTab.tableID : form.focused?.id
        return ScreenFocus(
            tab: String(describing: tab), field: focusArea == .form ? field : "preview",
            stops: form.fields.count)
    }

    // MARK: model ↔ form

    private func choices(_ app: AppContext) -> ComposerChoices {
        ComposerChoices(
            services: app.services.map(\.name), service: app.currentService(named: s.draft.service),
            profiles: app.profiles.map(\.name), profile: profileName, language: languageIndex)
    }

    /// Pulls the draft into the form after any change (edit, undo, tab switch); values are
    /// updated in place so the cursor stays where it is.
    func sync(_ app: AppContext, force: Bool = false) {
        guard force || seenVersion != s.version || builtFor != tab else { return }
        // An undone add (or a delete) takes the variant being edited away: back to the default.
        if language != nil, languageIndex == nil { language = nil }
        // An undone type change can take the Live Activity tab away.
        if !ComposerTab.tabs(for: s.draft).contains(tab) { tab = .ios }
        let tabChanged = builtFor != tab
        seenVersion = s.version
        builtFor = tab
        if tab == .languages {
            languagesTab.sync(
                s.draft, service: app.currentService(named: s.draft.service), profiles: app.profiles,
                profile: app.profiles.first { $0.name == profileName }, now: clock(), table: &view.languages)
        }
        let fresh = ComposerFields.fields(tab, s.draft, choices(app))
        if form.replace(with: fresh, force: tabChanged) { return }
        for f in fresh {
            guard let i = form.fields.firstIndex(where: { $0.id == f.id }) else { continue }
            if form.fields[i].value != f.value { form.fields[i].value = f.value }
            if !f.isTextArea { form.fields[i].kind = f.kind }
            form.fields[i].note = f.note
            form.fields[i].dimmed = f.dimmed
            form.fields[i].inherited = f.inherited
        }
    }

    private func apply(_ id: String, app: AppContext) {
        let v = form[id]
        if tab == .content, id == "profile" {
            profileName = v == ComposerFields.noProfile ? nil : v
            return
        }
        if tab == .content, id == "language" {
            select(language: v == ComposerFields.defaultLanguage ? nil : v, app: app)
            return
        }
        let saved = s.original
        let tab = self.tab
        let li = languageIndex
        // Typing in one field of one language is one undo step.
        let key = language.map { "\(tab.rawValue).\($0).\(id)" } ?? "\(tab.rawValue).\(id)"
        s.edit(key) { d in ComposerFields.apply(tab, id, v, to: &d, saved: saved, language: li) }
        sync(app)
    }

    // MARK: preview

    /// The preview of the draft for every app of its service, from the core's engine.
    func preview(_ app: AppContext) -> Preview? {
        guard let service = app.currentService(named: s.draft.service) else { return nil }
        if let c = cached, c.version == s.version, c.profile == profileName, c.language == language,
            c.service == service
        {
            return c.preview
        }
        // The service's own findings change only with the service, not with each keystroke.
        if serviceFindings?.service != service { serviceFindings = (service, ServiceRules.check(service: service)) }
        let profile = app.profiles.first { $0.name == profileName }
        // Only the language being edited is built, as `preview --locale TAG` builds it.
        let (delivery, locale) = previewed
        let p = PreviewEngine.preview(
            delivery: delivery, service: service, profile: profile, appKey: nil, token: nil,
            now: clock(), serviceFindings: serviceFindings?.findings, locale: locale)
        cached = (s.version, profileName, language, service, p)
        previewStamp += 1
        return p
    }

    /// Focuses the field a finding's path names (switching tab); false when it names none.
    /// `within`, a position inside the field's text (a JSON editor's line:column), puts the
    /// cursor there.
    @discardableResult
    func focus(field path: FieldPath, within: SourceMap.Position? = nil, app: AppContext) -> Bool {
        guard let (t, id) = ComposerFields.locate(path), focusLanguage(of: path, tab: t, id: id) else { return false }
        tab = t
        sync(app, force: true)
        if t == .languages {
            focusArea = .form
            return true
        }
        alignTarget(app)
        guard let i = form.fields.firstIndex(where: { $0.id == id }) else { return false }
        form.focus(id: id)
        focusArea = .form
        if let within, form.fields[i].isTextArea {
            form.fields[i].area.moveCursor(line: within.line, column: within.column)
        }
        return true
    }

    /// On the iOS or Android tab the preview shows an app of that platform (the first,
    /// unless one is shown already), so the options being edited are the ones in view.
    private func alignTarget(_ app: AppContext) {
        let platform: Platform
        switch tab {
        case .ios: platform = .ios
        case .android: platform = .android
        default: return
        }
        guard let p = preview(app), p.targets.indices.contains(pane.target),
            p.targets[pane.target].platform != platform,
            let i = p.targets.firstIndex(where: { $0.platform == platform })
        else { return }
        pane.target = i
        pane.scroll = 0
    }

    private func jump(_ f: Finding, app: AppContext) -> Effect {
        if RecordKind.record(file: f.file)?.kind == .service { return FindingJump.open(f, app: app) }
        if focus(field: f.field, within: f.within, app: app) { return .none }
        return .say(
            f.field.isEmpty ? "This finding is about no single field." : "\(f.field) is not a field of the delivery.")
    }

    // MARK: input

    func handleText(_ key: Key, app: AppContext) -> Bool {
        sync(app)
        guard focusArea == .form else { return false }
        if tab == .languages { return view.languages.handleFilterKey(key) }
        let typed = form.handleText(key)
        if let id = typed.changedField { apply(id, app: app) }
        return typed.used
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        sync(app)
        switch action {
        case .save: return .save(s)
        case .undo:
            let undone = s.undo()
            sync(app, force: true)
            return .say(undone ? "Undone." : "Nothing to undo.")
        case .nextTab, .prevTab:
            let all = ComposerTab.tabs(for: s.draft)
            let i = all.firstIndex(of: tab) ?? 0
            tab = all[(i + (action == .nextTab ? 1 : all.count - 1)) % all.count]
            sync(app)
            focusArea = .form
            alignTarget(app)
            return Effect.none
        case .switchPane:
            focusArea = focusArea == .form ? .preview : .form
            return Effect.none
        case .copyOut: return openCopyOut(app)
        case .sendTest, .dryRun: return SendScreen.start(delivery: s.draft, dryRun: action == .dryRun, app: app)
        case .chooseLanguage: return askLanguage()
        default: break
        }
        if focusArea == .preview { return handlePreview(action, app: app) }
        if tab == .languages { return handleLanguages(action, app: app) }
        switch form.handle(action) {
        case .changed(let id):
            apply(id, app: app)
            return Effect.none
        case .pick(let id):
            guard let f = form.fields.first(where: { $0.id == id }), case .choice(let opts) = f.kind else {
                return Effect.none
            }
            return .ask(
                self,
                .choices(f.label, options: opts, selected: opts.firstIndex(of: f.value) ?? 0) { i in
                    i.map { .set(field: id, value: opts[$0]) } ?? .cancelled
                })
        case .moved: return Effect.none
        case .unhandled: return nil
        }
    }

    private func handlePreview(_ action: Action, app: AppContext) -> Effect? {
        let p = preview(app)
        let n = p?.targets.count ?? 0
        let findings = p.map(PreviewPane.findings) ?? []
        switch action {
        case .back: focusArea = .form
        case .nextTarget, .prevTarget:
            guard n > 0 else { return Effect.none }
            pane.target = (pane.target + (action == .nextTarget ? 1 : n - 1)) % n
            pane.scroll = 0
        case .down: pane.selected = min(max(0, findings.count - 1), pane.selected + 1)
        case .up: pane.selected = max(0, pane.selected - 1)
        case .pageDown: pane.scrollPage(1)
        case .pageUp: pane.scrollPage(-1)
        case .deviceView: pane.showDevice.toggle()
        case .open:
            guard findings.indices.contains(pane.selected) else { return .say("No finding to jump to.") }
            return jump(findings[pane.selected].finding, app: app)
        default: return nil
        }
        return Effect.none
    }

    func click(x: Int, y: Int, app: AppContext) -> Effect? {
        sync(app)
        let tabs = ComposerTab.tabs(for: s.draft)
        if y == view.tabBarRect.y, x < view.tabBarRect.maxX,
            let i = TabBar.index(atX: x, in: view.tabBarRect, tabs: tabs.map(\.rawValue))
        {
            tab = tabs[i]
            sync(app)
            focusArea = .form
            alignTarget(app)
            return Effect.none
        }
        if tab == .languages, view.languages.click(x: x, y: y) {
            focusArea = .form
            return Effect.none
        }
        if tab != .languages, form.click(x: x, y: y) {
            focusArea = .form
            return Effect.none
        }
        if y == pane.tabsRect.y, x >= pane.tabsRect.x, x < pane.tabsRect.maxX,
            let i = TabBar.index(atX: x, in: pane.tabsRect, tabs: Array(pane.tabLabels.dropFirst(pane.tabsFirst)))
        {
            pane.target = pane.tabsFirst + i
            pane.scroll = 0
            focusArea = .preview
            return Effect.none
        }
        let r = pane.findingsRect
        if x >= r.x, x < r.maxX, y >= r.y, y < r.maxY {
            focusArea = .preview
            pane.selected = y - r.y + max(0, pane.selected - r.height + 1)
            return Effect.none
        }
        return nil
    }

    // MARK: copy out

    /// Where a copy-out goes.
    enum CopyOut: CaseIterable {
        case payloadFile, curlFile, payloadStdout, curlStdout, simulatorFile
        var curl: Bool { self == .curlFile || self == .curlStdout }
        var toFile: Bool { self == .payloadFile || self == .curlFile || self == .simulatorFile }
        var label: String {
            switch self {
            case .payloadFile: "Payload (the exact JSON body) → a file…"
            case .curlFile: "curl command (token and credential placeholders) → a file…"
            case .payloadStdout: "Payload → standard output when the console exits"
            case .curlStdout: "curl command → standard output when the console exits"
            case .simulatorFile: "iOS Simulator push file (xcrun simctl push) → a file…"
            }
        }
    }

    /// A copy-out's text, waiting for its path (or for "replace?").
    struct PendingCopy {
        var text: String
        var executable: Bool
        var path = ""
        /// Why the file's size is not the meter's (an FCM payload holds the token), or "".
        var sizeNote = ""
    }

    /// The answers of the composer's dialogs.
    enum Reply {
        case set(field: String, value: String)
        case language(String?)
        case addLanguage(String?)
        case renameLanguage(from: String, to: String?)
        case csv(CSVReply)
        case copy(CopyOut)
        case copyPath(PendingCopy, String)
        case replace(PendingCopy)
        case cancelled
    }

    private func openCopyOut(_ app: AppContext) -> Effect {
        guard let p = preview(app), p.targets.indices.contains(pane.target) else {
            return .say("Nothing to copy: the delivery's service has no app.")
        }
        let key = p.targets[pane.target].app
        let options = CopyOut.allCases
        return .ask(
            self,
            .choices(
                "Copy out for \(key) (the app shown in the preview)", options: options.map(\.label), selected: 0
            ) { i in i.map { .copy(options[$0]) } ?? .cancelled })
    }

    private func copyText(curl: Bool, app: AppContext) -> String? {
        guard let p = preview(app), p.targets.indices.contains(pane.target),
            let service = app.currentService(named: s.draft.service)
        else { return nil }
        let t = p.targets[pane.target]
        if !curl { return t.payload.compact }
        // The language being edited, as the preview shows it.
        let (delivery, locale) = previewed
        return CurlCommand.command(
            delivery: delivery, service: service, profile: app.profiles.first { $0.name == profileName },
            appKey: t.app, now: clock(), locale: locale)
    }

    /// The Simulator's push file of the app shown (docs/PAYLOADS.md, the file `preview --simulator`
    /// prints), or why there is none (`simulator.type`, `simulator.platform`).
    private func simulatorCopy(_ app: AppContext) -> Effect {
        guard let p = preview(app), p.targets.indices.contains(pane.target),
            let service = app.currentService(named: s.draft.service)
        else { return .say("Nothing to copy.") }
        let t = p.targets[pane.target]
        guard let mobileApp = service.app(integrationKey: t.app) else { return .say("Nothing to copy.") }
        switch SimulatorFile.make(delivery: s.draft, app: mobileApp, target: t) {
        case .refused(let f):
            return .inform("No Simulator file", Sanitize.string("\(f.message) [\(f.rule)]"))
        case .file(let text):
            let base = copyBaseName
            let cwd = app.workingDirectory
            let pending = PendingCopy(text: text + "\n", executable: false)
            return .ask(
                self,
                .filePath(
                    "Write the Simulator file", "File, relative to \(cwd) (Tab completes):",
                    value: "\(base)-\(t.app).apns", base: cwd
                ) { path in path.map { .copyPath(pending, $0) } ?? .cancelled })
        }
    }

    /// A copied file's proposed name before the app's key: the delivery, and the language being
    /// edited when it is a variant (the copy is that language's, as `preview --locale TAG`).
    private var copyBaseName: String {
        (s.draft.name.isEmpty ? "delivery" : s.draft.name) + (languageTag.map { "-\($0)" } ?? "")
    }

    private func write(_ pending: PendingCopy, app: AppContext) -> Effect {
        let url = app.fileURL(pending.path)
        return .writeFile(url, Array(pending.text.utf8), mode: pending.executable ? 0o755 : 0o644) { error in
            guard let error else {
                return .say("Wrote \(url.path) (\(pending.text.utf8.count) bytes\(pending.sizeNote)).")
            }
            return .inform(
                "Not written",
                Sanitize.string("\(url.path): \(error)")
                    + "\nNothing was written. Check the folder exists and is writable.")
        }
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .set(let id, let value):
            form[id] = value
            apply(id, app: app)
            return .none
        case .copy(.simulatorFile):
            return simulatorCopy(app)
        case .copy(let what):
            guard let text = copyText(curl: what.curl, app: app) else { return .say("Nothing to copy.") }
            let key = preview(app).map { $0.targets[pane.target].app } ?? "app"
            guard what.toFile else {
                return .all([
                    .printOnExit(what.curl ? text : text + "\n"),
                    .say(
                        "The \(what.curl ? "curl command" : "payload") for \(key) will be printed when the console exits."
                    ),
                ])
            }
            let base = copyBaseName
            // A ready script: `sh FILE` (or ./FILE) sends it once the placeholders are filled in.
            var pending = PendingCopy(text: what.curl ? "#!/bin/sh\n" + text : text, executable: what.curl)
            if !what.curl, let t = preview(app)?.targets[pane.target], let n = PreviewPane.sizeNote(t) {
                pending.sizeNote = ": the body with \"\(n.field)\"; the size meter counts \(t.bytes) without it"
            }
            let cwd = app.workingDirectory
            return .ask(
                self,
                .filePath(
                    what.curl ? "Write the curl command" : "Write the payload",
                    "File, relative to \(cwd) (Tab completes):",
                    value: "\(base)-\(key).\(what.curl ? "sh" : "json")", base: cwd
                ) { path in path.map { .copyPath(pending, $0) } ?? .cancelled })
        case .copyPath(var pending, let path):
            guard !path.isEmpty else { return .none }
            pending.path = path
            guard app.fileExists(path) else { return write(pending, app: app) }
            return .ask(
                self,
                .buttons(
                    "Replace?", "\(path) exists. Replace it?", [("Yes", .replace(pending)), ("No", .cancelled)],
                    focus: 1, cancel: .cancelled))
        case .replace(let pending): return write(pending, app: app)
        case .language(let l):
            select(language: l, app: app)
            return .none
        case .addLanguage(let tag): return addLanguage(tag, app: app)
        case .renameLanguage(let from, let to): return renameLanguage(from, to: to, app: app)
        case .csv(let r): return answerCSV(r, app: app)
        case .cancelled: return .none
        }
    }

    // MARK: drawing

    /// The draft into the form, the preview of the draft (only an edit, a profile or a
    /// service change makes a new one) and its findings under the fields.
    func update(_ rect: Rect, app: AppContext) {
        sync(app)
        let p = preview(app)
        shown = p
        // Findings on this tab's fields go under them (the most severe first, once per field).
        form.clearMessages()
        if let p {
            var done = Set<String>()
            let editing = languageTag
            for f in PreviewPane.findings(p).map(\.finding) {
                // Findings on the fields of the language being edited: de's title is not the default's.
                guard let (t, id) = ComposerFields.locate(f.field), t == tab,
                    ComposerFields.language(of: f.field) == editing
                else { continue }
                // A greyed field already says "not sent"; its ignored-option warning would repeat it.
                if f.rule.hasSuffix(".ignored-option"), form.fields.first(where: { $0.id == id })?.dimmed == true {
                    continue
                }
                guard done.insert(id).inserted else { continue }
                form.setMessage(
                    id, "\(f.severity.rawValue): \(f.message)",
                    role: f.severity == .error ? .findingError : .findingWarning)
            }
        }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        let p = shown
        let wide = rect.width >= Self.wideWidth
        // The Languages tab's table wants the width: its columns are the apps' sizes.
        let formW =
            !wide ? rect.width : tab == .languages ? rect.width * 3 / 5 : min(86, max(64, rect.width * 2 / 5))
        let formH: Int
        // The body grows with the screen: its bounds are view state, laid out for the size.
        if let i = v.form.fields.firstIndex(where: \.isTextArea) {
            v.form.fields[i].kind = .textArea(rows: wide ? 3...max(3, rect.height / 4) : 2...3)
        }
        if wide {
            formH = rect.height - 1
        } else if tab == .languages {
            formH = max(7, (rect.height - 1) * 3 / 5)
        } else {
            formH = min(v.form.height(width: formW - 2) + 2, max(7, (rect.height - 1) * 9 / 20))
        }
        v.tabBarRect = Rect(x: rect.x, y: rect.y, width: formW, height: 1)
        let tabs = ComposerTab.tabs(for: s.draft)
        TabBar.render(
            into: &buf, v.tabBarRect, tabs: tabs.map(\.rawValue), active: tabs.firstIndex(of: tab) ?? 0)
        let formBox = Rect(x: rect.x, y: rect.y + 1, width: formW, height: formH)
        var boxTitle = tab.rawValue
        switch tab {
        case .ios where s.draft.ios.effectiveType != .alert:
            boxTitle += " — \(s.draft.ios.effectiveType.name): greyed fields are not sent"
        case .android where s.draft.android.effectiveType == .data:
            boxTitle += " — data message: greyed fields are not sent"
        case .variables: boxTitle += " — values sent as custom keys"
        case .liveActivity: boxTitle += " — event \(s.draft.liveActivity?.event ?? "not set")"
        default: boxTitle += " (Ctrl-O next tab)"
        }
        if let b = languageBoxTitle { boxTitle = tab.rawValue + b }
        buf.box(formBox, role: focusArea == .form ? .borderFocus : .border, title: boxTitle)
        if tab == .languages {
            languagesTab.draw(into: &buf, formBox.inset(1), table: &v.languages, focused: focusArea == .form)
        } else {
            v.form.render(into: &buf, formBox.inset(1), focused: focusArea == .form)
        }

        let paneRect =
            wide
            ? Rect(x: rect.x + formW, y: rect.y, width: rect.width - formW, height: rect.height)
            : Rect(x: rect.x, y: formBox.maxY, width: rect.width, height: rect.maxY - formBox.maxY)
        let service = app.currentService(named: s.draft.service)
        let empty =
            s.draft.service.isEmpty
            ? "Choose the delivery's service (Service, on the Content tab) to see its payloads."
            : service == nil
                ? "Service '\(s.draft.service)' is not in the store: choose another (Service, on the Content tab)."
                : "Service '\(s.draft.service)' has no app yet: add apps to it to see their payloads."
        v.pane.render(
            into: &buf, paneRect, preview: p, stamp: previewStamp, empty: empty,
            appName: service?.label.isEmpty == false ? service!.label : s.draft.service,
            focused: focusArea == .preview)
    }
}
