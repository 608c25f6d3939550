import CStopSignal
import Foundation
import PushDeskCore

/// Work off the input loop — reading the store, a git status, history or sync, a send, a
/// connection check: the one way the console runs anything that could keep a key waiting.
/// A view or the app answers with `.run(job)`; the job runs on its own thread and posts its
/// progress and events into the app's `JobQueue`, which wakes the run loop; the loop hands
/// each to the job's receiver on its own thread, so the app still changes on one thread
/// only and a key or a resize during the work is answered at once.
///
/// One cancellation path: `cancel()` (Esc, the view leaving the stack, a quit or a hang-up)
/// ends the job's network waits (`cancellation`) and its git child (`gitStop`: a fetch or a
/// push is killed, any other step is let finish), and drops what it reports later — except
/// a foreground job's result, which says how it stopped.
public final class Job: @unchecked Sendable {
    public enum Kind: Sendable {
        /// The app's own work (loading the store, reading git's state): nothing shows it.
        case background
        /// Work the operator waits for (a commit, a sync): its progress is the status line,
        /// keys wait, Esc stops it, and its result always arrives (`.cancelled` included).
        case foreground
        /// A view's work (a send, a check, a git read): it belongs to the view that ran it and
        /// is cancelled when the view leaves the stack; after that nothing of it arrives.
        case view
    }

    /// What a job posts, as the receiver gets it on the run loop. The values themselves
    /// travel typed in the job's `Mailbox`, never as `any Sendable`: no cast can drop one.
    enum Event {
        case progress
        /// The next value the work posted (taken from the mailbox in order).
        case value
        /// The work returned.
        case result
    }

    let kind: Kind
    /// The view whose job it is (`.view` jobs): cancelled when it leaves the stack.
    let owner: ObjectIdentifier?
    /// Ends the job's transport waits and connections on cancel.
    public let cancellation = TransportCancellation()
    /// Kills the job's running git fetch or push on cancel.
    public let gitStop = GitStop()
    private let lock = NSLock()
    private var _progress: String
    private var _cancelled = false
    private var _result: (any Sendable)?
    private weak var queue: JobQueue?
    /// Runs the work and keeps its result in the mailbox; returns it for `result`.
    private let body: @Sendable (Job) -> any Sendable
    /// On the run loop's thread only.
    let receive: (Event, AppContext) -> Effect

    private init(
        kind: Kind, owner: AnyObject?, progress: String, body: @escaping @Sendable (Job) -> any Sendable,
        receive: @escaping (Event, AppContext) -> Effect
    ) {
        self.kind = kind
        self.owner = owner.map(ObjectIdentifier.init)
        _progress = progress
        self.body = body
        self.receive = receive
    }

    /// A job that posts `Value`s while it works and ends with a `Result`; `onEvent` and
    /// `onResult` run on the run loop and answer with an effect the app applies.
    static func make<Value: Sendable, Result: Sendable>(
        _ kind: Kind, owner: AnyObject? = nil, progress: String = "",
        work: @escaping @Sendable (JobContext<Value>) -> Result,
        onEvent: @escaping (Value, AppContext) -> Effect,
        onResult: @escaping (Result, AppContext) -> Effect
    ) -> Job {
        // The work and the receiver share one typed mailbox: what `post` puts in, a `.value`
        // event takes out, in order; the result likewise.
        let mailbox = Mailbox<Value, Result>()
        return Job(
            kind: kind, owner: owner, progress: progress,
            body: { job in
                let r = work(JobContext(job: job, put: mailbox.put))
                mailbox.finish(r)
                return r
            },
            receive: { event, app in
                switch event {
                case .progress: return .none
                case .value: return mailbox.takeValue().map { onEvent($0, app) } ?? .none
                case .result: return mailbox.result.map { onResult($0, app) } ?? .none
                }
            })
    }

    /// A job that only ends with a `Result` (and may report progress).
    static func make<Result: Sendable>(
        _ kind: Kind, owner: AnyObject? = nil, progress: String = "",
        work: @escaping @Sendable (JobContext<Never>) -> Result,
        onResult: @escaping (Result, AppContext) -> Effect
    ) -> Job {
        let mailbox = Mailbox<Never, Result>()
        return Job(
            kind: kind, owner: owner, progress: progress,
            body: { job in
                let r = work(JobContext(job: job, put: mailbox.put))
                mailbox.finish(r)
                return r
            },
            receive: { event, app in
                guard case .result = event, let r = mailbox.result else { return .none }
                return onResult(r, app)
            })
    }

    private func locked<T>(_ f: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return f()
    }

    /// The step running now (`Fetching from origin…`).
    public var progress: String { locked { _progress } }
    public var isCancelled: Bool { locked { _cancelled } }
    /// What the work returned, once it has.
    public var result: (any Sendable)? { locked { _result } }

