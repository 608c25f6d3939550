import Foundation
import PushDeskCore

/// The store's git state in the console (docs/TEAMS.md) and the lists' git keys. The state is
/// read by `git status` off the input loop — never before the first frame, the large store
/// has thousands of files — by a background `Job` (`ConsoleApp.readGitStatusIfWanted`),
/// whose result is the `.gitRead` effect; outside a work tree `git` stays nil and nothing
/// shows. A sync and finishing or aborting the rebase it left are foreground jobs
/// (`Job.git`); what their outcome says and opens is an effect. All of it only reads.
extension AppContext {
    /// The state word of a record file in the lists (`changed`, `new`, `conflicted`); nil
    /// when it is committed as it is, or the store is not in a repository.
    func gitState(_ path: String) -> GitStatus.FileState? { git?.state(of: path) }

    /// The git keys of the record lists (services, deliveries, profiles); `path` is the selected record's
    /// file. Nil for any other action. (Outside a repository the registry refuses them first.)
    func gitListAction(_ action: Action, path: String?) -> Effect? {
        switch action {
        case .commit:
            if git?.rebasing == true { return .say("A sync is half-way: S finishes it (or aborts it) first.") }
            return .push(CommitScreen(app: self))
        case .sync:
            if git?.rebasing == true {
                let conflicted = (git?.files ?? [:]).filter { $0.value == .conflicted }.map(\.key).sorted()
                if let first = conflicted.first { return ResolveScreen.open(path: first, app: self) }
                return GitOffer.ask()
            }
            if hasUnsavedDrafts {
                // A pull never touches a draft (it is not a file); saying so keeps it from being a surprise.
                return .all([
                    .run(syncJob()), .say("Syncing; your unsaved drafts stay as they are (Ctrl-S checks the file)."),
                ])
            }
            return .run(syncJob())
        case .resolve:
            guard let path else { return Effect.none }
            guard gitState(path) == .conflicted else { return .say("\(path) is not conflicted.") }
            return ResolveScreen.open(path: path, app: self)
        case .history:
            guard let path else { return Effect.none }
            return HistoryScreen.open(path: path, app: self)
        default: return nil
        }
    }

    /// A sync, its progress in the status bar; conflicts open the first conflicted record.
    func syncJob() -> Job { syncStepJob("Syncing…", GitTeamWork.sync) }

    /// Finishing the rebase a sync left (after the last conflict is resolved, or at start).
    func finishRebaseJob() -> Job { syncStepJob("Finishing the sync…", GitTeamWork.finishRebase) }

    /// A step of a sync as a foreground job; its outcome is answered as a sync's.
    private func syncStepJob(
        _ first: String, _ step: @escaping @Sendable (URL, (String) -> Void, GitStop?) -> GitOutcome
    ) -> Job {
        let root = storeURL
        return .git(first) { job in
            step(root, job.report, job.gitStop)
        } done: { outcome, app in
            app.syncAnswer(outcome)
        }
    }

    /// What a sync's outcome says and opens.
    func syncAnswer(_ outcome: GitOutcome) -> Effect {
        switch outcome {
        case .done(let what): return .say(what)
        case .cancelled:
            return .say(
                "Sync stopped (Esc): git was interrupted, nothing was lost; `git status` tells where it stands, S syncs again."
            )
        case .failed(let why): return .inform("Sync failed", Sanitize.string(why))
        case .conflicts(let paths):
            let next = paths.first.map { ResolveScreen.open(path: $0, app: self) } ?? Effect.none
            return .all([
                next,
                .say(
                    "\(paths.count) record\(paths.count == 1 ? "" : "s") conflicted: choose ours / theirs per field, then w."
                ),
            ])
        }
    }
}

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
