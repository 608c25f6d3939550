import Foundation
import PushDeskCore

/// At start (and when a read-only console takes the lock): drafts a dropped console left in
/// its recovery file are offered back — restore / show diff / discard / later. The offers
/// wait here, one dialog each; the answers are effects (open the drafts, show a diff,
/// remove the file).
final class RecoveryOffers: Asking {
    enum Reply {
        case restore, diff, discard, later
        case discardConfirmed(Bool)
    }

    /// Recovery files to offer, the first one shown.
    private var offers: [RecoveryStore.Found] = []

    /// This user's recovery files, offered from the first. Only the lock holder may restore.
    func pending(_ state: AppState) -> Effect {
        guard !state.access.isReadOnly, let keeper = state.recovery else { return .none }
        offers = keeper.pending()
        return next()
    }

    /// The dialog of the first offer waiting (an unreadable file is said and skipped).
    func next() -> Effect {
        guard let first = offers.first else { return .none }
        switch first.file {
        case .failure(let e):
            offers.removeFirst()
            return .inform(
                "Recovery file not readable",
                "\(Sanitize.string(e.description))\nIt was left in place; move it away once you have looked at it.")
        case .success(let f):
            let items = f.entries.map { e -> String in
                "  • \(e.summary)" + (e.replacedCharacters ? " (control characters replaced by �)" : "")
            }
            return .ask(
                self,
                .buttons(
                    "Unsaved work found",
                    """
                    The console of \(Escape.inline(f.user))@\(Escape.inline(f.host)) (pid \(f.pid)) left unsaved drafts,
                    written \(LockHolder.localTime(f.written)) (\(f.reason.phrase)):
                    \(items.joined(separator: "\n"))
                    Restore opens them as unsaved drafts; Ctrl-S then saves each.
                    """,
                    [("Restore", .restore), ("Show diff", .diff), ("Discard", .discard), ("Later", .later)], focus: 0,
                    cancel: .later))
        }
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        guard let found = offers.first, case .success(let f) = found.file else { return .none }
        switch reply {
        case .restore: return restore(f, path: found.path, app: app)
        case .diff:
            let sections = f.entries.map { e -> DiffScreen.Section in
                let path = e.kind.path(e.original ?? e.name)
                let disk = app.readText(path)
                return .init(
                    heading: "\(path): \(disk == nil ? "(not on disk)" : "on disk") → recovered draft",
                    old: disk ?? "", new: String(decoding: e.xml, as: UTF8.self))
            }
            return .push(DiffScreen(title: "Recovered drafts", sections: sections, onClose: .offerNextRecovery))
        case .discard:
            return .ask(
                self,
                .buttons(
                    "Discard recovered work?",
                    "Delete \(found.path)?\n"
                        + (f.entries.count == 1
                            ? "The unsaved draft in it is lost for good."
                            : "The \(f.entries.count) unsaved drafts in it are lost for good."),
                    [("Discard", .discardConfirmed(true)), ("Cancel", .discardConfirmed(false))],
                    focus: 1, cancel: .discardConfirmed(false)))
        case .discardConfirmed(false): return next()
        case .discardConfirmed(true):
            offers.removeFirst()
            return .removeRecoveryFile(found.path) { [self] error in
                .all([.say(error.map { Sanitize.string("\($0)") } ?? "Discarded \(found.path)."), next()])
            }
        case .later:
            offers.removeFirst()
            return .all([.say("Kept \(found.path): it is offered again at the next start."), next()])
        }
    }

    /// Opens each recovered draft in its editor, unsaved. This console's own recovery file
    /// takes them over before the old file is deleted, so they are never only in memory.
    private func restore(_ f: RecoveryFile, path: String, app: AppContext) -> Effect {
        var failed: [String] = []
        var opened: [Effect] = []
        for e in f.entries {
            do { opened.append(.push(try Self.editor(e, app: app))) } catch { failed.append("\(e.summary): \(error)") }
        }
        offers.removeFirst()
        guard failed.isEmpty else {
            return .all(
                opened + [
                    .handOverRecovery(removing: nil),
                    .inform(
                        "Some drafts not restored",
                        Sanitize.string(failed.joined(separator: "\n")) + "\n\(path) was kept."),
                ])
        }
        let n = opened.count
        return .all(
            opened + [
                .handOverRecovery(removing: path),
                .say("Restored \(n) draft\(n == 1 ? "" : "s") as unsaved: check, then Ctrl-S to save."),
                .offerNextRecovery,
            ])
    }

    /// A recovery entry back as an open, unsaved editor. The draft keeps the baseline it was
    /// read from, so a file changed since is caught at save as a conflict.
    static func editor(_ e: RecoveryEntry, app: AppContext) throws -> ConsoleScreen {
        try e.kind.editor.open(
            text: e.xml, file: "recovered " + e.kind.path(e.name), original: .onDisk(e.original), baseline: e.baseline,
            app: app)
    }
}
