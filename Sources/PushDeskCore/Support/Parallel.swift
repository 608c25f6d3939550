import Foundation

/// Independent work spread over the machine's cores, results in input order. Used where
/// a store's records are read or checked one by one (docs/PERFORMANCE.md).
enum Parallel {
    /// Below this many items one thread is faster than starting others.
    static let minimumItems = 64

    static func map<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
        // The item count first: asking for the cores reads sysfs, which a small store
        // (the console's start on the demo store) need not pay for.
        guard items.count >= minimumItems else { return items.map(transform) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1 else { return items.map(transform) }
        // A few chunks per core, so one slow chunk does not leave a core idle.
        let chunks = min(items.count, cores * 4)
        let results = ResultSlots<[R]>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let lo = items.count * c / chunks
            let hi = items.count * (c + 1) / chunks
            results.set(c, items[lo..<hi].map(transform))
        }
        return results.values.flatMap { $0 }
    }
}

/// One slot per chunk, each written by exactly one thread before `values` is read.
private final class ResultSlots<R>: @unchecked Sendable {
    private var slots: [R?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: R) {
        lock.lock()
        slots[i] = value
        lock.unlock()
    }
    var values: [R] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
