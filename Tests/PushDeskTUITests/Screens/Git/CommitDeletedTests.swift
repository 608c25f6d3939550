import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A deleted record in the commit view: its state comes from git's status, read off the
/// loop with the rest of it (no look at the disk per row), and committing removes the file
/// from the repository.
final class CommitDeletedTests: GitTeamTestCase {
    func testADeletedRecordShowsAsDeletedAndItsCommitRemovesIt() throws {
        let app = console(a)
        app.press(.testDevices)
        XCTAssertTrue(app.top is ProfilesListScreen)
        app.press(.delete)
        XCTAssertEqual(app.dialog?.title, "Delete profile")
        app.handle(.char("y"))
        XCTAssertEqual(app.message, "Deleted profiles/ana.xml")
        app.readGit()
        XCTAssertEqual(app.git?.deleted, ["profiles/ana.xml"])
        XCTAssertEqual(app.git?.state(of: "profiles/ana.xml"), .changed)
        app.press(.back)
        app.press(.commit)
        XCTAssertTrue(app.top is CommitScreen, "\(app.top)")
        assertScreen(app, "theDeletedProfileIsListedToCommit", machine: true)
        app.press(.commit)
        XCTAssertEqual(app.dialog?.title, "Commit")
        app.type("Ana leaves")
        app.handle(.enter)
        app.runGitJob()
        XCTAssertEqual(app.message?.hasSuffix(": 1 record"), true, app.message ?? "")
        XCTAssertEqual(try git(a, ["ls-files", "profiles"]).output, "")
        XCTAssertEqual(app.git?.deleted, [])
    }
}
