import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Esc during a sync whose remote hangs: the fetch's git and what it started are
/// killed (their process group), the console answers at once and says so, and nothing is
/// lost — the unsaved draft is still open, the work tree and the commits as they were. The
/// remote is `ssh://127.0.0.1/…` through a GIT_SSH_COMMAND that records its pid and
/// sleeps: no connection is ever made.
final class GitEscStopsSyncTests: GitTeamTestCase {
    private var saved: [String: String?] = [:]

    override func tearDown() async throws {
        for (k, v) in saved {
            if let v { setenv(k, v, 1) } else { unsetenv(k) }
        }
        try await super.tearDown()
    }

    private func set(_ k: String, _ v: String) {
        if saved[k] == nil { saved[k] = .some(ProcessInfo.processInfo.environment[k]) }
        setenv(k, v, 1)
    }

    /// Whether a process is still there (a zombie nobody reaped counts as gone).
    private func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    func testEscKillsAHangingFetchAndLosesNothing() throws {
        let pids = root.appendingPathComponent("ssh.pids")
        let ssh = root.appendingPathComponent("hanging-ssh")
        // The "ssh" git starts for the fetch: its own pid and its parent's (git's side), then it hangs.
        try Data("#!/bin/sh\necho \"$$ $PPID\" >> '\(pids.path)'\nexec sleep 60\n".utf8).write(to: ssh)
        chmod(ssh.path, 0o755)
        set("GIT_SSH_COMMAND", ssh.path)
        set("GIT_SSH_VARIANT", "simple")
        try git(a, ["remote", "set-url", "origin", "ssh://127.0.0.1/remote.git"])
        try editService(a) { $0.label = "Neotrips (A)" }
        try git(a, ["commit", "-q", "-am", "A"])
        let head = try git(a, ["rev-parse", "HEAD"]).output

        let app = console(a)
        app.press(.open)
        app.focus(field: "marketingUrl")
        app.press(.lineEnd)
        app.press(.deleteToStart)
        app.type("https://draft.example/")
        app.press(.deliveries)
        app.press(.sync)
        let job = try XCTUnwrap(app.foregroundJob)
        // Bounded wait for the hanging "ssh" to start.
        let deadline = Date().addingTimeInterval(60)
        while (try? String(contentsOf: pids, encoding: .utf8))?.isEmpty ?? true, Date() < deadline {
            usleep(20_000)
        }
        let started = try String(contentsOf: pids, encoding: .utf8).split(whereSeparator: \.isWhitespace)
            .compactMap { Int32($0) }
        XCTAssertEqual(started.count, 2)
        XCTAssertTrue(started.allSatisfy(alive))
        XCTAssertEqual(job.statusLine, "Fetching from origin… (Esc stops)")

        let pressed = Date()
        app.handle(.escape)
        // Esc asks the fetch to stop and returns (milliseconds when quiet) without waiting
        // for it: the hanging "ssh" sleeps 60 s, and is still there when Esc has returned.
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 5, "Esc waited")
        XCTAssertEqual(app.message, "Fetching from origin… (stopping…)")
        // SIGTERM ends the group at once; SIGKILL would come after 2 s. Bounded at 10 s.
        while job.result == nil, Date().timeIntervalSince(pressed) < 10 { usleep(20_000) }
        XCTAssertEqual(job.result as? GitOutcome, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 3, "the fetch outlived its kill")
        while app.jobs.runningJobs > 0, Date().timeIntervalSince(pressed) < 10 { usleep(5_000) }
        XCTAssertTrue(app.takeJobEvents())
        app.readGit()
        XCTAssertEqual(
            app.message,
            "Sync stopped (Esc): git was interrupted, nothing was lost; `git status` tells where it stands, S syncs again."
        )
        // Nothing left running of the fetch.
        while started.contains(where: alive), Date().timeIntervalSince(pressed) < 10 { usleep(20_000) }
        XCTAssertEqual(started.filter(alive), [], "processes of the fetch still running")
        // Nothing lost: the draft, the commit, the work tree.
        XCTAssertNil(app.dialog)
        app.press(.back)
        XCTAssertEqual((app.top.session as? ServiceSession)?.draft.marketingUrl, "https://draft.example/")
        XCTAssertEqual(app.top.session?.isDirty, true)
        XCTAssertEqual(try git(a, ["rev-parse", "HEAD"]).output, head)
        XCTAssertEqual(try git(a, ["status", "--porcelain"]).output, "")
        XCTAssertEqual(app.git?.rebasing, false)
        XCTAssertEqual(try Store(root: a).loadService("neotrips").label, "Neotrips (A)")
    }
}
