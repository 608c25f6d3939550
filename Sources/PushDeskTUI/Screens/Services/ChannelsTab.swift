import Foundation
import PushDeskCore

/// The iOS app editor's Channels tab (docs/SENDING.md): the app's broadcast channels as the store
/// has them, Apple's list fetched on demand, create and delete at Apple. The calls are the
/// core's (`PushSession.manageChannels`, as `pushdesk channels` makes them) on a view `Job`
/// owned by the editor: Esc or leaving the editor cancels them, and keys are answered
/// meanwhile. What Apple created or deleted is saved into the service file at once (a
/// normal conflict-checked save), so the file never lags behind Apple; that is why create
/// and delete wait until the draft has no other unsaved change.
final class ChannelsTab {
    /// The tab's table: it lives in the editor's view state (`AppEditorScreen.View.channels`),
    /// which drawing lays out, so drawing changes nothing of the tab.
    static func makeTable() -> TableView {
        TableView(columns: [
            .init("Label", width: 22), .init("Channel id", width: 30), .init("Storage", width: 11), .init("At Apple"),
        ])
    }
    /// Apple's ids from the last fetch; nil before the first.
    private(set) var apple: [String]?
    /// What runs now (`Fetching Apple's list…`); nil when nothing does.
    private(set) var busy: String?
    /// The last answer, one line (escaped), and whether it was a refusal.
    private(set) var last: (text: String, failed: Bool)?
    private var job: Job?

    /// What the work returns, on the run loop.
    enum Outcome: Sendable {
        case listed(ChannelAnswer)
        case created(ChannelAnswer, label: String, storage: ChannelStorage)
        case deleted(ChannelAnswer, BroadcastChannel)
        case unusable(String)
    }

    /// The answers of the tab's dialogs.
    enum Reply {
        case label(String?)
        case storage(label: String, ChannelStorage?)
        case delete(BroadcastChannel, confirmed: Bool)
    }

    /// The table's rows: the store's channels, then ids only Apple has (after a fetch).
    func rows(_ app: IOSApp) -> [[String]] {
        var out = app.channels.map { c -> [String] in
            let at = apple.map { $0.contains(c.id) ? "listed" : "NOT LISTED" } ?? "?"
            return [c.label, c.id, c.storage.rawValue, at]
        }
        for id in apple ?? [] where !app.channels.contains(where: { $0.id == id }) {
            out.append(["(not in the store)", Escape.inline(id, limit: 60), "", "listed"])
        }
        return out
    }

    func sync(_ app: IOSApp, table: inout TableView) {
        let keep = table.selectedRow
        table.emptyText = "No channel yet: n creates one at Apple, f fetches Apple's list."
        table.setRows(rows(app))
        if let keep { table.select(row: min(keep, max(0, rows(app).count - 1))) }
    }

    func handle(_ action: Action, editor: AppEditorScreen, app ca: AppContext) -> Effect? {
        guard case .ios(let app) = editor.app else { return nil }
        if editor.view.channels.handle(action) { return Effect.none }
        switch action {
        case .back where busy != nil:
            if let job { return .all([.cancel(job), .say("Stopped: \(busy ?? "")")]) }
            return nil
        case .fetchChannels:
            return start("Fetching Apple's list of channels…", .list, editor: editor, app: app, ca) { .listed($0) }
        case .new:
            if let refusal = waitForIdleAndSaved(editor) { return refusal }
            return .ask(
                editor,
                .text(
                    "New channel",
                    "Label of the channel (unique within \(Escape.inline(app.label))). Apple creates the channel and gives its id; it is saved into the service file at once."
                ) { .channels(.label($0)) })
        default: return nil
        }
    }

