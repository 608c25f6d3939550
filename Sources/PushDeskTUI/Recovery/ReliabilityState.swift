import Foundation
import PushDeskCore

/// The console's side of reliability: recovery offers waiting for an answer. (The save
/// conflict being resolved travels in the answers of its dialogs, `AppReply.conflict`.)
struct ReliabilityState {
    /// Recovery files to offer, first one shown.
    var offers: [RecoveryStore.Found] = []
}

/// The answers of the console's own dialogs (ConsoleApp is their asker).
enum AppReply {
    case cancelled
    /// Unsaved changes: save these sessions (none: discard), then go on.
    case unsaved(save: [any DraftSession], then: () -> Void)
    case theme(String)
    case offer(OfferAnswer)
    case discardRecovery(confirmed: Bool)
    case conflict(ConflictAnswer, Conflict)
    /// The name to save a conflicting draft under (nil: cancelled).
    case copyName(String?, Conflict)
    case takeOver

    enum OfferAnswer { case restore, diff, discard, later }
    enum ConflictAnswer { case reload, saveAsCopy, diff, cancel }
    /// The draft whose save found its file changed on disk, and how.
    struct Conflict {
        var session: any DraftSession
        var conflict: StoreConflict
    }
}

extension ConsoleApp: Asking {
    func answer(_ reply: AppReply, app: AppContext) -> Effect {
        switch reply {
        case .cancelled: break
        case .unsaved(let sessions, let then):
            for s in sessions where s.isDirty { if !save(s) { return .none } }
            then()
        case .theme(let name):
            themeName = name
            pendingTheme = name
            message = "Theme: \(name)"
        case .offer(let a): answerOffer(a)
        case .discardRecovery(let confirmed): confirmDiscard(confirmed)
        case .conflict(let a, let c): answerConflict(a, c)
        case .copyName(let name, let c): saveConflictCopy(name, c)
        case .takeOver: finishTakeOver(access.takeOver(force: true))
        }
        return .none
    }
}

extension ConsoleApp {
    /// Every open draft with unsaved changes, in the order they were opened.
    public var unsavedDrafts: [RecoverableDraft] {
        var seen: [RecoverableDraft] = []
        for d in stack.compactMap(\.recoverable) where d.isDirty && !seen.contains(where: { $0 === d }) {
            seen.append(d)
        }
        return seen
    }

    /// What the recovery file holds right now.
    public func recoveryEntries() -> [RecoveryEntry] { unsavedDrafts.map { $0.recoveryEntry() } }

    /// The baseline of a session opened from the last load: the file as it was read.
    func baseline(for session: any DraftSession) -> RecordBaseline {
        guard let name = session.originalName else { return .absent }
        return store.baseline(session.recordKind.path(name))
    }

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

    private func finishTakeOver(_ r: StoreAccess.TakeOver) {
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

    // MARK: save conflicts

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

    private func askCopyName(_ value: String, _ conflict: AppReply.Conflict) {
        ask(
            .text(
                "Save as copy", "Save your version as (a new \(conflict.session.recordKind.rawValue) name):",
                value: value
            ) { .copyName($0, conflict) })
    }

    private func answerConflict(_ a: AppReply.ConflictAnswer, _ conflict: AppReply.Conflict) {
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

    private func saveConflictCopy(_ raw: String?, _ conflict: AppReply.Conflict) {
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
    private func saveCopy<S: DraftSession>(_ session: S, as name: String) throws {
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
