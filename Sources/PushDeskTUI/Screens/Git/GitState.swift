import Foundation
import PushDeskCore

/// The store's git state in the console (SPEC §10.3): read by `git status` on a worker
/// thread — never before the first frame, the large store has thousands of files — and
/// handed to the single-threaded app through `GitInbox`, which the run loop polls between
/// keys like the background load. Outside a work tree `git` stays nil and nothing shows.
extension ConsoleApp {
    /// The worker's answer arrived: the title and the lists show it.
    public func finishGitStatus(_ status: GitStatus?) {
        git = status
        for s in stack { s.willAppear(app: self) }
        // A sync that a hang-up (or a conflict left for later) stopped half-way: offered once.
        if status?.rebasing == true, !rebaseOffered, question == nil, gitJob == nil {
            rebaseOffered = true
            apply(GitOffer.ask(self))
        }
        settle()
    }

    /// The state word of a record file in the lists (`changed`, `new`, `conflicted`); nil
    /// when it is committed as it is, or the store is not in a repository.
    func gitState(_ path: String) -> GitStatus.FileState? { git?.state(of: path) }
}

/// One git status handed from the worker thread to the run loop; one read at a time.
public final class GitInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: GitStatus??
    private var running = false
    public init() {}

    public var busy: Bool {
        lock.lock()
        defer { lock.unlock() }
        // A status read but not taken yet counts: the loop keeps waking quickly until it is.
        return running || value != nil
    }

    /// The status read, once (`.some(nil)`: the store is in no work tree).
    public func take() -> GitStatus?? {
        lock.lock()
        defer {
            value = nil
            lock.unlock()
        }
        return value
    }

    /// Reads the git state of the store at `root` on its own thread; false when one is running.
    @discardableResult
    public func start(root: URL) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return false }
        running = true
        Thread.detachNewThread { [self] in
            let s = GitStatus.read(store: root)
            lock.lock()
            value = .some(s)
            running = false
            lock.unlock()
        }
        return true
    }
}

extension ConsoleApp {
    /// The git keys of the services and deliveries lists; `path` is the selected record's
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
                return GitOffer.ask(self)
            }
            if !dirtySessions.isEmpty {
                // A pull never touches a draft (it is not a file); saying so keeps it from being a surprise.
                return .all([
                    .git(syncJob()), .say("Syncing; your unsaved drafts stay as they are (Ctrl-S checks the file)."),
                ])
            }
            return .git(syncJob())
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
}
