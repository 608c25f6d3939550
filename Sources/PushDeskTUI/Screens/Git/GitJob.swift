import Foundation
import PushDeskCore

/// Git work that must not block the input loop (a fetch or push waits on the network): the
/// run loop starts `work` on its own thread, redraws when `progress` changes, and hands the
/// outcome to `done` on the loop, whose effect the app applies. Esc stops it: a fetch or a
/// push that runs is killed (`GitStop`: its process group, SIGTERM then SIGKILL), any other
/// step is let finish and nothing after it starts. Tests run it in place.
public final class GitJob: @unchecked Sendable {
    public typealias Outcome = GitTeamWork.SyncOutcome
    let work: @Sendable (GitJob) -> Outcome
    let done: (Outcome, ConsoleApp) -> Effect
    private let lock = NSLock()
    private var _progress: String
    /// Kills the fetch or push that runs when Esc is pressed.
    public let stop = GitStop()
    private var _outcome: Outcome?
    private var started = false

    init(
        _ first: String, work: @escaping @Sendable (GitJob) -> Outcome, done: @escaping (Outcome, ConsoleApp) -> Effect
    ) {
        _progress = first
        self.work = work
        self.done = done
    }

    private func locked<T>(_ f: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return f()
    }

    /// The step running now (`Fetching from origin…`).
    public var progress: String { locked { _progress } }
    public func report(_ step: String) { locked { _progress = step } }
    public var isCancelled: Bool { stop.isStopped }
    /// Esc: returns at once (the kill's grace period runs on its own thread).
    public func cancel() { stop.stop() }
    /// Set once the work has returned.
    public var outcome: Outcome? { locked { _outcome } }

    /// What the status bar says meanwhile.
    var statusLine: String { progress + (isCancelled ? " (stopping…)" : " (Esc stops)") }

    /// Starts the work on its own thread, once.
    public func start() {
        let first = locked { () -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        Thread.detachNewThread { [self] in
            let o = work(self)
            locked { _outcome = o }
        }
    }

    /// Runs the work on this thread (tests; the outcome is then ready).
    func runHere() {
        let o = work(self)
        locked { _outcome = o }
    }
}

extension ConsoleApp {
    func startGitJob(_ job: GitJob) {
        gitJob = job
        message = job.statusLine
    }

    /// The running job's outcome, once it is in: the app reads the store and git again (a
    /// sync changes files) and applies what the job's asker makes of it. False while it runs.
    @discardableResult
    public func finishGitJob() -> Bool {
        guard let job = gitJob, let outcome = job.outcome else { return false }
        gitJob = nil
        message = nil
        // Conflicts open the resolve view: the rebase they leave is not asked about again.
        if case .conflicts = outcome { rebaseOffered = true }
        if !loading { reload() }
        for s in stack { s.willAppear(app: self) }
        apply(job.done(outcome, self))
        settle()
        return true
    }

    /// The root of the store as a URL (git runs there).
    var storeURL: URL { URL(fileURLWithPath: store.root) }

    /// A sync, its progress in the status bar; conflicts open the first conflicted record.
    func syncJob() -> GitJob {
        let root = storeURL
        return GitJob("Syncing…") { job in
            GitTeamWork.sync(store: root, progress: job.report, stop: job.stop)
        } done: { outcome, app in
            app.syncAnswer(outcome)
        }
    }

    /// Finishing the rebase a sync left (after the last conflict is resolved, or at start).
    func finishRebaseJob() -> GitJob {
        let root = storeURL
        return GitJob("Finishing the sync…") { job in
            GitTeamWork.finishRebase(store: root, progress: job.report, stop: job.stop)
        } done: { outcome, app in
            app.syncAnswer(outcome)
        }
    }

    func syncAnswer(_ outcome: GitJob.Outcome) -> Effect {
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

/// The console's git questions: an interrupted sync found at start (a rebase half-way).
final class GitOffer: Asking {
    enum Reply {
        case finish, abort, later
    }

    static func ask(_ app: ConsoleApp) -> Effect {
        let offer = GitOffer()
        app.gitOffer = offer
        return .ask(
            offer,
            .buttons(
                "Sync interrupted",
                "A sync stopped half-way: git is rebasing (`git status` says so).\nFinish it (resolve what conflicts, then push) or abort it (back to your commits as they were)?",
                [("Finish", .finish), ("Abort", .abort), ("Later", .later)], focus: 0, cancel: .later))
    }

    func answer(_ reply: Reply, app: ConsoleApp) -> Effect {
        app.gitOffer = nil
        switch reply {
        case .finish: return .git(app.finishRebaseJob())
        case .abort:
            let root = app.storeURL
            return .git(
                GitJob("Aborting the rebase…") { _ in
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
