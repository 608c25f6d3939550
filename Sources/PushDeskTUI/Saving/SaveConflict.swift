import Foundation
import PushDeskCore

/// A save that found its file changed on disk (docs/RELIABILITY.md): the *Changed on disk*
/// question — reload the file, save the draft as a copy, see the differences — whose
/// answers are effects. One asker per conflict: it holds the draft and what was found.
final class SaveConflict: Asking {
    enum Reply {
        case reload, saveAsCopy, diff, cancel
        /// The name to save the draft under (nil: cancelled).
        case copyName(String?)
    }

    let session: any DraftSession
    let conflict: StoreConflict

    private init(_ session: any DraftSession, _ conflict: StoreConflict) {
        self.session = session
        self.conflict = conflict
    }

    /// The file changed on disk since the draft started from it: never overwrite, ask.
    static func ask(_ session: any DraftSession, _ c: StoreConflict) -> Effect { SaveConflict(session, c).question() }

    /// The *Changed on disk* dialog (also what closing its diff goes back to). The dialog
    /// holds the asker: nothing else keeps it alive.
    func question() -> Effect {
        let c = conflict
        let gone = c.current == nil && c.expected != .absent
        let what =
            c.expected == .absent
            ? "was created on disk by someone else" : gone ? "was deleted on disk" : "changed on disk"
        let now = c.current.map { "\n(now \($0.size) bytes, modified \(LockHolder.localTime($0.modified)))." } ?? "."
        return holding(
            .buttons(
                "Changed on disk",
                """
                \(c.file) \(what) since you opened it\(now)
                Your edits are NOT saved; the file is left as it is.
                Reload: \(gone ? "close it (drops your edits)" : "take the file as it is now (drops your edits)").
                Save as copy: save your version under a new name.
                Diff: compare the file on disk with your version.
                """,
                [("Reload", .reload), ("Save as copy", .saveAsCopy), ("Diff", .diff), ("Cancel", .cancel)], focus: 3,
                cancel: .cancel))
    }

    private func holding(_ ask: Ask<Reply>) -> Effect {
        .ask(Question(dialog: ask.dialog) { [self] result, app in answer(ask.reply(result), app: app) })
    }

    private func askCopyName(_ value: String) -> Effect {
        holding(
            .text("Save as copy", "Save your version as (a new \(session.recordKind.rawValue) name):", value: value) {
                .copyName($0)
            })
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        let c = conflict
        switch reply {
        case .reload: return .reloadDraft(session, file: c.file)
        case .saveAsCopy:
            let noun = session.recordKind.rawValue
            let base = (session.draftName.isEmpty ? noun : session.draftName) + "-copy"
            var name = base
            var i = 2
            while app.savedNames(session.recordKind).contains(name) {
                name = "\(base)\(i)"
                i += 1
            }
            return askCopyName(name)
        case .diff:
            let old = app.readText(c.file) ?? ""
            let mine = session.encodedDraft ?? String(decoding: session.recoveryEntry().xml, as: UTF8.self)
            return .push(
                DiffScreen(
                    title: "Differences: \(c.file)",
                    sections: [.init(heading: "\(c.file): on disk now → your version", old: old, new: mine)],
                    onClose: question()))
        case .cancel: return .say("Not saved; your edits are still open.")
        case .copyName(nil): return question()
        case .copyName(let raw?):
            let name = raw.trimmingCharacters(in: .whitespaces)
            guard Store.isValidName(name), !app.savedNames(session.recordKind).contains(name) else {
                let why =
                    Store.isValidName(name)
                    ? "'\(name)' exists already: choose another name." : "The name must be \(Store.nameRule)."
                return .all([.say(why), askCopyName(name)])
            }
            return .saveCopy(session, name: name, file: c.file)
        }
    }
}
