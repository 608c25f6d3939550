import Foundation

/// The CPU time the test process spent in `body` (every thread: work may run in parallel),
/// in seconds, with its result. Work, not wall time: other processes loading the machine
/// do not add to it, so a limit on it checks how much a piece of code computes (this
/// machine has no hardware instruction counter to count operations with). Speed targets
/// are `make bench`'s.
public func cpuSeconds<T>(_ body: () throws -> T) rethrows -> (seconds: Double, value: T) {
    func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
    let start = now()
    let value = try body()
    return (now() - start, value)
}
