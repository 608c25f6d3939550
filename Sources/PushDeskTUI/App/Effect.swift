import Foundation
import PushDeskCore

/// What a screen's answer to a key asks the console to do (htop's `HandlerResult`, gitui's
/// action queue). Screens read the app (`AppContext`); only `ConsoleApp.apply` changes it, and
/// the app's own questions (unsaved changes, save conflicts, recovery offers, the lock, the
/// theme) answer with effects as the screens do.
indirect enum Effect {
    /// Handled; nothing more to do.
    case none
    case push(ConsoleScreen)
    /// Close the top view (Esc on a view that is not the last of a draft).
    case pop
    /// The top view gives its place to another (the stack keeps its depth).
    case replace(ConsoleScreen)
    /// Open a dialog; its answer goes back to whoever asked, as a value of the asker's type.
    case ask(Question)
    /// A one-line message in the status bar, until the next key.
    case say(String)
    /// Save a draft through the store (conflict-checked; a failure opens a dialog).
    case save(any DraftSession)
    /// Delete a saved record's file, only if it is still the version the console read.
    case delete(RecordKind, String)
    /// Quit (asks when there are unsaved changes).
    case quit
    /// Quit now: the unsaved changes were asked about (saved or discarded).
    case leave
    /// Text printed on standard output once the terminal is restored.
    case printOnExit(String)
    /// Write a file atomically (the composer's copy out to a file); `done` gets the error, if
    /// any, and answers with what to say.
    case writeFile(URL, [UInt8], mode: mode_t, done: (Error?) -> Effect)
    /// Read a file of at most `maxBytes` (the Languages tab's import); `done` gets its bytes,
    /// nil when there is no such file, or why it could not be read (`SafeFile.Refusal`).
    case readFile(URL, maxBytes: Int, done: (Result<Data?, Error>) -> Effect)
    /// Store a secret under `secrets/NAME` (never in a service file); `done` as above.
    case storeSecret(String, String, done: (Error?) -> Effect)
    /// Add (or update) a registered test device in `profiles/NAME.xml` (the Listen view):
    /// the update `listen --profile` makes, conflict-checked, under the console's own lock;
    /// `done` gets what was done (`added to profile ana`) or the error.
    case addDevice(Subscription, profile: String, done: (Result<String, Error>) -> Effect)
    /// Offer the recovery files this user's dropped consoles left (at start, after a lazy
    /// load, after taking the lock).
    case offerPendingRecovery
    /// After a services-first start's first frame: read the whole store (then offer recovery).
    case loadRest
    /// Show the next recovery offer waiting for an answer (after its diff was looked at).
    case offerNextRecovery
    /// Remove a recovery file whose drafts the operator discarded; `done` as above.
    case removeRecoveryFile(String, done: (Error?) -> Effect)
    /// Write the open drafts to this console's recovery file now (restored drafts are never
    /// only in memory), then remove the file they came from, if given, once that worked.
    case handOverRecovery(removing: String?)
    /// Save each draft that is still dirty, then go on with `then` (stops at a failed save,
    /// whose dialog shows): the unsaved-changes question's Save.
    case saveAll([any DraftSession], then: Effect)
    /// A save conflict's Reload: the draft starts over from its file (closed if it is gone).
    case reloadDraft(any DraftSession, file: String)
    /// A save conflict's Save as copy: the draft saved under a new name.
    case saveCopy(any DraftSession, name: String, file: String)
    /// Close every view of a draft (its record is gone).
    case close(any DraftSession)
    /// Take the store's lock (`force`: after the operator's yes; the holder's process is gone).
    case takeLock(force: Bool)
    /// The help overlay, a full repaint (Ctrl-L), a theme the operator picked.
    case showHelp
    case redraw
    case setTheme(String)
    /// The lazy start's load arrived (then the recovery offers, when asked and no dialog is open).
    case loaded(LoadedStore, offerRecovery: Bool)
    /// Git's state was read off the loop.
    case gitRead(GitStatus?)
    /// Run work off the input loop (App/Job.swift); what it posts becomes effects.
    case run(Job)
    /// Stop a job (Esc): its network waits end, its git fetch or push is killed.
    case cancel(Job)
    /// Git work ended: the app reads the store and git again (a sync changes files); after
    /// conflicts the rebase they leave is not asked about again (the resolve view opens).
    case gitFinished(GitOutcome)
    /// Several effects, applied in order.
    case all([Effect])
    /// Open a finding's record (FindingJump): the views given go on top, and the findings view
    /// jumped from and every older view of the same draft leave the stack (they show it as it
    /// was), so Esc goes back to where the operator came from, not through stale views.
    case jump([ConsoleScreen])

    /// A message dialog with one OK button (nothing to answer).
    static func inform(_ title: String, _ message: String) -> Effect {
        .ask(Question(dialog: .message(title: title, message: message)) { _, _ in .none })
    }

    /// A dialog of buttons that each answer with an effect (Esc: `cancel`).
    static func choose(_ title: String, _ message: String, _ buttons: [(String, Effect)], focus: Int, cancel: Effect)
        -> Effect
    {
        let ask = Ask<Effect>.buttons(title, message, buttons, focus: focus, cancel: cancel)
        return .ask(Question(dialog: ask.dialog) { result, _ in ask.reply(result) })
    }

    /// A dialog whose answer comes back to `asker.answer` as its own `Reply` type.
    static func ask<A: Asking>(_ asker: A, _ q: Ask<A.Reply>) -> Effect {
        .ask(
            Question(dialog: q.dialog) { [weak asker] result, app in
                guard let asker else { return .none }
                return asker.answer(q.reply(result), app: app)
            })
    }
}

