import Foundation
import PushDeskCore

/// A save that found its file changed on disk: reload it, save the draft as a copy, or see
/// the differences (docs/RELIABILITY.md).
extension ConsoleApp {
    /// Starts a session over from its file as it is on disk now; false when the file is gone
    /// or unreadable (or the record was never saved).
    func reloadFromDisk<S: DraftSession>(_ session: S) -> Bool {
        guard let name = session.original?.name, let (cur, fp) = try? store.loadCurrent(S.Record.self, name) else {
            return false
        }
        session.reset(to: cur, baseline: .read(fp))
        return true
    }

    /// The file changed on disk since the draft started from it: never overwrite, ask.
    func showConflict(_ session: any DraftSession, _ c: StoreConflict) { apply(conflictQuestion(session, c)) }

    /// The *Changed on disk* dialog (also what closing its diff goes back to).
    func conflictQuestion(_ session: any DraftSession, _ c: StoreConflict) -> Effect {
        let conflict = AppReply.Conflict(session: session, conflict: c)
        let gone = c.current == nil && c.expected != .absent
        let what =
            c.expected == .absent
            ? "was created on disk by someone else" : gone ? "was deleted on disk" : "changed on disk"
        let now = c.current.map { "\n(now \($0.size) bytes, modified \(LockHolder.localTime($0.modified)))." } ?? "."
        return .ask(
            self,
            .buttons(
                "Changed on disk",
                """
                \(c.file) \(what) since you opened it\(now)
                Your edits are NOT saved; the file is left as it is.
                Reload: \(gone ? "close it (drops your edits)" : "take the file as it is now (drops your edits)").
                Save as copy: save your version under a new name.
                Diff: compare the file on disk with your version.
                """,
                [
                    ("Reload", .conflict(.reload, conflict)), ("Save as copy", .conflict(.saveAsCopy, conflict)),
                    ("Diff", .conflict(.diff, conflict)), ("Cancel", .conflict(.cancel, conflict)),
                ], focus: 3, cancel: .conflict(.cancel, conflict)))
    }

    func askCopyName(_ value: String, _ conflict: AppReply.Conflict) {
        ask(
            .text(
                "Save as copy", "Save your version as (a new \(conflict.session.recordKind.rawValue) name):",
                value: value
            ) { .copyName($0, conflict) })
    }

    func answerConflict(_ a: AppReply.ConflictAnswer, _ conflict: AppReply.Conflict) {
        let (session, c) = (conflict.session, conflict.conflict)
        switch a {
        case .reload:
            if let name = session.originalName, reloadFromDisk(session) {
                reload()
                message = "Reloaded \(session.recordKind.path(name)) from disk; your edits were dropped."
            } else {
                close(session)
                reload()
                message = "\(c.file) is not on disk any more; closed its editor."
            }
        case .saveAsCopy:
            let noun = session.recordKind.rawValue
            var base = session.draftName.isEmpty ? noun : session.draftName
            base += "-copy"
            var name = base
            var i = 2
            while savedNames(session.recordKind).contains(name) {
                name = "\(base)\(i)"
                i += 1
            }
            askCopyName(name, conflict)
        case .diff:
            let old = store.readText(c.file) ?? ""
            let mine = session.encodedDraft ?? String(decoding: session.recoveryEntry().xml, as: UTF8.self)
            push(
                DiffScreen(
                    title: "Differences: \(c.file)",
                    sections: [.init(heading: "\(c.file): on disk now → your version", old: old, new: mine)],
                    onClose: conflictQuestion(session, c)))
        case .cancel:
            message = "Not saved; your edits are still open."
        }
    }

    func saveConflictCopy(_ raw: String?, _ conflict: AppReply.Conflict) {
        let (session, c) = (conflict.session, conflict.conflict)
        guard let raw else {
            showConflict(session, c)
            return
        }
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard Store.isValidName(name), !savedNames(session.recordKind).contains(name) else {
            message =
                Store.isValidName(name)
                ? "'\(name)' exists already: choose another name." : "The name must be \(Store.nameRule)."
            askCopyName(name, conflict)
            return
        }
        do {
            try saveCopy(session, as: name)
            reload()
            // A service's copy shares the integration keys of the other file (the rules say so).
            message =
                "Saved your version as \(session.recordKind.path(name)); \(c.file) keeps the other one."
                + (session.recordKind == .service ? " Shared integration keys: Ctrl-F." : "")
        } catch {
            show("Save failed", Sanitize.string("\(error)"))
        }
    }

    /// The names of the saved records of a kind.
    func savedNames(_ kind: RecordKind) -> [String] {
        switch kind {
        case .service: services.map(\.name)
        case .delivery: deliveries.map(\.name)
        case .profile: profiles.map(\.name)
        }
    }

    /// Saves the draft under a new name (a new file) and continues editing that record.
    func saveCopy<S: DraftSession>(_ session: S, as name: String) throws {
        var copy = session.draft
        copy.name = name
        let fp = try store.saveChecked(record: copy, .absent)
        session.reset(to: copy, baseline: .read(fp))
    }

    /// Removes every view of a session (its record is gone).
    func close(_ session: any DraftSession) {
        stack.removeAll { $0.session === session }
        if stack.isEmpty { stack = [ServicesListScreen(app: context)] }
        recheck()
        top.willAppear(app: context)
    }
}
