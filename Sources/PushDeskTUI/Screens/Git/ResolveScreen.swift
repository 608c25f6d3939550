import Foundation
import PushDeskCore

/// Resolve a conflicted record field by field (docs/TEAMS.md). The rows are the merge driver's
/// conflicts (field path, both values); during a sync's rebase OURS is the upstream and
/// THEIRS the operator's own commit. `o` / `t` choose per field (OURS first, as the driver
/// left the file), `e` writes the choices and opens the record's editor for any other value,
/// `w` writes the record (canonical, as a save) and marks it resolved; when it was the last
/// conflicted record the sync goes on (`git rebase --continue`, then the push).
final class ResolveScreen: ListScreen, Asking {
    var view = TableView(columns: [
        .init("Field", width: 24), .init("Ours: upstream"), .init("Theirs: yours"), .init("Take", width: 7),
    ])
    let path: String
    /// The three versions and the driver's conflicts, read off the input loop (`git show`
    /// of the index stages): nil while they load (or when they could not be read).
    private(set) var conflict: GitTeamWork.Conflict?
    private var load: GitLoad<GitTeamWork.Conflict>?
    /// Fields resolved for THEIRS (the rest keep OURS).
    private(set) var theirs: Set<String> = []

    init(path: String, app: AppContext) {
        self.path = path
        let root = app.storeURL
        table.emptyText = "Loading the versions of \(path)… (Esc goes back)"
        load = GitLoad(owner: self) { try GitTeamWork.conflict(store: root, path: path) }
    }

    /// Opens the resolve view of a conflicted record at once; git reads its versions meanwhile.
    static func open(path: String, app: AppContext) -> Effect { .push(ResolveScreen(path: path, app: app)) }

    var jobsOnOpen: [Job] { load.map { [$0.job] } ?? [] }

    func update(_ rect: Rect, app: AppContext) {
        guard let load else { return }
        let took = load.take { c in
            conflict = c
            table.emptyText = "No field conflicts: w marks the record resolved."
        } failed: {
            table.emptyText = Sanitize.string("Cannot resolve here: \($0). Resolve it with git.")
        }
        guard took else { return }
        refresh()
        self.load = nil
    }

    var title: String { "Resolve \(path)" }
    var listContext: KeyContext? { .resolveView }

    func refresh() {
        guard let conflict else { return }
        let keep = table.selectedRow
        table.setRows(
            conflict.conflicts.map { [$0.field, $0.ours, $0.theirs, theirs.contains($0.field) ? "theirs" : "ours"] },
            roles: conflict.conflicts.map { theirs.contains($0.field) ? .findingInfo : nil })
        if let keep { table.select(row: keep) }
    }

    private var selectedField: String? {
        guard let conflict else { return nil }
        return table.selectedRow.flatMap {
            conflict.conflicts.indices.contains($0) ? conflict.conflicts[$0].field : nil
        }
    }

    /// The record as the choices make it (canonical text).
    func resolvedText(_ conflict: GitTeamWork.Conflict) throws -> String {
        try GitTeamWork.resolution(conflict, theirsWins: theirs)
    }

    enum Reply {
        case finish, later
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.handle(action) { return Effect.none }
        if let refusal = app.refusal(for: action) { return refusal }
        guard let conflict else {
            return [.takeOurs, .takeTheirs, .open, .markResolved, .editResolution].contains(action)
                ? .say(load == nil ? "Nothing to resolve here: Esc goes back." : "Still reading the versions…") : nil
        }
        switch action {
        case .takeOurs, .takeTheirs:
            guard let f = selectedField else { return Effect.none }
            if action == .takeTheirs { theirs.insert(f) } else { theirs.remove(f) }
            refresh()
            return Effect.none
        case .open:
            let text = (try? resolvedText(conflict)) ?? ""
            return .push(
                DiffScreen(
                    title: "Resolution of \(conflict.path)",
                    sections: [
                        .init(
                            heading: "\(conflict.path): upstream → resolved",
                            old: String(decoding: conflict.ours, as: UTF8.self), new: text)
                    ], legend: "- upstream  + resolved"))
        case .markResolved, .editResolution:
            let text: String
            do { text = try resolvedText(conflict) } catch {
                return .inform("Not resolved", Sanitize.string("\(error)"))
            }
            let (root, path, edit) = (app.storeURL, conflict.path, action == .editResolution)
            return .run(
                .git("Marking \(path) resolved…") { _ in
                    do {
                        try GitTeamWork.markResolved(store: root, path: path, text: text)
                        let left = (GitStatus.read(store: root)?.files ?? [:]).filter { $0.value == .conflicted }
                        return .conflicts(left.map(\.key).sorted())
                    } catch { return .failed("\(error)") }
                } done: { [weak self] outcome, app in
                    guard let self else { return .none }
                    return self.resolved(outcome, text: text, edit: edit, app: app)
                })
        default: return nil
        }
    }

    /// After the record was written and marked: its editor (`e`), the next conflicted record,
    /// or, after the last, the question that finishes the sync.
    func resolved(_ outcome: GitOutcome, text: String, edit: Bool, app: AppContext) -> Effect {
        guard case .conflicts(let left) = outcome else {
            if case .failed(let why) = outcome { return .inform("Not resolved", Sanitize.string(why)) }
            return .none
        }
        if edit, let e = Self.editor(path, text: text, app: app) {
            return .all([.replace(e), .say("Resolved \(path): edit, Ctrl-S, then S finishes the sync.")])
        }
        if let next = left.first {
            return .all([.pop, Self.open(path: next, app: app), .say("Resolved \(path); next: \(next)")])
        }
        return .ask(
            self,
            .buttons(
                "All resolved", "Every conflicted record is resolved.\nFinish the sync (continue the rebase, push)?",
                [("Finish", .finish), ("Later", .later)], focus: 0, cancel: .later))
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .finish: .all([.pop, .run(app.finishRebaseJob())])
        case .later: .all([.pop, .say("The sync waits: S finishes it.")])
        }
    }

    /// The record's editor on the file as resolved (read from the text written).
    static func editor(_ path: String, text: String, app: AppContext) -> ConsoleScreen? {
        try? RecordKind(path: path)?.editor.open(text: Array(text.utf8), file: path, original: .itself, app: app)
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        v.render(into: &buf, rect.inset(0), focused: true)
    }
}
