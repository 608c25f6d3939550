import Foundation
import PushDeskCore

/// Git work that must not block the input loop (a fetch or push waits on the network): a
/// foreground `Job` whose progress is the status line and whose outcome becomes an effect.
/// Esc stops it: a fetch or a push that runs is killed (`GitStop`: its process group,
/// SIGTERM then SIGKILL), any other step is let finish and nothing after it starts.
typealias GitOutcome = GitTeamWork.SyncOutcome

extension Job {
    /// Git work: `work` reports its steps and takes the job's `GitStop`; `done` makes the
    /// effect of its outcome, after the app has read the store and git again (a sync changes files).
    static func git(
        _ first: String, work: @escaping @Sendable (JobContext<Never>) -> GitOutcome,
        done: @escaping (GitOutcome, AppContext) -> Effect
    ) -> Job {
        .make(.foreground, progress: first, work: work) { outcome, app in
            .all([.gitFinished(outcome), done(outcome, app)])
        }
    }
}

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