/// Something that asks questions: its dialogs answer with values of `Reply`, which it
/// switches over (so the compiler checks that every answer is handled).
protocol Asking: AnyObject {
    associatedtype Reply
    func answer(_ reply: Reply, app: AppContext) -> Effect
}

/// A dialog on screen and where its answer goes (the asker's type erased).
struct Question {
    var dialog: Dialog
    let answer: (Dialog.Result, AppContext) -> Effect
}

/// A dialog typed by the reply its asker expects: each button, text or choice result reads
/// as a `Reply` value.
struct Ask<Reply> {
    var dialog: Dialog
    var reply: (Dialog.Result) -> Reply

    /// Buttons, each with its reply; Esc answers `cancel`.
    static func buttons(
        _ title: String, _ message: String, _ buttons: [(String, Reply)], focus: Int, cancel: Reply
    ) -> Ask {
        Ask(dialog: .confirm(title: title, message: message, buttons: buttons.map(\.0), focus: focus)) { r in
            if case .button(let i) = r, buttons.indices.contains(i) { return buttons[i].1 }
            return cancel
        }
    }

    /// A line of text (masked for secrets); nil when cancelled.
    static func text(
        _ title: String, _ message: String, value: String = "", masked: Bool = false,
        _ reply: @escaping (String?) -> Reply
    ) -> Ask {
        let d: Dialog =
            masked
            ? .secretInput(title: title, message: message) : .textInput(title: title, message: message, value: value)
        return Ask(dialog: d) { r in
            if case .text(let t) = r { return reply(t) }
            return reply(nil)
        }
    }

    /// A file path with Tab completion relative to `base`; nil when cancelled.
    static func filePath(
        _ title: String, _ message: String, value: String, base: String, _ reply: @escaping (String?) -> Reply
    ) -> Ask {
        Ask(dialog: .filePath(title: title, message: message, value: value, base: base)) { r in
            if case .text(let t) = r { return reply(t) }
            return reply(nil)
        }
    }

    /// One of `options`; nil when cancelled.
    static func choices(
        _ title: String, options: [String], selected: Int, _ reply: @escaping (Int?) -> Reply
    ) -> Ask {
        Ask(dialog: .choices(title: title, options: options, selected: selected)) { r in
            if case .choice(let i) = r, options.indices.contains(i) { return reply(i) }
            return reply(nil)
        }
    }
}

extension Result where Failure == Error {
    /// The error of a failed result; nil for a success.
    var error: Error? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
