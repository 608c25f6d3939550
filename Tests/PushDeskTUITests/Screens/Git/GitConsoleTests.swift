import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The console in a git repository (docs/TEAMS.md), driven as an operator would on two real
/// clones and a bare remote: the title and record states, commit (and its refusals), sync
/// (and an unreachable or refusing remote), resolving a conflict field by field, history,
/// and the interrupted sync offered at start.
final class GitConsoleTests: GitTeamTestCase {
    private let service = "services/neotrips.xml"

    /// Edits neotrips' label in the console's editor and saves it.
    private func editLabel(_ app: ConsoleApp, _ label: String) {
        app.press(.open)
        app.focus(field: "label")
        app.press(.lineEnd)
        app.press(.deleteToStart)
        app.type(label)
        app.press(.save)
        app.press(.back)
        app.readGit()
    }

    /// Commits every changed record from the console with `message`.
    private func commit(_ app: ConsoleApp, _ message: String) {
        app.press(.commit)
        XCTAssertTrue(app.top is CommitScreen)
        app.press(.commit)
        XCTAssertEqual(app.dialog?.title, "Commit")
        app.type(message)
        app.handle(.enter)
        app.runGitJob()
    }

    private func sync(_ app: ConsoleApp) {
        app.press(.sync)
        app.runGitJob()
    }

    func testBranchAndRecordStatesInTheTitleAndLists() throws {
        try editService(a) { $0.label = "Neotrips (A)" }
        var copy = DemoStore.neotrips
        copy.name = "newtrips"
        for i in copy.apps.indices { copy.apps[i].integrationKey += "-new" }
        try Store(root: a).save(copy)
        let app = console(a)
        XCTAssertEqual(app.git?.branch, "main")
        assertScreen(app, "branchAndRecordStatesInTheTitleAndLists")
        // Ahead after a commit, behind after the other clone pushed and this one fetched.
        try git(a, ["commit", "-q", "-am", "Label"])
        app.readGit()
        XCTAssertEqual(app.git?.summary, "main ↑1")
        try editService(b) { $0.label = "Neotrips (B)" }
        try git(b, ["commit", "-q", "-am", "B"])
        try git(b, ["push", "-q"])
        try git(a, ["fetch", "-q"])
        app.readGit()
        XCTAssertEqual(app.git?.summary, "main ↑1 ↓1")
        XCTAssertTrue(lines(app)[0].hasPrefix(" PushDesk — Services [main ↑1 ↓1]"), lines(app)[0])
    }

    func testCommitShowsTheChangedRecordsWithDiffsAndCommitsWithGitsIdentity() throws {
        let app = console(a)
        editLabel(app, "Neotrips A")
        XCTAssertEqual(app.git?.state(of: service), .changed)
        app.press(.commit)
        assertScreen(app, "commitShowsTheChangedRecordsWithDiffsAndCommitsWithGitsIdentity")
        app.press(.open)
        app.waitForGitReads()
        assertScreen(app, "views/gitCommitDiff", masks: [("\\b[0-9a-f]{7}\\b", "COMMIT!")], machine: true)
        app.press(.back)
        app.press(.commit)
        app.type("Label from A")
        app.handle(.enter)
        app.runGitJob()
        XCTAssertTrue(app.top is ServicesListScreen)
        XCTAssertEqual(app.message?.hasPrefix("Committed "), true, app.message ?? "")
        let log = try git(a, ["log", "-1", "--format=%an <%ae>|%s", "--name-only"]).output
        XCTAssertEqual(log, "Operator A <operator.a@example.com>|Label from A\n\n" + service)
        XCTAssertEqual(app.git?.files, [:])
        XCTAssertEqual(app.git?.summary, "main ↑1")
    }

