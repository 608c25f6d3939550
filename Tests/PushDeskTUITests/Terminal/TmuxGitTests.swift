import Foundation
import PushDeskCore
import XCTest

/// The built binary in a real terminal on a clone of a team store: edit, commit and sync
/// through the console's keys, the git work running off the input loop (SPEC §10.3).
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
}
