import Foundation
import PushDeskCore

/// Commit (SPEC §10.3): the record files git sees changed or new, each with its findings;
/// Enter shows one's diff against the last commit (the diff view), `c` asks for the message
/// and commits them all — refused while one of them has error findings (listed), or when a
/// secret or local path would be committed. The author is git's configured identity.
final class CommitScreen: StatefulScreen, Asking {
    struct View {
        var table = TableView(columns: [.init("File", width: 34), .init("State", width: 10), .init("Findings")])
    }
    var view = View()
    var table: TableView {
        get { view.table }
        set { view.table = newValue }
    }
    private(set) var paths: [String] = []

    init(app: ConsoleApp) {
        table.emptyText = "Nothing to commit: every record is as committed."
        refresh(app)
    }

    var title: String { "Commit" }
    var contexts: [KeyContext] { table.isFiltering ? [] : [.commitView, .list] }
    var textFocused: Bool { table.isFiltering }
    func willAppear(app: ConsoleApp) { refresh(app) }
    func handleText(_ key: Key, app: ConsoleApp) -> Bool { table.handleFilterKey(key) }
    func handleUnbound(_ key: Key, app: ConsoleApp) -> Bool { table.handleFilterKey(key) }

    /// The record files to commit: changed or new, not conflicted (those are resolved first).
    static func toCommit(_ app: ConsoleApp) -> [String] {
        (app.git?.files ?? [:]).filter { GitTeamWork.isRecord($0.key) && $0.value != .conflicted }.map(\.key).sorted()
    }

    func refresh(_ app: ConsoleApp) {
        paths = Self.toCommit(app)
        let byFile = Dictionary(grouping: app.findings, by: \.file)
        table.setRows(
            paths.map { p in
                let exists = FileManager.default.fileExists(atPath: app.storeURL.appendingPathComponent(p).path)
                return [
                    p, exists ? app.gitState(p)?.rawValue ?? "" : "deleted",
                    ServicesListScreen.summary(byFile[p] ?? []),
                ]
            }, roles: paths.map { ServicesListScreen.role(byFile[$0] ?? []) })
    }

    enum Reply {
        case message(String?)
        case keep
    }

    func handle(_ action: Action, app: ConsoleApp) -> Effect? {
        if table.handle(action) { return Effect.none }
        if let refusal = app.refusal(for: action) { return refusal }
        switch action {
        case .open:
            guard let p = table.selectedRow.map({ paths[$0] }) else { return Effect.none }
            return .push(Self.diff(p, app: app))
        case .commit:
            guard !paths.isEmpty else { return .say("Nothing to commit.") }
            let errors = app.findings.filter { paths.contains($0.file) && $0.severity == .error }
            if !errors.isEmpty {
                let list = errors.prefix(8).map {
                    "\($0.file): \($0.field.isEmpty ? "" : $0.field + ": ")\($0.message)"
                }
                return .inform(
                    "Cannot commit",
                    "\(errors.count) error finding\(errors.count == 1 ? "" : "s") in the records to commit:\n"
                        + Sanitize.string(list.joined(separator: "\n"))
                        + (errors.count > 8 ? "\n…" : "") + "\nFix them first (Ctrl-F lists every finding).")
            }
            return .ask(
                self,
                .text("Commit", "Message for \(paths.count) record\(paths.count == 1 ? "" : "s"):") { .message($0) })
        default: return nil
        }
    }

    func answer(_ reply: Reply, app: ConsoleApp) -> Effect {
        guard case .message(let m?) = reply else { return .none }
        let message = m.trimmingCharacters(in: .whitespaces)
        guard !message.isEmpty else { return .say("Not committed: a commit needs a message.") }
        let root = app.storeURL
        let paths = paths
        return .git(
            GitJob("Committing…") { _ in
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
    static func diff(_ path: String, app: ConsoleApp) -> DiffScreen {
        let root = app.storeURL
        return DiffScreen(
            title: "Changes of \(path)",
            loading: GitLoad(app.background) {
                let old = (try? GitTeamWork.text(store: root, commit: "HEAD", path: path)) ?? ""
                let new = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
                return [.init(heading: "\(path): last commit → now", old: old, new: new)]
            }, legend: "- committed  + now")
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: ConsoleApp, view v: inout View) {
        v.table.render(into: &buf, rect.inset(0), focused: true)
    }
}
