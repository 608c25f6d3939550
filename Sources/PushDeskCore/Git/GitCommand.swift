import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the `git` command as operators run it (docs/TEAMS.md: history, push and pull are git's),
/// in one directory, and collects its output. The environment is the operator's, so git
/// finds their configuration, identity and credentials helpers; messages are asked for in
/// the C locale so that what PushDesk reads back does not depend on a translation.
public struct GitCommand: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// stdout without its final newline.
        public var output: String { stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout }
    }

    /// git failed: the command (without secrets: PushDesk never passes one) and what it said.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var arguments: [String]
        public var result: Result
        public var description: String {
            let said = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return "git \(arguments.joined(separator: " ")) failed (exit \(result.status))"
                + (said.isEmpty ? "" : ": " + Escape.inline(said, limit: 400))
        }
    }

    public let directory: URL
    /// Added to the inherited environment (e.g. an author identity).
    public var environment: [String: String] = [:]
    /// Stops the command that runs when asked (Esc during a fetch or push); nil: never stopped.
    public var stop: GitStop?

    public init(directory: URL, environment: [String: String] = [:], stop: GitStop? = nil) {
        self.directory = directory
        self.environment = environment
        self.stop = stop
    }

    /// The `git` program on PATH; nil when git is not installed.
    public static func executable() -> String? {
        ChildProcess.locate("git", searchPath: ProcessEnvironment.read()["PATH"])
    }

    /// Runs `git ARGUMENTS` in the directory; any exit status is returned.
    public func run(_ arguments: [String]) throws -> Result {
        guard let git = Self.executable() else {
            throw StoreError(file: directory.path, "git is not installed (no `git` on PATH); install git", kind: .io)
        }
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessEnvironment.read()
        env["LC_ALL"] = "C"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        let pid = process.processIdentifier
        stop?.started(pid)
        defer { stop?.ended(pid) }
        let errBox = GitOutputBox()
        let group = DispatchGroup()
        let errHandle = errPipe.fileHandleForReading
        DispatchQueue.global().async(group: group) { errBox.data = errHandle.readDataToEndOfFile() }
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self))
    }

    /// Runs `git ARGUMENTS` and throws `Failure` unless it exits 0.
    @discardableResult
    public func check(_ arguments: [String]) throws -> Result {
        let r = try run(arguments)
        guard r.status == 0 else { throw Failure(arguments: arguments, result: r) }
        return r
    }
}

private final class GitOutputBox: @unchecked Sendable { var data = Data() }
