import Foundation
import PushDeskCore
import XCTest

/// The built binary in a real terminal on a clone of a team store: edit, commit and sync
/// through the console's keys, the git work running off the input loop (docs/TEAMS.md).
final class TmuxGitTests: GitTeamTestCase {
    func testEditCommitAndSyncInARealTerminal() throws {
        _ = try TmuxHarness.requirements()
        let env = ["HOME": root.appendingPathComponent("home").path, "GIT_CONFIG_NOSYSTEM": "1"]
        let t = try TmuxHarness(width: 100, height: 30, args: ["--store", a.path], env: env)
        // The title gets the branch once the worker has read git; the first frame did not wait.
        t.waitFor("Services [main]")
        t.keys("Enter")
        t.waitFor("Marketing URL")
        t.focus(field: "Label")
        t.keys("End")
        t.type(" (A)")
        t.keys("C-s")
        t.waitFor("Saved services/neotrips.xml")
        t.keys("Escape")
        t.waitUntil("the record changed") { $0.contains("Neotrips (A)") && $0.contains("changed") }
        t.type("C")
        t.waitFor("Commit [main]")
        t.type("c")
        t.waitFor("Message for 1 record")
        t.type("Label from A")
        t.keys("Enter")
        t.waitUntil("the commit") { $0.contains("Committed ") && $0.contains("[main ↑1]") }
        t.type("S")
        t.waitUntil("the sync") { $0.contains("Synced: pushed 1 commit") && $0.contains("Services [main]") }
        XCTAssertEqual(try git(remote, ["log", "-1", "--format=%an|%s", "main"]).output, "Operator A|Label from A")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// Esc during a sync whose remote hangs, in a real terminal: the status bar says the fetch
    /// runs, Esc stops it at once (the hanging "ssh" git started is gone) and says so.
    func testEscStopsAHangingSyncInARealTerminal() throws {
        let (t, pid) = try startAHangingSync()
        t.keys("Escape")
        t.waitFor("Sync stopped (Esc)", timeout: 15)
        XCTAssertTrue(waitGone(pid), "the hanging ssh \(pid) is still running")
        t.type("j")
        t.waitFor("Services [main ↑1]")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// The SSH connection to the console drops during a sync: the console ends, and the
    /// fetch it started does not run on as an orphan.
    func testAHangUpDuringASyncStopsItsFetch() throws {
        let (t, pid) = try startAHangingSync()
        let console = try XCTUnwrap(t.consolePid())
        _ = try t.run(["kill-session", "-t", "pd"])  // the terminal is gone
        XCTAssertTrue(waitGone(console), "the console \(console) is still running")
        XCTAssertTrue(waitGone(pid), "the hanging ssh \(pid) runs on after the hang-up")
        XCTAssertEqual(
            try git(a, ["status", "--porcelain"]).stdout, "", "a hang-up mid-fetch leaves nothing to explain")
    }

    /// A zombie no one reaped counts as gone.
    private func waitGone(_ pid: Int32) -> Bool {
        func gone() -> Bool {
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).map { $0.contains(") Z ") } ?? true
        }
        let start = Date()
        while !gone(), Date().timeIntervalSince(start) < 30 { usleep(20_000) }
        return gone()
    }

    /// Clone A with a commit to push and an origin whose "ssh" hangs; S started, the fetch
    /// waiting. Returns the console and the hanging child's pid.
    private func startAHangingSync() throws -> (TmuxHarness, Int32) {
        _ = try TmuxHarness.requirements()
        let pids = root.appendingPathComponent("ssh.pids")
        let ssh = root.appendingPathComponent("hanging-ssh")
        try Data("#!/bin/sh\necho \"$$\" >> '\(pids.path)'\nexec sleep 60\n".utf8).write(to: ssh)
        chmod(ssh.path, 0o755)
        try git(a, ["remote", "set-url", "origin", "ssh://127.0.0.1/remote.git"])
        try editService(a) { $0.label = "Neotrips (A)" }
        try git(a, ["commit", "-q", "-am", "A"])
        let env = [
            "HOME": root.appendingPathComponent("home").path, "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_SSH_COMMAND": ssh.path, "GIT_SSH_VARIANT": "simple",
        ]
        let t = try TmuxHarness(width: 100, height: 30, args: ["--store", a.path], env: env)
        t.waitFor("Services [main ↑1]")
        t.type("S")
        t.waitFor("Fetching from origin… (Esc stops)")
        let deadline = Date().addingTimeInterval(60)
        while (try? String(contentsOf: pids, encoding: .utf8))?.isEmpty ?? true, Date() < deadline { usleep(20_000) }
        let pid = try XCTUnwrap(
            Int32(String(contentsOf: pids, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        return (t, pid)
    }
}
