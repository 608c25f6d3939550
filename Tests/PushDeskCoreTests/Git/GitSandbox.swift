import Foundation
import XCTest

@testable import PushDeskCore

/// Real git for the team tests: a temp directory with its own HOME (no operator config
/// leaks in), every command bounded in time, identities set per repository.
final class GitSandbox {
    let root: URL
    let environment: [String: String]

    init(_ test: XCTestCase) throws {
        guard GitCommand.executable() != nil else { throw XCTSkip("git is not installed (make test installs it)") }
        root = try makeTempDir(test, "git")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_EDITOR": "true",
            "LC_ALL": "C",
        ]
    }

    func url(_ name: String) -> URL { root.appendingPathComponent(name) }

    /// `git ARGS` in `dir`; fails the test when the exit status is not `expect` (nil: any).
    @discardableResult
    func git(_ dir: URL, _ args: [String], expect: Int32? = 0, file: StaticString = #filePath, line: UInt = #line)
        throws -> CommandResult
    {
        let r = try runBounded("/usr/bin/env", ["git"] + args, in: dir, environment: environment)
        if let expect, r.status != expect {
            XCTFail(
                "git \(args.joined(separator: " ")) exited \(r.status): \(r.stderr)\(r.stdout)", file: file, line: line)
        }
        return r
    }

    /// The built `pushdesk` binary in `dir`.
    func pushdesk(_ args: [String], in dir: URL? = nil, environment extra: [String: String] = [:]) throws
        -> CommandResult
    {
        let binary = try builtPushDesk()
        return try runBounded(
            binary.path, args, in: dir ?? root, environment: environment.merging(extra) { $1 })
    }

    static var binaryPath: String { packageRoot.appendingPathComponent(".build/debug/pushdesk").path }

    /// A repository's identity (tests never rely on the machine's).
    func identify(_ dir: URL, _ name: String) throws {
        try git(dir, ["config", "user.name", name])
        try git(
            dir, ["config", "user.email", name.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.com"])
    }

    func read(_ dir: URL, _ path: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8)
    }
}

/// Runs a program with a deadline: killed (and the test failed by the caller's checks) when
/// it outlives `timeout` seconds, so a hung git or server never hangs the suite.
func runBounded(
    _ path: String, _ arguments: [String], in directory: URL, environment: [String: String],
    timeout: TimeInterval = 30
) throws -> CommandResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    p.currentDirectoryURL = directory
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    final class Box: @unchecked Sendable { var data = Data() }
    let outBox = Box()
    let errBox = Box()
    let group = DispatchGroup()
    try p.run()
    DispatchQueue.global().async(group: group) { outBox.data = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning, Date() < deadline { usleep(2_000) }
    if p.isRunning {
        p.terminate()
        p.waitUntilExit()
        _ = group.wait(timeout: .now() + 5)
        return CommandResult(status: -1, stdout: "", stderr: "timed out after \(timeout) s: \(path) \(arguments)")
    }
    p.waitUntilExit()
    _ = group.wait(timeout: .now() + 5)
    return CommandResult(
        status: p.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
        stderr: String(decoding: errBox.data, as: UTF8.self))
}
