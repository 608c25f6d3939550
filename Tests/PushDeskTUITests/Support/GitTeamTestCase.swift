import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Console tests on real git: a bare remote and two clones (A and B) of a demo store, made
/// in a temp directory, each with its own identity and the merge driver of the built
/// `pushdesk` (as `git-setup` installs it). The process's git sees a private HOME and no
/// system config while a test runs, so the operator's own settings never leak in.
class GitTeamTestCase: XCTestCase {
    var root: URL!
    var remote: URL!
    var a: URL!
    var b: URL!
    private var savedEnv: [String: String?] = [:]

    static var binary: String { packageRoot.appendingPathComponent(".build/debug/pushdesk").path }

    override func setUp() async throws {
        guard GitCommand.executable() != nil else { throw XCTSkip("git is not installed (make test installs it)") }
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw TerminalHarnessError(
                message: "the pushdesk binary is not built (the merge driver runs it); run `swift build` first")
        }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-\(Self.self)-\(UUID().uuidString)")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for (k, v) in [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
        ] {
            savedEnv[k] = ProcessInfo.processInfo.environment[k]
            setenv(k, v, 1)
        }
        remote = root.appendingPathComponent("remote.git")
        a = root.appendingPathComponent("a")
        b = root.appendingPathComponent("b")
        try git(root, ["init", "-q", "--bare", "-b", "main", remote.path])
        try DemoStore.write(to: a)
        try git(a, ["init", "-q", "-b", "main"])
        try identify(a, "Operator A")
        _ = try GitSetup.setUp(store: a, binary: Self.binary)
        try git(a, ["add", "-A"])
        try git(a, ["commit", "-q", "-m", "The demo store"])
        try git(a, ["remote", "add", "origin", remote.path])
        try git(a, ["push", "-q", "-u", "origin", "main"])
        try git(root, ["clone", "-q", remote.path, b.path])
        try identify(b, "Operator B")
        _ = try GitSetup.setUp(store: b, binary: Self.binary)
    }

    override func tearDown() async throws {
        for (k, v) in savedEnv {
            if let v { setenv(k, v, 1) } else { unsetenv(k) }
        }
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    @discardableResult
    func git(_ dir: URL, _ args: [String]) throws -> GitCommand.Result {
        try GitCommand(directory: dir).check(args)
    }

    func identify(_ dir: URL, _ name: String) throws {
        try git(dir, ["config", "user.name", name])
        try git(
            dir, ["config", "user.email", name.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.com"])
    }

    /// A console on a clone, its git state read as the run loop would (in place here).
    func console(_ clone: URL) -> ConsoleApp {
        let app = ConsoleApp(store: .open(Store(root: clone), access: .unlocked()), access: .unlocked())
        app.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        app.resize(width: 80, height: 24)
        app.readGit()
        return app
    }

    /// Edits a service in a clone as another tool would (a save through the store).
    func editService(_ clone: URL, _ change: (inout Service) -> Void) throws {
        let store = Store(root: clone)
        var s = try store.load(Service.self, "neotrips")
        change(&s)
        try store.save(s)
    }

    func read(_ clone: URL, _ path: String) throws -> String {
        try String(contentsOf: clone.appendingPathComponent(path), encoding: .utf8)
    }

    /// The screen's lines, trailing spaces dropped.
    func lines(_ app: ConsoleApp) -> [String] {
        let b = app.render(width: 80, height: 24)
        return (0..<b.height).map {
            b.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}

extension ConsoleApp {
    /// Reads the git state in place (the run loop reads it on a worker).
    func readGit() {
        state.gitStatusWanted = false
        finishGitStatus(GitStatus.read(store: URL(fileURLWithPath: store.root)))
    }

    /// Waits for the running git job (at most 60 s) and applies its outcome, as the run loop
    /// does, then reads git again.
    func runGitJob(file: StaticString = #filePath, line: UInt = #line) {
        guard foregroundJob != nil else { return XCTFail("no git job is running", file: file, line: line) }
        let deadline = Date().addingTimeInterval(60)
        while foregroundJob != nil, Date() < deadline {
            takeJobEvents()
            usleep(2_000)
        }
        XCTAssertNil(foregroundJob, "the git job still runs after 60 s", file: file, line: line)
        readGit()
        waitForGitReads(file: file, line: line)
    }

    /// Lets the views take what git read off the loop (a history, a diff's versions, a
    /// conflict), as the run loop does between keys; at most 60 s.
    func waitForGitReads(file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(60)
        while jobs.isBusy, Date() < deadline {
            takeJobEvents()
            usleep(5_000)
        }
        takeJobEvents()
        XCTAssertFalse(jobs.isBusy, "git reads still running after 60 s", file: file, line: line)
    }
}
