import Foundation
import PushDeskCore

/// What the app's effects do through the store: saves, deletes, the Listen view's device,
/// a conflicting draft reloaded or saved as a copy. Each answers with the effect that says
/// how it went (a status message, a dialog), which the app applies in turn.
extension AppState {
    /// The effects that change the state or go through the store (`ConsoleApp.apply` hands
    /// them here); answers with what to apply next.
    func carryOut(_ effect: Effect, _ stack: ScreenStack) -> Effect {
        switch effect {
        case .say(let m): message = m
        case .loadRest: return restPending ? .loaded(store.loadEverything(), offerRecovery: true) : .none
        case .save(let s): return save(s, stack).then
        case .saveAll(let sessions, let then):
            // One at a time: a failed save shows its dialog and nothing goes on.
            guard let s = sessions.first(where: \.isDirty) else { return then }
            let (saved, said) = save(s, stack)
            let rest = Array(sessions.drop { $0 !== s }.dropFirst())
            return .all([said, saved ? .saveAll(rest, then: then) : .none])
        case .delete(let kind, let name): return delete(kind, name, stack)
        case .reloadDraft(let s, let file): return reloadDraft(s, file: file, stack)
        case .saveCopy(let s, let name, let file): return saveCopy(s, as: name, file: file, stack)
        case .writeFile(let url, let bytes, let mode, let done):
            return done(Result { try AtomicFile.write(bytes, to: url, mode: mode) }.error)
        case .readFile(let url, let maxBytes, let done):
            return done(Result { try SafeFile.readFile(url.path, maxBytes: maxBytes, shownAs: url.path) })
        case .storeSecret(let name, let value, let done): return done(Result { try store.setSecret(name, value) }.error)
        case .addDevice(let sub, let profile, let done):
            return done(Result { try addDevice(sub, profile: profile, stack) })
        case .removeRecoveryFile(let path, let done): return done(Result { try recovery?.store.remove(path) }.error)
        case .takeLock(let force): return takeLock(force: force, stack)
        case .setTheme(let name): (themeName, outputs.theme, message) = (name, name, "Theme: \(name)")
        case .redraw: outputs.fullRedraw = true
        case .printOnExit(let text): outputs.exitOutput.append(text)
        case .leave: outputs.quit = true
        default: assertionFailure("the app applies \(effect) itself")
        }
        return .none
    }

    /// Writes the open drafts to this console's recovery file now; then removes the file
    /// they came from, if given, once that worked (restored drafts are never only in memory).
    func handOver(_ entries: [RecoveryEntry], removing path: String?) {
        let handedOver = recovery?.writeNow(entries, reason: .periodic) ?? false
        if let path, handedOver { try? recovery?.store.remove(path) }
    }

    /// Deletes a listed record's file, only the version that was listed: a file changed
    /// on disk since is kept (and the lists show it as it is now).
    func delete(_ kind: RecordKind, _ name: String, _ stack: ScreenStack) -> Effect {
        do {
            try store.deleteChecked(kind, name, store.baseline(kind.path(name)))
            reload(stack)
            return .say("Deleted \(kind.path(name))")
        } catch {
            if error is StoreConflict { reload(stack) }
            return .inform("Delete failed", Sanitize.string("\(error)"))
        }
    }

    /// Saves a session's draft through the store: an atomic write, only if the file on disk
    /// is still the one the draft started from (else the conflict dialog); a rename saves the
    /// new file, then deletes the old one unless it changed.
    func save(_ session: any DraftSession, _ stack: ScreenStack) -> (saved: Bool, then: Effect) {
        saveDraft(session, stack)
    }

