import Foundation
import PushDeskCore

/// The console's side of reliability: recovery offers waiting for an answer and the save
/// conflict being resolved. Dialog ids starting `recovery.`, `conflict.` and `lock.` are routed
/// to `ConsoleApp.routeReliability`.
struct ReliabilityState {
    /// Recovery files to offer, first one shown.
    var offers: [RecoveryStore.Found] = []
    /// The draft whose save found the file changed on disk.
    var conflict: (session: any DraftSession, conflict: StoreConflict)?

    static func owns(_ id: String) -> Bool {
        id.hasPrefix("recovery.") || id.hasPrefix("conflict.") || id.hasPrefix("lock.")
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

    func routeReliability(_ id: String, _ r: Dialog.Result) {
        switch id {
        case "recovery.offer": answerOffer(r)
        case "recovery.discard": confirmDiscard(r)
        case "conflict.choice": answerConflict(r)
        case "conflict.copyName": saveConflictCopy(r)
        case "lock.takeover":
            if case .button(0) = r { finishTakeOver(access.takeOver(force: true)) }
        default: break
        }
    }

    // MARK: read-only

    /// Keys that would change a record or write the store, refused in a read-only console
    /// with a message saying who holds it. (EditSession and ConsoleStore refuse too; this is
    /// so that nothing even looks edited.)
    func refuseInReadOnly(_ key: Key) -> Bool {
        guard access.isReadOnly else { return false }
        let s = top
        let editing = s.recoverable != nil
        if editing, s.textFocused {
            switch key {
            case .char, .paste, .backspace, .delete, .ctrl("d"), .ctrl("h"), .ctrl("k"), .ctrl("u"), .ctrl("w"):
                message = access.refusal
                return true
            default: break
            }
        }
        guard let a = KeyRegistry.action(for: key, in: s.contexts + [.global]) else { return false }
        let writes: Set<Action> =
            editing
            ? [
                .save, .undo, .new, .duplicate, .delete, .addIOS, .addAndroid, .generateKey, .toggle, .pick, .moveUp,
                .moveDown, .newline,
            ]
            : [.new, .duplicate, .delete]
        if writes.contains(a) {
            message = access.refusal
            return true
        }
        return false
    }

    /// Ctrl-X: take the lock (free, or from a holder whose process is gone, after asking).
    func takeLock() {
        guard access.isReadOnly else {
            message = "This console holds the store's lock: editing is on."
            return
        }
        let r = access.takeOver()
        if case .needsConfirmation(let h) = r {
            dialog = .confirm(
                id: "lock.takeover", title: "Take over the store?",
                message:
                    "\(h.summary)\nholds the store's lock, but its process is gone from this machine.\nTake over? Its unsaved work, if any, is in its recovery file.",
                buttons: ["Take over", "Cancel"], focus: 1)
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
            dialog = .message(title: "Lock not taken", message: Sanitize.string(why))
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
    func showConflict(_ session: any DraftSession, _ c: StoreConflict) {
        reliability.conflict = (session, c)
        let gone = c.current == nil && c.expected != .absent
        let what =
            c.expected == .absent
            ? "was created on disk by someone else" : gone ? "was deleted on disk" : "changed on disk"
        let now = c.current.map { "\n(now \($0.size) bytes, modified \(LockHolder.localTime($0.modified)))." } ?? "."
        dialog = .confirm(
            id: "conflict.choice", title: "Changed on disk",
            message: """
                \(c.file) \(what) since you opened it\(now)
                Your edits are NOT saved; the file is left as it is.
                Reload: \(gone ? "close it (drops your edits)" : "take the file as it is now (drops your edits)").
                Save as copy: save your version under a new name.
                Diff: compare the file on disk with your version.
                """,
            buttons: ["Reload", "Save as copy", "Diff", "Cancel"], focus: 3)
    }

    private func answerConflict(_ r: Dialog.Result) {
        guard let (session, c) = reliability.conflict else { return }
        switch r {
        case .button(0):
            reliability.conflict = nil
            if let name = session.originalName, reloadFromDisk(session) {
                reload()
                message = "Reloaded \(session.recordKind.path(name)) from disk; your edits were dropped."
            } else {
                close(session)
                reload()
                message = "\(c.file) is not on disk any more; closed its editor."
            }
        case .button(1):
            let noun = session.recordKind.rawValue
            var base = session.draftName.isEmpty ? noun : session.draftName
            base += "-copy"
            var name = base
            var i = 2
            while savedNames(session.recordKind).contains(name) {
                name = "\(base)\(i)"
                i += 1
            }
            dialog = .textInput(
                id: "conflict.copyName", title: "Save as copy",
                message: "Save your version as (a new \(noun) name):", value: name)
        case .button(2):
            let old = store.readText(c.file) ?? ""
            let mine = session.encodedDraft ?? String(decoding: session.recoveryEntry().xml, as: UTF8.self)
            push(
                DiffScreen(
                    title: "Differences: \(c.file)",
                    sections: [.init(heading: "\(c.file): on disk now → your version", old: old, new: mine)],
                    onClose: { app in app.showConflict(session, c) }))
        default:
            reliability.conflict = nil
            message = "Not saved; your edits are still open."
        }
    }

    private func saveConflictCopy(_ r: Dialog.Result) {
        guard let (session, c) = reliability.conflict else { return }
        guard case .text(let raw) = r else {
            showConflict(session, c)
            return
        }
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard Store.isValidName(name), !savedNames(session.recordKind).contains(name) else {
            message =
                Store.isValidName(name)
                ? "'\(name)' exists already: choose another name." : "The name must be \(Store.nameRule)."
            dialog = .textInput(
                id: "conflict.copyName", title: "Save as copy",
                message: "Save your version as (a new \(session.recordKind.rawValue) name):", value: name)
            return
        }
        do {
            try saveCopy(session, as: name)
            reliability.conflict = nil
            reload()
            message =
                "Saved your version as \(ConsoleStore.servicePath(name)); \(c.file) keeps the other one. Shared integration keys: Ctrl-F."
        } catch {
            dialog = .message(title: "Save failed", message: Sanitize.string("\(error)"))
        }
    }

    /// The names of the saved records of a kind.
    func savedNames(_ kind: RecordKind) -> [String] {
        kind == .service ? services.map(\.name) : deliveries.map(\.name)
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
        if stack.isEmpty { stack = [ServicesListScreen(app: self)] }
        recheck()
        top.willAppear(app: self)
    }
}