    /// The framework's one question before a delete (the binding is dangerous): it names the
    /// channel and the open delivery drafts whose Live Activities subscribe to it; Yes calls
    /// Apple (after the same waits as create), No keeps everything.
    func danger(_ action: Action, editor: AppEditorScreen, app ca: AppContext) -> Danger? {
        guard action == .delete, case .ios(let app) = editor.app, let r = editor.view.channels.selectedRow,
            app.channels.indices.contains(r)
        else { return nil }
        let c = app.channels[r]
        let drafts = ca.sessions(of: Delivery.self).filter {
            $0.draft.liveActivity?.inputPushChannel == c.id
        }.map { "'\(Escape.inline($0.draft.name))'" }
        var message =
            "Delete channel “\(Escape.inline(c.label))” (\(Escape.inline(c.id))) at Apple and remove it from the service file? Devices subscribed to it stop getting its updates."
        if !drafts.isEmpty {
            message +=
                "\n\nOpen draft\(drafts.count == 1 ? "" : "s") \(drafts.joined(separator: ", ")) subscribe\(drafts.count == 1 ? "s" : "") Live Activities to this channel (inputPushChannel): \(drafts.count == 1 ? "its" : "their") starts would subscribe to a channel that no longer exists."
        }
        return Danger("Delete channel", message) { [weak self, weak editor] ca in
            guard let self, let editor else { return .none }
            if let refusal = self.waitForIdleAndSaved(editor) { return refusal }
            return self.answer(.delete(c, confirmed: true), editor: editor, app: ca)
        }
    }

    func answer(_ reply: Reply, editor: AppEditorScreen, app ca: AppContext) -> Effect {
        guard case .ios(let app) = editor.app else { return .none }
        switch reply {
        case .label(nil), .storage(_, nil), .delete(_, confirmed: false): return .say("Nothing was asked of Apple.")
        case .label(let label?):
            let l = label.trimmingCharacters(in: .whitespaces)
            guard !l.isEmpty else { return .say("A channel needs a label; nothing was asked of Apple.") }
            if app.channels.contains(where: { $0.label == l }) {
                return .inform(
                    "Label in use",
                    "\(Escape.inline(app.label)) already has a channel labelled “\(Escape.inline(l))”; pick another label."
                )
            }
            let options = ChannelStorage.allCases
            return .ask(
                editor,
                .choices(
                    "Message storage (cannot change later)", options: options.map(\.rawValue), selected: 0
                ) { i in .channels(.storage(label: l, i.map { options[$0] })) })
        case .storage(let label, let storage?):
            return start(
                "Creating channel “\(Escape.inline(label))” at Apple…", .create(storage), editor: editor, app: app, ca
            ) {
                .created($0, label: label, storage: storage)
            }
        case .delete(let c, confirmed: true):
            return start(
                "Deleting channel “\(Escape.inline(c.label))” at Apple…", .delete(id: c.id), editor: editor, app: app,
                ca
            ) {
                .deleted($0, c)
            }
        }
    }

    /// Create and delete save at once: they wait for the running call and an unsaved draft.
    private func waitForIdleAndSaved(_ editor: AppEditorScreen) -> Effect? {
        if busy != nil { return .say("Wait for Apple's answer (Esc stops it).") }
        if editor.s.isDirty || editor.s.original == nil {
            return .inform(
                "Save first",
                "Apple's change is saved into the service file at once, so the draft must have no other unsaved change: save it (Ctrl-S) or undo, then try again."
            )
        }
        return nil
    }

    /// Runs one channel management call on a view job owned by the editor.
    private func start(
        _ progress: String, _ request: ChannelRequest, editor: AppEditorScreen, app: IOSApp, _ ca: AppContext,
        _ wrap: @escaping @Sendable (ChannelAnswer) -> Outcome
    ) -> Effect {
        if busy != nil { return .say("Wait for Apple's answer (Esc stops it).") }
        busy = progress
        last = nil
        let root = URL(fileURLWithPath: ca.storeRoot)
        let environment = ca.environment
        let j = Job.make(
            .view, owner: editor, progress: progress,
            work: { (ctx: JobContext<Never>) -> Outcome in
                do {
                    let session = try PushSession(
                        storeRoot: root, environment: environment, cancellation: ctx.cancellation)
                    defer { session.close() }
                    return wrap(session.manageChannels(request, app: app))
                } catch {
                    return .unusable("\(error)")
                }
            },
            onResult: { [weak self, weak editor] outcome, _ in
                guard let self, let editor else { return .none }
                return self.finished(outcome, editor: editor)
            })
        job = j
        return .run(j)
    }

