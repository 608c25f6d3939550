import Foundation
import PushDeskCore

/// The stack of views: the top one answers keys; the sessions open in it are the drafts.
extension ConsoleApp {
    // MARK: navigation

    var top: ConsoleScreen { stack[stack.count - 1] }

    func push(_ s: ConsoleScreen) {
        if let sess = s.session {
            // The editor's baseline is the file as last loaded, where `original` came from.
            if sess.baseline == nil { sess.baseline = baseline(for: sess) }
            sess.readOnly = access.isReadOnly
        }
        stack.append(s)
        for j in s.jobsOnOpen { run(j) }
        recheck()
    }

    func pop() {
        guard stack.count > 1 else { return }
        left(stack.removeLast())
        recheck()
        top.willAppear(app: context)
    }

    /// Edit sessions with unsaved changes (one per open editor or composer).
    var dirtySessions: [any DraftSession] {
        var seen: [any DraftSession] = []
        for s in stack.compactMap(\.session) where s.isDirty && !seen.contains(where: { $0 === s }) { seen.append(s) }
        return seen
    }

    /// Applies `then` now, or after asking save / discard / cancel when there are unsaved changes.
    func confirmUnsaved(_ sessions: [any DraftSession], then: Effect) {
        guard !sessions.isEmpty else {
            apply(then)
            return
        }
        let more =
            sessions.count > 1 ? " (and \(sessions.count - 1) other record\(sessions.count == 2 ? "" : "s"))" : ""
        ask(
            .buttons(
                "Unsaved changes", "Save the changes to \(sessions[0].displayName)\(more)?",
                [
                    ("Save", .unsaved(save: sessions, then: then)), ("Discard", .unsaved(save: [], then: then)),
                    ("Cancel", .cancelled),
                ], focus: 0, cancel: .cancelled))
    }

    func requestQuit() { confirmUnsaved(dirtySessions, then: .leave) }
}
