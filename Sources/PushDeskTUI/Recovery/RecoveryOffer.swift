import Foundation
import PushDeskCore

/// At start (and when a read-only console takes the lock): drafts a dropped console left in
/// its recovery file are offered back — restore / show diff / discard / later.
extension ConsoleApp {
    /// Offers this user's recovery files, one dialog each. Only the lock holder may restore.
    public func offerPendingRecovery() {
        guard !access.isReadOnly, let keeper = recovery else { return }
        reliability.offers = keeper.pending()
        showNextOffer()
        settle()
    }

    func showNextOffer() {
        while let first = reliability.offers.first {
            switch first.file {
            case .failure(let e):
                reliability.offers.removeFirst()
                show(
                    "Recovery file not readable",
                    "\(Sanitize.string(e.description))\nIt was left in place; move it away once you have looked at it.")
                return
            case .success(let f):
                let items = f.entries.map { e -> String in
                    "  • \(e.summary)" + (e.replacedCharacters ? " (control characters replaced by �)" : "")
                }
                ask(
                    .buttons(
                        "Unsaved work found",
                        """
                        The console of \(Escape.inline(f.user))@\(Escape.inline(f.host)) (pid \(f.pid)) left unsaved drafts,
                        written \(LockHolder.localTime(f.written)) (\(f.reason.phrase)):
                        \(items.joined(separator: "\n"))
                        Restore opens them as unsaved drafts; Ctrl-S then saves each.
                        """,
                        [
                            ("Restore", .offer(.restore)), ("Show diff", .offer(.diff)), ("Discard", .offer(.discard)),
                            ("Later", .offer(.later)),
                        ], focus: 0, cancel: .offer(.later)))
                return
            }
        }
    }

    func answerOffer(_ a: AppReply.OfferAnswer) {
        guard let found = reliability.offers.first, case .success(let f) = found.file else { return }
        switch a {
        case .restore: restoreOffer(f, path: found.path)
        case .diff:
            let sections = f.entries.map { e -> DiffScreen.Section in
                let path = e.kind.path(e.original ?? e.name)
                let disk = store.readText(path)
                return .init(
                    heading: "\(path): \(disk == nil ? "(not on disk)" : "on disk") → recovered draft",
                    old: disk ?? "", new: String(decoding: e.xml, as: UTF8.self))
            }
            push(DiffScreen(title: "Recovered drafts", sections: sections, onClose: .offerNextRecovery))
        case .discard:
            ask(
                .buttons(
                    "Discard recovered work?",
                    "Delete \(found.path)?\n"
                        + (f.entries.count == 1
                            ? "The unsaved draft in it is lost for good."
                            : "The \(f.entries.count) unsaved drafts in it are lost for good."),
                    [("Discard", .discardRecovery(confirmed: true)), ("Cancel", .discardRecovery(confirmed: false))],
                    focus: 1, cancel: .discardRecovery(confirmed: false)))
        case .later:
            reliability.offers.removeFirst()
            message = "Kept \(found.path): it is offered again at the next start."
            showNextOffer()
        }
    }

    func confirmDiscard(_ confirmed: Bool) {
        guard let found = reliability.offers.first else { return }
        if confirmed {
            do {
                try recovery?.store.remove(found.path)
                message = "Discarded \(found.path)."
            } catch {
                message = Sanitize.string("\(error)")
            }
            reliability.offers.removeFirst()
        }
        showNextOffer()
    }

    /// Opens each recovered draft in its editor, unsaved. This console's own recovery file
    /// takes them over before the old file is deleted, so they are never only in memory.
    private func restoreOffer(_ f: RecoveryFile, path: String) {
        var failed: [String] = []
        var restored = 0
        for e in f.entries {
            do {
                push(try restore(e))
                restored += 1
            } catch { failed.append("\(e.summary): \(error)") }
        }
        reliability.offers.removeFirst()
        let handedOver = recovery?.writeNow(recoveryEntries(), reason: .periodic) ?? false
        if failed.isEmpty, handedOver { try? recovery?.store.remove(path) }
        if !failed.isEmpty {
            show("Some drafts not restored", Sanitize.string(failed.joined(separator: "\n")) + "\n\(path) was kept.")
        } else {
            message = "Restored \(restored) draft\(restored == 1 ? "" : "s") as unsaved: check, then Ctrl-S to save."
            showNextOffer()
        }
    }

    /// A recovery entry back as an open, unsaved editor. The draft keeps the baseline it was
    /// read from, so a file changed since is caught at save as a conflict.
    func restore(_ e: RecoveryEntry) throws -> ConsoleScreen {
        switch e.kind {
        case .service:
            return ServiceEditorScreen(session: try restoredSession(e, Service.self))
        case .delivery:
            return ComposerScreen(session: try restoredSession(e, Delivery.self), app: context)
        case .profile:
            return ProfileEditorScreen(session: try restoredSession(e, Profile.self))
        }
    }

    private func restoredSession<R: EditableRecord>(_ e: RecoveryEntry, _ type: R.Type) throws -> EditSession<R> {
        let draft = try R.decode(e.xml, file: "recovered " + e.kind.path(e.name))
        let current = e.original.flatMap { try? store.loadCurrent(R.self, $0).0 }
        return EditSession(original: current, draft: draft, baseline: e.baseline)
    }
}
