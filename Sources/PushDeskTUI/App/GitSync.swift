import Foundation
import PushDeskCore

/// The app's git work: a sync and finishing or aborting the rebase it left, as foreground
/// jobs (`Job.git`), and what their outcome says and opens.
extension ConsoleApp {
    /// The root of the store as a URL (git runs there).
    var storeURL: URL { URL(fileURLWithPath: store.root) }

    /// A sync, its progress in the status bar; conflicts open the first conflicted record.
    func syncJob() -> Job {
        let root = storeURL
        return .git("Syncing…") { job in
            GitTeamWork.sync(store: root, progress: job.report, stop: job.gitStop)
        } done: { outcome, app in
            app.syncAnswer(outcome)
        }
    }

    /// Finishing the rebase a sync left (after the last conflict is resolved, or at start).
    func finishRebaseJob() -> Job {
        let root = storeURL
        return .git("Finishing the sync…") { job in
            GitTeamWork.finishRebase(store: root, progress: job.report, stop: job.gitStop)
        } done: { outcome, app in
            app.syncAnswer(outcome)
        }
    }

    func syncAnswer(_ outcome: GitOutcome) -> Effect {
        switch outcome {
        case .done(let what): return .say(what)
        case .cancelled:
            return .say(
                "Sync stopped (Esc): git was interrupted, nothing was lost; `git status` tells where it stands, S syncs again."
            )
        case .failed(let why): return .inform("Sync failed", Sanitize.string(why))
        case .conflicts(let paths):
            let next = paths.first.map { ResolveScreen.open(path: $0, app: context) } ?? Effect.none
            return .all([
                next,
                .say(
                    "\(paths.count) record\(paths.count == 1 ? "" : "s") conflicted: choose ours / theirs per field, then w."
                ),
            ])
        }
    }
}
