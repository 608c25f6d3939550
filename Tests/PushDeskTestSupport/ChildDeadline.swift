import Foundation

/// A child process of a test that outlived its deadline: killed, and the test fails with
/// what the child had written.
public struct ChildDeadlineExceeded: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The deadline of a child process when the test names none: far beyond any quiet run
/// (seconds at most), so only a hung child reaches it, and well inside CI's limit.
public let defaultChildDeadline: TimeInterval = 120

extension Process {
    /// Waits for the child to exit, `seconds` at most; past that kills it (SIGTERM, then
    /// SIGKILL a second later) and throws with `output()` — what it wrote so far.
    public func waitUntilExit(
        within seconds: TimeInterval = defaultChildDeadline, output: () -> String = { "" }
    ) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(2_000) }
        guard isRunning else { return waitUntilExit() }
        kill(processIdentifier, SIGTERM)
        let grace = Date().addingTimeInterval(1)
        while isRunning, Date() < grace { usleep(2_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
        let name = ([executableURL?.lastPathComponent ?? "?"] + (arguments ?? [])).joined(separator: " ")
        throw ChildDeadlineExceeded(
            "\(name) did not finish within \(Int(seconds)) s and was killed; its output:\n\(output())")
    }
}

/// Bytes read from a pipe on a worker until its end, readable at any time (a killed child's
/// partial output).
public final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.lock.lock()
                self.data.append(chunk)
                self.lock.unlock()
            }
            self.done.signal()
        }
    }

    /// Waits for the end of the pipe, `seconds` at most (a grandchild may still hold it),
    /// and returns what was read.
    public func finish(within seconds: TimeInterval = 10) -> Data {
        if done.wait(timeout: .now() + seconds) == .success { done.signal() }
        return current
    }

    public var current: Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }

    public var text: String { String(decoding: current, as: UTF8.self) }
}
