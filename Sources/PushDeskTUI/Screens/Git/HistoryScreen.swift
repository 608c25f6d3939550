import Foundation
import PushDeskCore

/// History of a record (docs/TEAMS.md): the commits that touched its file (`git log -- path`),
/// newest first. Enter shows the selected version against the file now (the diff view);
/// `r` opens that version in the record's editor as an unsaved draft — nothing is written
/// until Ctrl-S, which goes through the usual conflict check.
final class HistoryScreen: ListScreen {
    var view = TableView(columns: [
        .init("Commit", width: 9), .init("Date", width: 11), .init("Author", width: 18), .init("Subject"),
    ])
    let path: String
    private(set) var versions: [GitTeamWork.Version] = []
    /// `git log` runs off the input loop: the view says "Loading…" until it is in.
    private var load: GitLoad<[GitTeamWork.Version]>?

    init(path: String, app: AppContext) {
        self.path = path
        let root = app.storeURL
        table.emptyText = "Loading the history of \(path)… (Esc goes back)"
        load = GitLoad(owner: self) { try GitTeamWork.history(store: root, path: path) }
    }

    /// The history of a record file, opened at once (git reads it meanwhile).
    static func open(path: String, app: AppContext) -> Effect { .push(HistoryScreen(path: path, app: app)) }

    var jobsOnOpen: [Job] { load.map { [$0.job] } ?? [] }

    func update(_ rect: Rect, app: AppContext) {
        guard let load else { return }
        let took = load.take { v in
            versions = v
            table.emptyText = "No commit holds \(path) yet."
        } failed: {
            table.emptyText = "No history: " + Sanitize.string($0)
        }
        guard took else { return }
        table.setRows(versions.map { [$0.commit, $0.date, $0.author, $0.subject] })
        self.load = nil
    }

    var title: String { "History of \(path)" }
    var listContext: KeyContext? { .historyView }

    private var selected: GitTeamWork.Version? {
        table.selectedRow.flatMap { versions.indices.contains($0) ? versions[$0] : nil }
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.handle(action) { return Effect.none }
        if let refusal = app.refusal(for: action) { return refusal }
        guard let v = selected else { return action == .open || action == .restore ? Effect.none : nil }
        switch action {
        case .open:
            let (root, path) = (app.storeURL, path)
            return .push(
                DiffScreen(
                    title: "\(path) at \(v.commit)",
                    loading: {
                        let old = try GitTeamWork.text(store: root, commit: v.commit, path: path)
                        let now = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
                        return [.init(heading: "\(path): \(v.commit) (\(v.date)) → now", old: old, new: now)]
                    }, legend: "- \(v.commit)  + now"))
        case .restore:
            // The version's text is read as git work (keys wait, Esc stops it); `.done` carries it.
            let (root, path) = (app.storeURL, path)
            return .run(
                .git("Reading \(path) at \(v.commit)…") { _ in
                    do { return .done(try GitTeamWork.text(store: root, commit: v.commit, path: path)) } catch {
                        return .failed("\(error)")
                    }
                } done: { [weak self] outcome, app in
                    switch outcome {
                    case .done(let text): self?.restore(v, text: text, app: app) ?? .none
                    case .failed(let why): .inform("Cannot restore", Sanitize.string("\(v.commit): \(why)"))
                    default: .none
                    }
                })
        default: return nil
        }
    }

    /// Opens a version's text in the record's editor as an unsaved draft.
    func restore(_ v: GitTeamWork.Version, text: String, app: AppContext) -> Effect {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let said = Effect.say("Version \(v.commit) restored as an unsaved draft: Ctrl-S saves it, Esc discards.")
        guard let kind = RecordKind(path: path) else { return .say("\(path) is no record file.") }
        do {
            let editor = try kind.editor.open(text: Array(text.utf8), file: path, original: .listed(name), app: app)
            return .all([.replace(editor), said])
        } catch {
            return .inform("Cannot restore", Sanitize.string("\(v.commit): \(error)"))
        }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        v.render(into: &buf, rect.inset(0), focused: true)
    }
}