    private func saveDraft<S: DraftSession>(_ session: S, _ stack: ScreenStack) -> (saved: Bool, then: Effect) {
        let d = session.draft
        let kind = S.Record.kind
        guard Store.isValidName(d.name) else {
            let row = kind.editor
            return (
                false,
                .inform(
                    "Cannot save",
                    "The \(row.nameLabel) must be \(Store.nameRule):\nit is the file name. \(row.nameField)"
                        + " and press Ctrl-S again.")
            )
        }
        if d.name != session.original?.name, savedNames(kind).contains(d.name) {
            return (
                false,
                .inform("Cannot save", "A \(S.Record.noun) named '\(d.name)' already exists.\nChoose another name.")
            )
        }
        let written: FileFingerprint
        // A renamed record is a new file (it must not exist yet); the old one goes afterwards.
        let renamed = session.original.map { $0.name != d.name } ?? false
        do {
            written = try store.saveChecked(record: d, renamed ? .absent : session.baseline ?? baseline(for: session))
        } catch let c as StoreConflict {
            return (false, SaveConflict.ask(session, c))
        } catch {
            return (false, .inform("Save failed", Sanitize.string("\(error)")))
        }
        var kept: String?
        if let old = session.original?.name, old != d.name {
            // A rename deletes the old file, unless it changed on disk meanwhile.
            do { try store.deleteChecked(kind, old, session.baseline ?? .absent) } catch {
                kept =
                    " — kept \(kind.path(old)): \(error is StoreConflict ? "it changed on disk" : Sanitize.string("\(error)"))"
            }
        }
        session.markSaved(baseline: .read(written))
        reload(stack)
        let errs = findings.filter { $0.file == kind.path(d.name) && $0.severity == .error }.count
        return (
            true,
            .say(
                "Saved \(kind.path(d.name))"
                    + (errs > 0 ? " (\(errs) error\(errs == 1 ? "" : "s") to fix: Ctrl-F)" : "")
                    + (kept ?? ""))
        )
    }

    /// The Listen view's save: `ListenProfileSave.update` through this console's store
    /// (a read-only console refuses, a file changed on disk since it was read is a conflict),
    /// then the store is read again so the profiles show the device.
    func addDevice(_ sub: Subscription, profile name: String, _ stack: ScreenStack) throws -> String {
        let store = self.store
        let file = storeURL.appendingPathComponent(Profile.path(name)).path
        let what = try ListenProfileSave.update(
            sub, profile: name,
            current: { FileManager.default.fileExists(atPath: file) ? try store.loadCurrent(Profile.self, name) : nil },
            save: { _ = try store.saveChecked(record: $0, $1) })
        if !loading { reload(stack) }
        return what
    }

    /// Starts a session over from its file as it is on disk now; false when the file is gone
    /// or unreadable (or the record was never saved).
    func reloadFromDisk<S: DraftSession>(_ session: S) -> Bool {
        guard let name = session.original?.name, let (cur, fp) = try? store.loadCurrent(S.Record.self, name) else {
            return false
        }
        session.reset(to: cur, baseline: .read(fp))
        return true
    }

    /// A save conflict's Reload: the draft starts over from the file, or its views close
    /// when the file is gone.
    func reloadDraft(_ session: any DraftSession, file: String, _ stack: ScreenStack) -> Effect {
        if let name = session.originalName, reloadFromDisk(session) {
            reload(stack)
            return .say("Reloaded \(session.recordKind.path(name)) from disk; your edits were dropped.")
        }
        reload(stack)
        return .all([.close(session), .say("\(file) is not on disk any more; closed its editor.")])
    }

    /// A save conflict's Save as copy: the draft under a new name (a new file), and editing
    /// goes on with that record.
    func saveCopy(_ session: any DraftSession, as name: String, file: String, _ stack: ScreenStack) -> Effect {
        do {
            try writeCopy(session, as: name)
            reload(stack)
            // A service's copy shares the integration keys of the other file (the rules say so).
            return .say(
                "Saved your version as \(session.recordKind.path(name)); \(file) keeps the other one."
                    + (session.recordKind == .service ? " Shared integration keys: Ctrl-F." : ""))
        } catch {
            return .inform("Save failed", Sanitize.string("\(error)"))
        }
    }

    private func writeCopy<S: DraftSession>(_ session: S, as name: String) throws {
        var copy = session.draft
        copy.name = name
        let fp = try store.saveChecked(record: copy, .absent)
        session.reset(to: copy, baseline: .read(fp))
    }
}