    /// What the status bar says while a foreground job runs.
    public var statusLine: String { progress + (isCancelled ? " (stopping…)" : " (Esc stops)") }

    /// Stops the job: returns at once (a git child's grace period runs on its own thread).
    public func cancel() {
        let first = locked { () -> Bool in
            defer { _cancelled = true }
            return !_cancelled
        }
        guard first else { return }
        cancellation.cancel()
        gitStop.stop()
        queue?.cancelled(self)
    }

    func report(_ step: String) {
        locked { _progress = step }
        queue?.post(self, .progress)
    }

    /// A value is in the mailbox: its event wakes the loop.
    fileprivate func posted() { queue?.post(self, .value) }

    /// Runs the work on a new thread (once), posting its result to `queue` when it returns.
    func start(in queue: JobQueue) {
        let first = locked { () -> Bool in
            guard self.queue == nil else { return false }
            self.queue = queue
            return true
        }
        guard first else { return }
        Thread.detachNewThread { [self] in
            let r = body(self)
            locked { _result = r }
            queue.finished(self)
        }
    }
}

/// What a job's work sees of it on its thread: post events, report progress, check for a
/// cancel, and the cancellation the core's transport and git steps take.
struct JobContext<Value: Sendable>: Sendable {
    let job: Job
    /// Puts a value into the job's typed mailbox.
    fileprivate let put: @Sendable (Value) -> Void
    func post(_ value: Value) {
        put(value)
        job.posted()
    }
    /// The step running now (a foreground job shows it in the status line).
    func report(_ step: String) { job.report(step) }
    var isCancelled: Bool { job.isCancelled }
    var cancellation: TransportCancellation { job.cancellation }
    var gitStop: GitStop { job.gitStop }
}

/// What a job's work posted and returned, kept typed between its thread and the run loop:
/// each `.value` event takes the oldest value, the `.result` event the result.
private final class Mailbox<Value: Sendable, Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    private var first = 0
    private var _result: Result?

    private func locked<T>(_ f: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return f()
    }

    @Sendable func put(_ value: Value) { locked { values.append(value) } }
    func finish(_ r: Result) { locked { _result = r } }
    var result: Result? { locked { _result } }

    /// The oldest value not taken yet.
    func takeValue() -> Value? {
        locked {
            guard first < values.count else { return nil }
            defer {
                first += 1
                if first == values.count { (values, first) = ([], 0) }
            }
            return values[first]
        }
    }
}

/// The one event queue jobs post into; the run loop sleeps until it (or a key, a signal, a
/// resize) wakes it, then `ConsoleApp.takeJobEvents` hands the events to their receivers.
public final class JobQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [(Job, Job.Event)] = []
    /// A few at most; an array, not a dictionary keyed by `ObjectIdentifier`, whose first
    /// use costs the start a conformance scan (docs/PERFORMANCE.md).
    private var running: [Job] = []

    public init() {}

    /// Jobs whose work has not returned yet.
    public var runningJobs: Int { locked { running.count } }
    /// True while a job runs or its events wait to be taken.
    public var isBusy: Bool { locked { !running.isEmpty || !events.isEmpty } }
    /// The jobs running now.
    var jobs: [Job] { locked { running } }

    private func locked<T>(_ f: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return f()
    }

    func start(_ job: Job) {
        locked { running.append(job) }
        job.start(in: self)
    }

    func post(_ job: Job, _ event: Job.Event) {
        let kept = locked { () -> Bool in
            guard !(job.isCancelled && job.kind != .foreground) else { return false }
            events.append((job, event))
            return true
        }
        if kept { pd_wake() }
    }

    /// The work returned: it stops counting as running and its result is queued at once
    /// (dropped for a cancelled view or background job), so no job is ever neither.
    func finished(_ job: Job) {
        locked {
            running.removeAll { $0 === job }
            if !(job.isCancelled && job.kind != .foreground) { events.append((job, .result)) }
        }
        pd_wake()
    }

    /// A cancelled view or background job's events waiting to be taken are dropped.
    func cancelled(_ job: Job) {
        guard job.kind != .foreground else { return }
        locked { events.removeAll { $0.0 === job } }
    }

    /// Everything posted since the last call, in order.
    func take() -> [(Job, Job.Event)] {
        locked {
            defer { events = [] }
            return events
        }
    }

    /// The jobs of a view that left the stack.
    func cancel(ownedBy owner: AnyObject) {
        let id = ObjectIdentifier(owner)
        for j in jobs where j.owner == id { j.cancel() }
    }

    /// A quit or a hang-up: nothing runs on as an orphan.
    public func cancelAll() { for j in jobs { j.cancel() } }
}