    /// Two changed services, one left out with Space: the commit holds only the other (its
    /// error findings do not block it either), and the one left out is still modified.
    func testCommitLeavesOutTheRecordsTheOperatorUnticks() throws {
        var copy = DemoStore.neotrips
        copy.name = "newtrips"
        for i in copy.apps.indices { copy.apps[i].integrationKey += "-new" }
        try Store(root: a).save(copy)
        try git(a, ["add", "-A"])
        try git(a, ["commit", "-q", "-m", "Newtrips"])
        try editService(a) { $0.label = "Neotrips (A)" }
        var newtrips = try Store(root: a).load(Service.self, "newtrips")
        newtrips.apps[1].integrationKey = newtrips.apps[0].integrationKey
        try Store(root: a).save(newtrips)
        let app = console(a)
        app.press(.commit)
        app.press(.down)
        app.press(.toggle)
        assertScreen(app, "commitLeavesOutTheRecordsTheOperatorUnticks")
        app.press(.commit)
        XCTAssertEqual(app.dialog?.title, "Commit")
        assertScreen(app, "commitDialogOneLeftOut", machine: true)
        app.type("Label only")
        app.handle(.enter)
        app.runGitJob()
        XCTAssertEqual(
            try git(a, ["show", "--stat", "--format=%s", "HEAD"]).output,
            "Label only\n\n services/neotrips.xml | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)")
        XCTAssertEqual(try git(a, ["status", "--porcelain"]).output, " M services/newtrips.xml")
        XCTAssertEqual(app.git?.files, ["services/newtrips.xml": .changed])
    }

    func testCommitRefusesAChosenRecordWithErrorsUntilItIsLeftOut() throws {
        try editService(a) { $0.apps[1].integrationKey = $0.apps[0].integrationKey }
        let app = console(a)
        app.press(.commit)
        app.press(.commit)
        XCTAssertEqual(app.dialog?.title, "Cannot commit")
        assertScreen(app, "cannotCommitTheChosenRecord", machine: true)
        // One finding a line: the list's line breaks are not escaped with the findings' text.
        app.handle(.enter)
        app.press(.toggle)
        app.press(.commit)
        XCTAssertEqual(app.message, "Every record is left out: Space puts the selected one back in.")
        XCTAssertEqual(try git(a, ["rev-list", "--count", "HEAD"]).output, "1")
    }

    func testCommitIsRefusedWhileARecordHasErrorsAndForSecretPaths() throws {
        try editService(a) { $0.apps[1].integrationKey = $0.apps[0].integrationKey }
        let app = console(a)
        app.press(.commit)
        app.press(.commit)
        XCTAssertEqual(app.dialog?.title, "Cannot commit")
        assertScreen(app, "cannotCommitWithErrors", machine: true)
        app.handle(.enter)
        XCTAssertEqual(try git(a, ["rev-list", "--count", "HEAD"]).output, "1")

        // A secret forced into the index: the commit is refused with the path named.
        try editService(a) { $0.apps[1].integrationKey = "neotrips-ios-fixed" }
        try FileManager.default.createDirectory(
            at: a.appendingPathComponent("secrets"), withIntermediateDirectories: true)
        try Data("s3cret".utf8).write(to: a.appendingPathComponent("secrets/leak"))
        try git(a, ["add", "-f", "secrets/leak"])
        app.reload()
        app.readGit()
        app.press(.back)
        commit(app, "With a secret")
        XCTAssertEqual(app.dialog?.title, "Not committed")
        assertScreen(app, "notCommittedASecret", width: 200, height: 30, machine: true)
        XCTAssertEqual(try git(a, ["rev-list", "--count", "HEAD"]).output, "1")
    }

