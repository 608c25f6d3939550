import Foundation
import PushDeskCore

/// Commit (docs/TEAMS.md): the record files git sees changed or new, each with its findings;
/// Enter shows one's diff against the last commit (the diff view), Space leaves the selected
/// one out (or puts it back), `c` asks for the message and commits the ones marked [x] —
/// refused while one of those has error findings (listed; a record left out does not
/// block), or when a secret or local path would be committed. What is left out stays
/// changed in the work tree. The author is git's configured identity.
final class CommitScreen: StoreListScreen, Asking {
    var view = TableView(columns: [
        .init("In", width: 4), .init("File", width: 34), .init("State", width: 10), .init("Findings"),
    ])
    private(set) var paths: [String] = []
    /// Records the operator left out of this commit (Space); the rest are committed.
    private(set) var leftOut: Set<String> = []
    /// The records to commit, in list order.
    var chosen: [String] { paths.filter { !leftOut.contains($0) } }

    init(app: AppContext) {
        table.emptyText = "Nothing to commit: every record is as committed."
        refresh(app)
    }

    var title: String { "Commit" }
    var listContext: KeyContext? { .commitView }
    /// The record files to commit: changed or new, not conflicted (those are resolved first).
    static func toCommit(_ app: AppContext) -> [String] {
        (app.git?.files ?? [:]).filter { GitTeamWork.isRecord($0.key) && $0.value != .conflicted }.map(\.key).sorted()
    }

    func refresh(_ app: AppContext) {
        paths = Self.toCommit(app)
        leftOut.formIntersection(paths)
        let keep = table.selectedRow
        let byFile = Dictionary(grouping: app.findings, by: \.file)
        table.setRows(
            paths.map { p in
                // Git's status says a file is gone (read off the loop with the rest of it).
                let deleted = app.git?.deleted.contains(p) == true
                return [
                    leftOut.contains(p) ? "[ ]" : "[x]", p, deleted ? "deleted" : app.gitState(p)?.rawValue ?? "",
                    ServicesListScreen.summary(byFile[p] ?? []),
                ]
            }, roles: paths.map { leftOut.contains($0) ? .muted : ServicesListScreen.role(byFile[$0] ?? []) })
        if let keep { table.select(row: keep) }
    }

    enum Reply {
        case message(String?)
        case keep
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.handle(action) { return Effect.none }
        if let refusal = app.refusal(for: action) { return refusal }
        switch action {
        case .open:
            guard let p = table.selectedRow.map({ paths[$0] }) else { return Effect.none }
            return .push(Self.diff(p, app: app))
        case .toggle:
            guard let p = table.selectedRow.map({ paths[$0] }) else { return Effect.none }
            if leftOut.remove(p) == nil { leftOut.insert(p) }
            refresh(app)
            return .say(leftOut.contains(p) ? "\(p) left out of this commit." : "\(p) is in the commit again.")
        case .commit:
            guard !paths.isEmpty else { return .say("Nothing to commit.") }
            let chosen = chosen
            guard !chosen.isEmpty else { return .say("Every record is left out: Space puts the selected one back in.") }
            let errors = app.findings.filter { chosen.contains($0.file) && $0.severity == .error }
            if !errors.isEmpty {
                let list = errors.prefix(8).map {
                    "\($0.file): \($0.field.isEmpty ? "" : "\($0.field): ")\($0.message)"
                }
                return .inform(
                    "Cannot commit",
                    "\(errors.count) error finding\(errors.count == 1 ? "" : "s") in the records to commit:\n"
                        + list.map(Sanitize.string).joined(separator: "\n")
                        + (errors.count > 8 ? "\n…" : "")
                        + "\nFix them first (Ctrl-F lists every finding), or leave the record out (Space).")
            }
            let out = leftOut.isEmpty ? "" : " (\(leftOut.count) left out)"
            return .ask(
                self,
                .text("Commit", "Message for \(chosen.count) record\(chosen.count == 1 ? "" : "s")\(out):") {
                    .message($0)
                })
        default: return nil
        }
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        guard case .message(let m?) = reply else { return .none }
        let message = m.trimmingCharacters(in: .whitespaces)
        guard !message.isEmpty else { return .say("Not committed: a commit needs a message.") }
        let root = app.storeURL
        let paths = chosen
        return .run(
            .git("Committing…") { _ in
                do {
                    let id = try GitTeamWork.commit(store: root, paths: paths, message: message)
                    return .done("Committed \(id): \(paths.count) record\(paths.count == 1 ? "" : "s")")
                } catch { return .failed("\(error)") }
            } done: { outcome, _ in
                switch outcome {
                case .done(let what): .all([.pop, .say(what)])
                case .failed(let why): .inform("Not committed", Sanitize.string(why))
                default: .none
                }
            })
    }

    /// The diff view of a record file: the last commit → the file now, both read off the
    /// input loop (`git show` waits on a large repository).
    static func diff(_ path: String, app: AppContext) -> DiffScreen {
        let root = app.storeURL
        return DiffScreen(
            title: "Changes of \(path)",
            loading: {
                let old = (try? GitTeamWork.text(store: root, commit: "HEAD", path: path)) ?? ""
                let new = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
                return [.init(heading: "\(path): last commit → now", old: old, new: new)]
            }, legend: "- committed  + now")
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        v.render(into: &buf, rect.inset(0), focused: true)
    }
}
