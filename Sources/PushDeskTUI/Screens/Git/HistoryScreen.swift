import Foundation
import PushDeskCore

/// History of a record (SPEC §10.3): the commits that touched its file (`git log -- path`),
/// newest first. Enter shows the selected version against the file now (the diff view);
/// `r` opens that version in the record's editor as an unsaved draft — nothing is written
/// until Ctrl-S, which goes through the usual conflict check.
final class HistoryScreen: StatefulScreen {
    struct View {
        var table = TableView(columns: [
            .init("Commit", width: 9), .init("Date", width: 11), .init("Author", width: 18), .init("Subject"),
        ])
    }
    var view = View()
    var table: TableView {
        get { view.table }
        set { view.table = newValue }
    }
    let path: String
    let versions: [GitTeamWork.Version]

    init(path: String, versions: [GitTeamWork.Version]) {
        self.path = path
        self.versions = versions
        table.emptyText = "No commit holds \(path) yet."
        table.setRows(versions.map { [$0.commit, $0.date, $0.author, $0.subject] })
    }

    /// The history of a record file, or why there is none.
    static func open(path: String, app: ConsoleApp) -> Effect {
        do {
            return .push(HistoryScreen(path: path, versions: try GitTeamWork.history(store: app.storeURL, path: path)))
        } catch {
            return .inform("No history", Sanitize.string("\(error)"))
        }
    }

    var title: String { "History of \(path)" }
    var contexts: [KeyContext] { table.isFiltering ? [] : [.historyView, .list] }
    var textFocused: Bool { table.isFiltering }
    func handleText(_ key: Key, app: ConsoleApp) -> Bool { table.handleFilterKey(key) }
    func handleUnbound(_ key: Key, app: ConsoleApp) -> Bool { table.handleFilterKey(key) }

    private var selected: GitTeamWork.Version? {
        table.selectedRow.flatMap { versions.indices.contains($0) ? versions[$0] : nil }
    }

    func handle(_ action: Action, app: ConsoleApp) -> Effect? {
        if table.handle(action) { return Effect.none }
        if let refusal = app.refusal(for: action) { return refusal }
        guard let v = selected else { return action == .open || action == .restore ? Effect.none : nil }
        switch action {
        case .open:
            let old = (try? GitTeamWork.text(store: app.storeURL, commit: v.commit, path: path)) ?? ""
            let now = (try? String(contentsOf: app.storeURL.appendingPathComponent(path), encoding: .utf8)) ?? ""
            return .push(
                DiffScreen(
                    title: "\(path) at \(v.commit)",
                    sections: [.init(heading: "\(path): \(v.commit) (\(v.date)) → now", old: old, new: now)],
                    legend: "- \(v.commit)  + now"))
        case .restore:
            let text = (try? GitTeamWork.text(store: app.storeURL, commit: v.commit, path: path)) ?? ""
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let said = Effect.say("Version \(v.commit) restored as an unsaved draft: Ctrl-S saves it, Esc discards.")
            do {
                switch RecordFileKind(path: path) {
                case .service:
                    let old = try Service.decode(Array(text.utf8), file: path)
                    let current = app.services.first { $0.name == name }
                    return .all([
                        .replace(ServiceEditorScreen(session: EditSession(original: current, draft: old))), said,
                    ])
                case .delivery:
                    let old = try Delivery.decode(Array(text.utf8), file: path)
                    let current = app.deliveries.first { $0.name == name }
                    return .all([
                        .replace(ComposerScreen(session: DeliverySession(original: current, draft: old), app: app)),
                        said,
                    ])
                default: return .say("Only services and deliveries open in an editor.")
                }
            } catch {
                return .inform("Cannot restore", Sanitize.string("\(v.commit): \(error)"))
            }
        default: return nil
        }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: ConsoleApp, view v: inout View) {
        v.table.render(into: &buf, rect.inset(0), focused: true)
    }
}