    /// The team story through the console: A's label and B's marketing URL merge;
    /// then both change the label and B resolves it in the console, field by field.
    func testTeamStorySyncMergesAndBResolvesTheLabelInTheConsole() throws {
        let consoleA = console(a)
        editLabel(consoleA, "Neotrips (A)")
        commit(consoleA, "Label from A")
        sync(consoleA)
        XCTAssertEqual(consoleA.message, "Synced: pushed 1 commit")
        XCTAssertEqual(consoleA.git?.summary, "main")

        let consoleB = console(b)
        try editService(b) { $0.marketingUrl = "https://m.neotrips.example/" }
        consoleB.reload()
        consoleB.readGit()
        commit(consoleB, "Marketing URL from B")
        sync(consoleB)
        XCTAssertEqual(consoleB.message, "Synced: pulled 1 commit, pushed 1 commit")
        sync(consoleA)
        var expected = DemoStore.neotrips
        expected.label = "Neotrips (A)"
        expected.marketingUrl = "https://m.neotrips.example/"
        XCTAssertEqual(try read(a, service), try ServiceXML.encode(expected))
        XCTAssertEqual(try read(b, service), try ServiceXML.encode(expected))

        // Both change the label; A syncs first, B's sync stops on the conflict.
        editLabel(consoleA, "Neotrips A2")
        commit(consoleA, "Label A2")
        sync(consoleA)
        editLabel(consoleB, "Neotrips B2")
        commit(consoleB, "Label B2")
        sync(consoleB)
        XCTAssertTrue(consoleB.top is ResolveScreen, "\(consoleB.top)")
        XCTAssertEqual(consoleB.git?.state(of: service), .conflicted)
        XCTAssertEqual(consoleB.git?.rebasing, true)
        assertScreen(consoleB, "teamStorySyncMergesAndBResolvesTheLabelInTheConsole")
        consoleB.press(.takeTheirs)
        XCTAssertEqual(lines(consoleB)[2].hasSuffix("theirs"), true, lines(consoleB)[2])
        consoleB.press(.markResolved)
        consoleB.runGitJob()
        XCTAssertEqual(consoleB.dialog?.title, "All resolved")
        consoleB.handle(.enter)
        consoleB.runGitJob()
        XCTAssertEqual(consoleB.message, "Synced: pushed 1 commit")
        XCTAssertEqual(consoleB.git?.rebasing, false)
        sync(consoleA)
        expected.label = "Neotrips B2"
        XCTAssertEqual(try read(a, service), try ServiceXML.encode(expected))
        let authors = try git(remote, ["log", "--format=%an", "main"]).output.split(separator: "\n")
        XCTAssertEqual(Set(authors), ["Operator A", "Operator B"])
    }

    func testSyncWithAnUnreachableOrRefusingRemoteLosesNothing() throws {
        let app = console(a)
        editLabel(app, "Neotrips A")
        commit(app, "Label")
        let head = try git(a, ["rev-parse", "HEAD"]).output
        // Unreachable: the remote's directory is gone.
        try git(a, ["remote", "set-url", "origin", root.appendingPathComponent("gone.git").path])
        sync(app)
        XCTAssertEqual(app.dialog?.title, "Sync failed")
        assertScreen(app, "syncFailedUnreachable", width: 200, height: 30, machine: true)
        app.handle(.enter)
        XCTAssertEqual(try git(a, ["rev-parse", "HEAD"]).output, head)
        // Refusing: the remote's hook rejects every push.
        try git(a, ["remote", "set-url", "origin", remote.path])
        let hook = remote.appendingPathComponent("hooks/pre-receive")
        try Data("#!/bin/sh\necho 'no pushes today' >&2\nexit 1\n".utf8).write(to: hook)
        chmod(hook.path, 0o755)
        sync(app)
        XCTAssertEqual(app.dialog?.title, "Sync failed")
        assertScreen(app, "syncFailedRefused", width: 200, height: 30, machine: true)
        XCTAssertEqual(try git(a, ["rev-parse", "HEAD"]).output, head)
        XCTAssertEqual(app.git?.summary, "main ↑1")
    }

    func testSyncLeavesAnUnsavedDraftAsItWas() throws {
        try editService(b) { $0.label = "Neotrips (B)" }
        try git(b, ["commit", "-q", "-am", "B"])
        try git(b, ["push", "-q"])
        let app = console(a)
        app.press(.open)
        app.focus(field: "marketingUrl")
        app.press(.lineEnd)
        app.press(.deleteToStart)
        app.type("https://draft.example/")
        // The service's deliveries open over its editor, whose draft stays open (unsaved): sync there.
        app.press(.deliveries)
        XCTAssertTrue(app.top is DeliveriesListScreen)
        app.press(.sync)
        app.runGitJob()
        XCTAssertEqual(app.message, "Synced: pulled 1 commit")
        XCTAssertEqual(try Store(root: a).load(Service.self, "neotrips").label, "Neotrips (B)")
        app.press(.back)
        XCTAssertEqual((app.top.session as? ServiceSession)?.draft.marketingUrl, "https://draft.example/")
        XCTAssertEqual(app.top.session?.isDirty, true)
        // Its save meets the changed-on-disk path: the pull changed the file it started from.
        app.press(.save)
        XCTAssertEqual(app.dialog?.title, "Changed on disk")
    }

