import Foundation
import PushDeskCore

/// Taking over the store's lock from a console that holds it (Ctrl-X in a read-only
/// console): `.takeLock(force:)` tries, and what it found becomes the next effect — the
/// question when the holder's process is gone, the message, the recovery offers.
extension AppState {
    func takeLock(force: Bool, _ stack: ScreenStack) -> Effect {
        guard access.isReadOnly else { return .say("This console holds the store's lock: editing is on.") }
        switch access.takeOver(force: force) {
        case .needsConfirmation(let h):
            return .choose(
                "Take over the store?",
                "\(h.summary)\nholds the store's lock, but its process is gone from this machine.\nTake over? Its unsaved work, if any, is in its recovery file.",
                [("Take over", .takeLock(force: true)), ("Cancel", .none)], focus: 1, cancel: .none)
        case .acquired:
            // Open views were read-only; they start again from the files as they are now.
            for sess in stack.compactMap(\.session) {
                sess.readOnly = false
                if !sess.isDirty { _ = reloadFromDisk(sess) }
            }
            reload(stack)
            let cleaned = access.cleanStaleTempFiles()
            return .all([
                .say(
                    "This console now holds the store's lock: editing is on."
                        + (cleaned.isEmpty
                            ? ""
                            : " Removed \(cleaned.count) temporary file\(cleaned.count == 1 ? "" : "s") of interrupted saves.")
                ),
                .offerPendingRecovery,
            ])
        case .stillHeld(let h):
            return .say("Still held by \(h?.summary ?? "another process"); try again when it has quit.")
        case .failed(let why):
            return .inform("Lock not taken", Sanitize.string(why))
        }
    }
}
