import Foundation
import PushDeskCore

/// The one place where what a view, a dialog or a job answered happens: `apply(_:)`, and
/// the saves and deletes it carries out through the store.
extension ConsoleApp {
    // MARK: effects and dialogs

    /// The one place where what a view answered happens.
    func apply(_ effect: Effect) {
        switch effect {
        case .none: break
        case .push(let s): push(s)
        case .pop: pop()
        case .replace(let s):
            if stack.count > 1 { left(stack.removeLast()) }
            push(s)
        case .ask(let q): question = q
        case .say(let m): message = m
        case .save(let s): save(s)
        case .delete(let kind, let name): delete(kind, name)
        case .quit: requestQuit()
        case .leave: quitRequested = true
        case .printOnExit(let text): exitOutput.append(text)
        case .writeFile(let url, let bytes, let mode, let done):
            apply(done(Result { try AtomicFile.write(bytes, to: url, mode: mode) }.error))
        case .storeSecret(let name, let value, let done):
            apply(done(Result { try store.setSecret(name, value) }.error))
        case .addDevice(let sub, let profile, let done): apply(done(Result { try addDevice(sub, profile: profile) }))
        case .offerNextRecovery: showNextOffer()
        case .run(let job): run(job)
        case .gitFinished(let outcome):
            if case .conflicts = outcome { rebaseOffered = true }
            if !loading { reload() }
            for s in stack { s.willAppear(app: context) }
        case .cancel(let job): job.cancel()
        case .all(let effects): for e in effects { apply(e) }
        case .jump(let screens): jump(to: screens)
        }
    }

    /// A finding's record opened from the findings view (or the composer's preview).
    func jump(to screens: [ConsoleScreen]) {
        if top is FindingsScreen, stack.count > 1 { left(stack.removeLast()) }
        if let sess = screens.first?.session {
            // The list under everything stays, so Esc always ends somewhere.
            for s in stack.dropFirst() where s.session === sess { left(s) }
            let kept = [stack[0]] + stack.dropFirst().filter { $0.session !== sess }
            stack = kept
        }
        for s in screens { push(s) }
    }

    /// Opens one of the console's own dialogs (its answer comes back to `answer`).
    func ask(_ q: Ask<AppReply>) { apply(.ask(self, q)) }

    /// A message dialog (OK only).
    func show(_ title: String, _ message: String) { apply(.inform(title, message)) }

    /// Deletes a listed record's file, only the version that was listed: a file changed
    /// on disk since is kept (and the lists show it as it is now).
    func delete(_ kind: RecordKind, _ name: String) {
        do {
            try store.deleteChecked(kind, name, store.baseline(kind.path(name)))
            reload()
            top.willAppear(app: context)
            message = "Deleted \(kind.path(name))"
        } catch {
            if error is StoreConflict {
                reload()
                top.willAppear(app: context)
            }
            show("Delete failed", Sanitize.string("\(error)"))
        }
    }

    /// Saves a session's draft (a service or a delivery) through the store: an atomic write,
    /// only if the file on disk is still the one the draft started from (else the conflict
    /// dialog); a rename saves the new file, then deletes the old one unless it changed.
    @discardableResult
    func save(_ session: any DraftSession) -> Bool { saveDraft(session) }

    func saveDraft<S: DraftSession>(_ session: S) -> Bool {
        let d = session.draft
        let kind = S.Record.kind
        guard Store.isValidName(d.name) else {
            let what =
                switch kind {
                case .service: "The internal name must be \(Store.nameRule):\nit is the file name. Set Name"
                case .delivery:
                    "The delivery name must be \(Store.nameRule):\nit is the file name. Set Name (Content tab)"
                case .profile: "The profile name must be \(Store.nameRule):\nit is the file name. Set Name"
                }
            show("Cannot save", what + " and press Ctrl-S again.")
            return false
        }
        let taken = savedNames(kind)
        if d.name != session.original?.name, taken.contains(d.name) {
            show("Cannot save", "A \(S.Record.noun) named '\(d.name)' already exists.\nChoose another name.")
            return false
        }
        let written: FileFingerprint
        // A renamed record is a new file (it must not exist yet); the old one goes afterwards.
        let renamed = session.original.map { $0.name != d.name } ?? false
        do {
            written = try store.saveChecked(record: d, renamed ? .absent : session.baseline ?? baseline(for: session))
        } catch let c as StoreConflict {
            showConflict(session, c)
            return false
        } catch {
            show("Save failed", Sanitize.string("\(error)"))
            return false
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
        reload()
        let errs = findings.filter { $0.file == kind.path(d.name) && $0.severity == .error }.count
        message =
            "Saved \(kind.path(d.name))" + (errs > 0 ? " (\(errs) error\(errs == 1 ? "" : "s") to fix: Ctrl-F)" : "")
            + (kept ?? "")
        return true
    }
}

extension ConsoleApp {
    /// The Listen view's save: `ListenProfileSave.update` through this console's store
    /// (a read-only console refuses, a file changed on disk since it was read is a conflict),
    /// then the store is read again so the profiles show the device.
    func addDevice(_ sub: Subscription, profile name: String) throws -> String {
        let store = self.store
        let file = storeURL.appendingPathComponent(Profile.path(name)).path
        let what = try ListenProfileSave.update(
            sub, profile: name,
            current: { FileManager.default.fileExists(atPath: file) ? try store.loadCurrent(Profile.self, name) : nil },
            save: { _ = try store.saveChecked(record: $0, $1) })
        if !loading { reload() }
        return what
    }
}
