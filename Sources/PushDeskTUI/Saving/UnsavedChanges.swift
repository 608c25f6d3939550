import PushDeskCore

/// The question before leaving drafts with unsaved changes (Esc on an editor's last view,
/// a quit): Save (each, then go on), Discard (go on), Cancel. Its buttons answer with effects.
enum UnsavedChanges {
    /// `then` at once when nothing is unsaved, else the question.
    static func ask(_ sessions: [any DraftSession], then: Effect) -> Effect {
        guard let first = sessions.first else { return then }
        let more =
            sessions.count > 1 ? " (and \(sessions.count - 1) other record\(sessions.count == 2 ? "" : "s"))" : ""
        return .choose(
            "Unsaved changes", "Save the changes to \(first.displayName)\(more)?",
            [("Save", .saveAll(sessions, then: then)), ("Discard", then), ("Cancel", .none)], focus: 0, cancel: .none)
    }
}
