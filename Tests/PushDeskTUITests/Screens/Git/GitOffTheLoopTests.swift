import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Git never runs on the input loop: with a `git` held at a gate (a wrapper first on PATH
/// that waits until the test opens the gate, then runs the real one), the history, a
/// version's diff and a commit diff open at once saying "Loading…", answer keys and resizes
/// while git cannot have answered, then show what it read once the gate opens. Behaviour, not
/// time: a view that ran git on the loop would block until the gate opened (the wrapper
/// gives up after 60 s) and never show "Loading…".
final class GitOffTheLoopTests: GitTeamTestCase {
    /// A commit's short hash differs from run to run (it holds the time): masked.
    static let commits = [("\\b[0-9a-f]{7}\\b", "COMMIT!")]

    private var savedPath: String?
    private var gate: URL { root.appendingPathComponent("git-gate") }

    /// Puts a `git` that waits for the gate file before each command first on PATH (until
    /// tearDown); the gate starts closed.
    private func gatedGit() throws {
        let real = try XCTUnwrap(GitCommand.executable())
        let bin = root.appendingPathComponent("gated-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let wrapper = bin.appendingPathComponent("git")
        try Data(
            """
            #!/bin/sh
            i=0
            while [ ! -e '\(gate.path)' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
            exec '\(real)' "$@"

            """.utf8
        ).write(to: wrapper)
        chmod(wrapper.path, 0o755)
        closeGate()
        savedPath = ProcessInfo.processInfo.environment["PATH"]
        setenv("PATH", bin.path + ":" + (savedPath ?? "/usr/bin:/bin"), 1)
    }

    private func openGate() { _ = FileManager.default.createFile(atPath: gate.path, contents: Data()) }
    private func closeGate() { try? FileManager.default.removeItem(at: gate) }

    override func tearDown() async throws {
        openGate()
        if let savedPath { setenv("PATH", savedPath, 1) }
        try await super.tearDown()
    }

    func testTheHistoryAnswersKeysWhileGitReadsItThenShowsTheList() throws {
        let app = console(a)
        try gatedGit()
        app.press(.history)
        XCTAssertTrue(app.jobs.isBusy, "git is held at the gate: the history must still be loading")
        assertScreen(app, "theHistoryAnswersKeysWhileGitReadsItThenShowsTheList")
        // Keys are answered meanwhile: help opens and closes, a resize draws the new size.
        app.press(.help)
        XCTAssertTrue(app.helpVisible)
        app.handle(.escape)
        XCTAssertFalse(app.helpVisible)
        app.resize(width: 100, height: 30)
        let wide = app.render(width: 100, height: 30)
        XCTAssertTrue(wide.line(2).hasPrefix(" Loading the history"), wide.line(2))
        app.resize(width: 80, height: 24)
        XCTAssertTrue(app.jobs.isBusy, "git answered before the gate opened: the test proves nothing")
        openGate()
        app.waitForGitReads()
        let screen = lines(app)
        XCTAssertEqual(screen[2].prefix(10).count, 10)
        assertScreen(app, "historyLoaded", masks: Self.commits, machine: true)  // the commit, its author and subject
        XCTAssertEqual(screen[3], "")
    }

    func testAVersionsDiffAndACommitDiffLoadOffTheLoop() throws {
        try editService(a) { $0.label = "Neotrips A" }
        let app = console(a)
        app.press(.history)
        app.waitForGitReads()
        try gatedGit()
        app.press(.open)
        XCTAssertTrue(app.top is DiffScreen)
        assertScreen(app, "versionDiffLoading", masks: Self.commits, machine: true)
        app.press(.down)
        XCTAssertTrue(app.jobs.isBusy, "git is held at the gate: the diff must still be loading")
        openGate()
        app.waitForGitReads()
        assertScreen(app, "versionDiff", masks: Self.commits, machine: true)
        // Esc during a load goes back at once; the answer that comes later is dropped.
        closeGate()
        app.press(.back)
        app.press(.open)
        app.press(.back)
        XCTAssertTrue(app.top is HistoryScreen)
        app.press(.back)
        openGate()
        app.waitForGitReads()
        app.press(.commit)
        XCTAssertTrue(app.top is CommitScreen)
        app.waitForGitReads()
        closeGate()
        app.press(.open)
        assertScreen(app, "commitDiffLoading", masks: Self.commits, machine: true)
        XCTAssertTrue(app.jobs.isBusy, "git is held at the gate: the commit diff must still be loading")
        openGate()
        app.waitForGitReads()
        assertScreen(app, "views/gitCommitDiff", masks: Self.commits, machine: true)
    }
}