    /// Apple's answer: the table, the file (create, delete) and the status line.
    private func finished(_ outcome: Outcome, editor: AppEditorScreen) -> Effect {
        busy = nil
        job = nil
        func refused(_ a: ChannelAnswer) -> Effect {
            var line = "\(a.outcome.rawValue)"
            if let s = a.status { line += " \(s)" }
            if let r = a.reason { line += " \(Escape.inline(r))" }
            if let h = a.hint { line += ": \(Escape.inline(h, limit: 300))" }
            last = (line, true)
            return .say("Apple did not do it: \(line)")
        }
        switch outcome {
        case .unusable(let why):
            last = (Escape.inline(why, limit: 300), true)
            return .say("Not asked: \(Escape.inline(why, limit: 200))")
        case .listed(let a):
            guard a.outcome == .sent else { return refused(a) }
            apple = a.channels
            last = ("Apple lists \(a.channels.count) channel\(a.channels.count == 1 ? "" : "s").", false)
            return .say(last!.text)
        case .created(var a, let label, let storage):
            if a.outcome == .sent, !(a.channelId.map(BroadcastChannel.isValidId) ?? false) {
                a.outcome = .failed
                a.reason = "channel.id"
                a.hint =
                    "Apple answered without a base64 channel id (\(Escape.inline(a.channelId ?? "none", limit: 60))); nothing was saved"
            }
            guard a.outcome == .sent, let id = a.channelId else { return refused(a) }
            let index = editor.index
            editor.s.edit(nil) { d in
                if case .ios(var x) = d.apps[index] {
                    x.channels.append(BroadcastChannel(id: id, label: label, storage: storage))
                    d.apps[index] = .ios(x)
                }
            }
            apple?.append(id)
            last = ("Created “\(Escape.inline(label))” (\(Escape.inline(id))) at Apple; saved.", false)
            return .all([.save(editor.s), .say(last!.text)])
        case .deleted(let a, let c):
            guard a.outcome == .sent else { return refused(a) }
            let index = editor.index
            editor.s.edit(nil) { d in
                if case .ios(var x) = d.apps[index] {
                    x.channels.removeAll { $0.id == c.id }
                    d.apps[index] = .ios(x)
                }
            }
            apple?.removeAll { $0 == c.id }
            last = ("Deleted “\(Escape.inline(c.label))” at Apple; removed from the file.", false)
            return .all([.save(editor.s), .say(last!.text)])
        }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: IOSApp, table: inout TableView) {
        let (tb, status) = rect.splitBottom(4)
        buf.box(tb, role: .borderFocus, title: "Channels (f fetch Apple's list, n create, d delete)")
        table.render(into: &buf, tb.inset(1), focused: true)
        var lines: [(Role, String)] = []
        if let busy {
            lines.append((.muted, busy + " (Esc stops)"))
        } else if let last {
            let role: Role = last.failed ? .findingError : .findingInfo
            lines += TextWidth.wrap(last.text, to: max(10, status.width - 2)).map { (role, $0) }
        } else if apple == nil {
            lines.append((.muted, "Apple's list not fetched yet: f fetches it."))
        }
        let missing = app.channels.filter { c in apple.map { !$0.contains(c.id) } ?? false }
        if !missing.isEmpty {
            lines.append(
                (
                    .findingWarning,
                    "warning: \(missing.count) channel\(missing.count == 1 ? "" : "s") of the store Apple does not list (channel.unknown-to-apple)"
                ))
        }
        for (i, (role, text)) in lines.prefix(status.height).enumerated() {
            buf.put(" " + text, x: status.x, y: status.y + i, role: role, maxX: status.maxX)
        }
    }
}
