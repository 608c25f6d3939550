import Foundation
import PushDeskCore

/// Taking over the store's lock from a console that holds it (Ctrl-X in a read-only console).
extension ConsoleApp {
    /// Ctrl-X: take the lock (free, or from a holder whose process is gone, after asking).
    func takeLock() {
        guard access.isReadOnly else {
            message = "This console holds the store's lock: editing is on."
            return
        }
        let r = access.takeOver()
        if case .needsConfirmation(let h) = r {
            ask(
                .buttons(
                    "Take over the store?",
                    "\(h.summary)\nholds the store's lock, but its process is gone from this machine.\nTake over? Its unsaved work, if any, is in its recovery file.",
                    [("Take over", .takeOver), ("Cancel", .cancelled)], focus: 1, cancel: .cancelled))
            return
        }
        finishTakeOver(r)
    }

    func finishTakeOver(_ r: StoreAccess.TakeOver) {
        switch r {
        case .acquired:
            // Open views were read-only; they start again from the files as they are now.
            for sess in stack.compactMap(\.session) {
                sess.readOnly = false
                if !sess.isDirty { _ = reloadFromDisk(sess) }
            }
            reload()
            let cleaned = access.cleanStaleTempFiles()
            message =
                "This console now holds the store's lock: editing is on."
                + (cleaned.isEmpty
                    ? ""
                    : " Removed \(cleaned.count) temporary file\(cleaned.count == 1 ? "" : "s") of interrupted saves.")
            offerPendingRecovery()
        case .stillHeld(let h):
            message = "Still held by \(h?.summary ?? "another process"); try again when it has quit."
        case .needsConfirmation:
            break
        case .failed(let why):
            show("Lock not taken", Sanitize.string(why))
        }
    }
}
