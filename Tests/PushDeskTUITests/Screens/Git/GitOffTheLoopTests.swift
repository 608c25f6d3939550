import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Git never runs on the input loop (issue 16): with a `git` that sleeps before each command
/// (a wrapper first on PATH that sleeps, then runs the real one), the history, a version's
/// diff and a commit diff open at once saying "Loading…", answer keys and resizes while git
/// works, then show what it read.
final class GitOffTheLoopTests: GitTeamTestCase {
    private var savedPath: String?

    /// Puts a `git` that sleeps `seconds` before each command first on PATH (until tearDown).
    private func slowGit(seconds: Double) throws {
        let real = try XCTUnwrap(GitCommand.executable())
        let bin = root.appendingPathComponent("slow-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let wrapper = bin.appendingPathComponent("git")
        try Data("#!/bin/sh\nsleep \(seconds)\nexec '\(real)' \"$@\"\n".utf8).write(to: wrapper)
        chmod(wrapper.path, 0o755)
        savedPath = ProcessInfo.processInfo.environment["PATH"]
        setenv("PATH", bin.path + ":" + (savedPath ?? "/usr/bin:/bin"), 1)
    }

    override func tearDown() async throws {
        if let savedPath { setenv("PATH", savedPath, 1) }
        try await super.tearDown()
    }

    func testTheHistoryAnswersKeysWhileGitReadsItThenShowsTheList() throws {
        let app = console(a)
        try slowGit(seconds: 3)
        let pressed = Date()
        app.press(.history)
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 1.0, "the key waited for git")
        assertScreen(
            app,
            [
                " PushDesk — History of services/neotrips.xml [main]             ? help  default",
                "Commit    Date        Author             Subject",
                " Loading the history of services/neotrips.xml… (Esc goes back)",
            ] + Array(repeating: "", count: 20) + [
                " Enter diff  r restore  / filter  ? help  Ctrl-Q quit  Ctrl-F findings"
            ])
        // Keys are answered meanwhile: help opens and closes, a resize draws the new size.
        app.press(.help)
        XCTAssertTrue(app.helpVisible)
        app.handle(.escape)
        XCTAssertFalse(app.helpVisible)
        app.resize(width: 100, height: 30)
        let wide = app.render(width: 100, height: 30)
        XCTAssertTrue(wide.line(2).hasPrefix(" Loading the history"), wide.line(2))
        app.resize(width: 80, height: 24)
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 2.5, "keys waited for git")
        XCTAssertTrue(app.jobs.isBusy, "git answered before the keys were tried: the test proves nothing")
        app.waitForGitReads()
        let screen = lines(app)
        XCTAssertEqual(screen[2].prefix(10).count, 10)
        XCTAssertTrue(screen[2].contains("Operator A") && screen[2].hasSuffix("The demo store"), screen[2])
        XCTAssertEqual(screen[3], "")
    }

    func testAVersionsDiffAndACommitDiffLoadOffTheLoop() throws {
        try editService(a) { $0.label = "Neotrips A" }
        let app = console(a)
        app.press(.history)
        app.waitForGitReads()
        try slowGit(seconds: 1.5)
        let pressed = Date()
        app.press(.open)
        XCTAssertTrue(app.top is DiffScreen)
        XCTAssertTrue(lines(app)[2].contains("Loading…"), lines(app).joined(separator: "\n"))
        app.press(.down)
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 1.0, "keys waited for git")
        app.waitForGitReads()
        var text = lines(app).joined(separator: "\n")
        XCTAssertTrue(text.contains(#"+<service format="1" name="neotrips" label="Neotrips A" "#), text)
        // Esc during a load goes back at once; the answer that comes later is dropped.
        app.press(.back)
        app.press(.open)
        app.press(.back)
        XCTAssertTrue(app.top is HistoryScreen)
        app.press(.back)
        app.press(.commit)
        XCTAssertTrue(app.top is CommitScreen)
        app.press(.open)
        XCTAssertTrue(lines(app)[2].contains("Loading…"), lines(app).joined(separator: "\n"))
        app.waitForGitReads()
        text = lines(app).joined(separator: "\n")
        XCTAssertTrue(text.contains("- committed  + now"), text)
        XCTAssertTrue(text.contains(#"-<service format="1" name="neotrips" label="Neotrips" "#), text)
    }
}
