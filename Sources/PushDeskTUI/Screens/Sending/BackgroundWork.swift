import Foundation
import PushDeskCore

/// Work off the input loop (a connection check, a send): it runs on its own thread and puts
/// what it finds into its view's `Mailbox`; the run loop sees there is news between keys
/// (`ConsoleApp.drainBackground`) and settles the views, which take their mail on the run
/// loop's thread — so the app still changes on one thread only, and a key or a resize
/// during the work is answered at once. Esc cancels a job through its mailbox: nothing it
/// reports reaches the screen any more, and its `TransportCancellation` closes its
/// connections and ends its waits, so the thread finishes at once (docs/SENDING.md).
public final class BackgroundWork: @unchecked Sendable {
    private let lock = NSLock()
    private var running = 0
    private var news = false
    /// The environment jobs read their transport settings from (PUSHDESK_*_URL,
    /// PUSHDESK_CA_FILE, proxies: docs/SENDING.md); tests point it at a loopback server.
    public var environment: [String: String] = ProcessInfo.processInfo.environment

    public init() {}

    /// True while a job runs or its news waits: the run loop then wakes often.
    public var isBusy: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running > 0 || news
    }

    /// Jobs whose thread has not finished yet.
    public var runningJobs: Int {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    /// Runs `work` on a new thread.
    func start(_ work: @escaping @Sendable () -> Void) {
        lock.lock()
        running += 1
        lock.unlock()
        Thread.detachNewThread { [self] in
            work()
            lock.lock()
            running -= 1
            news = true
            lock.unlock()
        }
    }

    func notify() {
        lock.lock()
        news = true
        lock.unlock()
    }

    func takeNews() -> Bool {
        lock.lock()
        defer {
            news = false
            lock.unlock()
        }
        return news
    }
}

/// Events from a job to its view, taken on the run loop's thread.
final class Mailbox<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [Event] = []
    private var cancelled = false
    private let work: BackgroundWork
    /// The job's transport waits, ended by `cancel`.
    let cancellation: TransportCancellation

    init(_ work: BackgroundWork, cancellation: TransportCancellation = TransportCancellation()) {
        self.work = work
        self.cancellation = cancellation
    }

    /// From the job's thread; dropped once the view cancelled.
    func put(_ e: Event) {
        lock.lock()
        if !cancelled { events.append(e) }
        lock.unlock()
        work.notify()
    }

    func take() -> [Event] {
        lock.lock()
        defer {
            events = []
            lock.unlock()
        }
        return events
    }

    /// Esc: the job's later events are dropped and its network work stops now.
    func cancel() {
        lock.lock()
        cancelled = true
        events = []
        lock.unlock()
        cancellation.cancel()
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}

extension ConsoleApp {
    /// Lets the views take what background jobs reported since the last call; true when
    /// there was news (the runner then draws a frame).
    @discardableResult
    public func drainBackground() -> Bool {
        guard background.takeNews() else { return false }
        settle()
        return true
    }
}
