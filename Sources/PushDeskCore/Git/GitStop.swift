import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Stops a running `git` on request (Esc during a fetch or a push that hangs on the network).
/// Each git child runs in its own process group (Foundation's `Process` makes it the
/// leader), so the whole group is signalled — git and what it started (ssh, a remote
/// helper): SIGTERM, which git answers by removing its lock files, then SIGKILL if the
/// group is still there after `grace`. A group is signalled only while `GitCommand.run`
/// still waits for its leader, so the id is still that child's.
public final class GitStop: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var running: pid_t?
    /// How long git has to leave after SIGTERM before SIGKILL.
    public let grace: TimeInterval

    public init(grace: TimeInterval = 2) { self.grace = grace }

    public var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Asks the running child (and any started later) to stop; returns at once.
    public func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        let pid = running
        lock.unlock()
        guard first, let pid else { return }
        terminate(pid)
    }

    /// A child started: stopped already, it is signalled at once.
    func started(_ pid: pid_t) {
        lock.lock()
        running = pid
        let now = stopped
        lock.unlock()
        if now { terminate(pid) }
    }

    /// The child was reaped: its group id is no longer ours to signal.
    func ended(_ pid: pid_t) {
        lock.lock()
        if running == pid { running = nil }
        lock.unlock()
    }

    private func isRunning(_ pid: pid_t) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return running == pid
    }

    private func terminate(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        let grace = grace
        Thread.detachNewThread { [self] in
            let deadline = Date().addingTimeInterval(grace)
            while Date() < deadline, isRunning(pid) { usleep(20_000) }
            // Still waited for: the group id is still this child's, so nothing else is hit.
            lock.lock()
            if running == pid { kill(-pid, SIGKILL) }
            lock.unlock()
        }
    }
}