    func testHistoryShowsCommitsDiffsAndRestoresAVersionAsADraft() throws {
        let app = console(a)
        editLabel(app, "Neotrips Two")
        commit(app, "Second label")
        app.press(.history)
        XCTAssertTrue(app.top is HistoryScreen)
        app.waitForGitReads()
        let screen = lines(app)
        XCTAssertEqual(screen[0], " PushDesk — History of services/neotrips.xml [main ↑1]          ? help  default")
        // Newest first, each commit by its author with its subject (hashes and dates masked).
        assertScreen(app, "history", masks: [("\\b[0-9a-f]{7}\\b", "COMMIT!")], machine: true)
        app.press(.down)
        app.press(.open)
        app.waitForGitReads()
        assertScreen(app, "historyDiff", masks: [("\\b[0-9a-f]{7}\\b", "COMMIT!")], machine: true)
        app.press(.back)
        app.press(.restore)
        app.runGitJob()
        XCTAssertTrue(app.top is ServiceEditorScreen)
        XCTAssertEqual((app.top.session as? ServiceSession)?.draft.label, "Neotrips")
        XCTAssertEqual(app.top.session?.isDirty, true)
        XCTAssertEqual(try Store(root: a).load(Service.self, "neotrips").label, "Neotrips Two")
    }

    func testAnInterruptedSyncIsOfferedAtStartAndAborts() throws {
        try editService(b) { $0.label = "Neotrips (B)" }
        try git(b, ["commit", "-q", "-am", "B"])
        try git(b, ["push", "-q"])
        try editService(a) { $0.label = "Neotrips (A)" }
        try git(a, ["commit", "-q", "-am", "A"])
        try git(a, ["fetch", "-q"])
        XCTAssertNotEqual(try GitCommand(directory: a).run(["rebase", "@{u}"]).status, 0)
        let app = console(a)
        XCTAssertEqual(app.dialog?.title, "Sync interrupted")
        app.handle(.char("a"))  // Abort (a dialog's first letter presses its button)
        app.runGitJob()
        XCTAssertEqual(app.git?.rebasing, false)
        XCTAssertEqual(try git(a, ["log", "-1", "--format=%s"]).output, "A")
        XCTAssertEqual(try Store(root: a).load(Service.self, "neotrips").label, "Neotrips (A)")
    }

    func testOutsideARepositoryTheGitKeysSayWhy() throws {
        let plain = root.appendingPathComponent("plain")
        try DemoStore.write(to: plain)
        let app = console(plain)
        XCTAssertNil(app.git)
        app.press(.commit)
        XCTAssertTrue(app.message?.contains("not in a git repository") ?? false, app.message ?? "")
        XCTAssertEqual(lines(app)[0], " PushDesk — Services                                            ? help  default")
    }

    /// The demo store of `make run` lives in `.demo-store/` inside the PushDesk clone, which
    /// ignores it: not a store in git, so no branch in the title and no Git column.
    func testAStoreTheEnclosingRepositoryIgnoresIsOutsideGit() throws {
        let project = root.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try git(project, ["init", "-q", "-b", "main"])
        try Data(".demo-store/\n".utf8).write(to: project.appendingPathComponent(".gitignore"))
        try identify(project, "Operator A")
        try git(project, ["add", ".gitignore"])
        try git(project, ["commit", "-q", "-m", "Ignore the demo store"])
        let store = project.appendingPathComponent(".demo-store")
        try DemoStore.write(to: store)
        let app = console(store)
        XCTAssertNil(app.git)
        XCTAssertEqual(
            Array(lines(app).prefix(3)),
            [
                " PushDesk — Services                                            ? help  default",
                "Name                   Label                              Apps  Findings",
                "neotrips               Neotrips                           3     ok",
            ])
        app.press(.commit)
        XCTAssertTrue(app.message?.contains("not in a git repository") ?? false, app.message ?? "")
    }
}
