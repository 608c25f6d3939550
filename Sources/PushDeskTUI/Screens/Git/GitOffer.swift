import Foundation
import PushDeskCore

/// The console's git questions: an interrupted sync found at start (a rebase half-way).
final class GitOffer: Asking {
    enum Reply {
        case finish, abort, later
    }

    static func ask() -> Effect {
        let offer = GitOffer()
        let ask = Ask<Reply>.buttons(
            "Sync interrupted",
            "A sync stopped half-way: git is rebasing (`git status` says so).\nFinish it (resolve what conflicts, then push) or abort it (back to your commits as they were)?",
            [("Finish", .finish), ("Abort", .abort), ("Later", .later)], focus: 0, cancel: .later)
        // The dialog holds the offer: nothing else keeps the app's own question alive.
        return .ask(Question(dialog: ask.dialog) { result, app in offer.answer(ask.reply(result), app: app) })
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .finish: return .run(app.finishRebaseJob())
        case .abort:
            let root = app.storeURL
            return .run(
                .git("Aborting the rebase…") { _ in
                    do {
                        try GitTeamWork.abortRebase(store: root)
                        return .done("Rebase aborted: your commits are as they were before the sync.")
                    } catch { return .failed("\(error)") }
                } done: { outcome, app in
                    app.syncAnswer(outcome)
                })
        case .later: return .say("The rebase waits: S in a list offers it again (and so does the next start).")
        }
    }
}
