import Foundation
import PushDeskCore

/// The store's git state in the console (SPEC §10.3): read by `git status` on a worker
/// thread — never before the first frame, the large store has thousands of files — by a
/// background `Job`, whose result the run loop hands to the app. Outside a work tree `git`
/// stays nil and nothing shows.
extension ConsoleApp {
    /// The worker's answer arrived: the title and the lists show it.
    public func finishGitStatus(_ status: GitStatus?) {
        git = status
        for s in stack { s.willAppear(app: context) }
        // A sync that a hang-up (or a conflict left for later) stopped half-way: offered once.
        if status?.rebasing == true, !rebaseOffered, question == nil, foregroundJob == nil {
            rebaseOffered = true
            apply(GitOffer.ask())
        }
        settle()
    }

    /// The state word of a record file in the lists (`changed`, `new`, `conflicted`); nil
    /// when it is committed as it is, or the store is not in a repository.
    func gitState(_ path: String) -> GitStatus.FileState? { git?.state(of: path) }
}

extension ConsoleApp {
    /// Reads the git state off the input loop when the files changed (`gitStatusWanted`);
    /// one read at a time: a change during a read is read again once it is in.
    public func readGitStatusIfWanted() {
        guard gitStatusWanted, !gitStatusReading else { return }
        gitStatusWanted = false
        gitStatusReading = true
        let root = storeURL
        apply(
            .run(
                .make(.background, work: { _ in GitStatus.read(store: root) }) { [weak self] status, _ in
                    self?.gitStatusReading = false
                    self?.finishGitStatus(status)
                    return .none
                }))
    }
}

extension ConsoleApp {
    /// The git keys of the services and deliveries lists; `path` is the selected record's
    /// file. Nil for any other action. (Outside a repository the registry refuses them first.)
    func gitListAction(_ action: Action, path: String?) -> Effect? {
        switch action {
        case .commit:
            if git?.rebasing == true { return .say("A sync is half-way: S finishes it (or aborts it) first.") }
            return .push(CommitScreen(app: context))
        case .sync:
            if git?.rebasing == true {
                let conflicted = (git?.files ?? [:]).filter { $0.value == .conflicted }.map(\.key).sorted()
                if let first = conflicted.first { return ResolveScreen.open(path: first, app: context) }
                return GitOffer.ask()
            }
            if !dirtySessions.isEmpty {
                // A pull never touches a draft (it is not a file); saying so keeps it from being a surprise.
                return .all([
                    .run(syncJob()), .say("Syncing; your unsaved drafts stay as they are (Ctrl-S checks the file)."),
                ])
            }
            return .run(syncJob())
        case .resolve:
            guard let path else { return Effect.none }
            guard gitState(path) == .conflicted else { return .say("\(path) is not conflicted.") }
            return ResolveScreen.open(path: path, app: context)
        case .history:
            guard let path else { return Effect.none }
            return HistoryScreen.open(path: path, app: context)
        default: return nil
        }
    }
}
