import Foundation

/// Stops a send or a connection check from another thread (the console's Esc): every wait
/// the transport is blocked in — connect, proxy CONNECT, TLS handshake, a response, a
/// retry's back-off — ends at once with a `cancelled` TransportError, and the connections
/// opened under it are closed, so the worker thread finishes now instead of at its time-outs.
/// One handle per job; cancelling is final.
public final class TransportCancellation: @unchecked Sendable {
    private let condition = NSCondition()
    private var cancelled = false
    private var actions: [Int: @Sendable () -> Void] = [:]
    private var nextId = 0

    public init() {}

    public var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Runs every registered action once (outside the lock) and wakes a back-off sleep.
    public func cancel() {
        condition.lock()
        guard !cancelled else { return condition.unlock() }
        cancelled = true
        let run = actions.sorted { $0.key < $1.key }.map(\.value)
        actions = [:]
        condition.broadcast()
        condition.unlock()
        for action in run { action() }
    }

    /// Registers `action` for a cancel; runs it at once (and returns nil) when already cancelled.
    func onCancel(_ action: @escaping @Sendable () -> Void) -> Int? {
        condition.lock()
        if cancelled {
            condition.unlock()
            action()
            return nil
        }
        nextId += 1
        let id = nextId
        actions[id] = action
        condition.unlock()
        return id
    }

    func remove(_ id: Int?) {
        guard let id else { return }
        condition.lock()
        actions[id] = nil
        condition.unlock()
    }

    /// Waits `seconds`, or less when cancelled meanwhile.
    public func sleep(_ seconds: TimeInterval) {
        let until = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, condition.wait(until: until) {}
    }

    /// Throws the cancelled error of `step` once cancelled.
    func check(_ step: TransportError.Step, _ what: String) throws {
        if isCancelled { throw TransportError.cancelled(step, what) }
    }
}

extension TransportError {
    /// Esc (or another caller) stopped the work during `step`.
    static func cancelled(_ step: Step, _ what: String) -> TransportError {
        TransportError(step, "cancelled while \(what): stopped by the operator", cancelled: true)
    }
}
