import Foundation
import XCTest

@testable import PushDeskCore

/// `pushdesk init --git` and `pushdesk git-setup` on real repositories (docs/TEAMS.md).
final class GitSetupTests: XCTestCase {
    private let ignore = ".pushdesk/\nsecrets/\n"
    private let attributes =
        "services/*.xml merge=pushdesk\ndeliveries/*.xml merge=pushdesk\nprofiles/*.xml merge=pushdesk\n"
    private var driver: String { GitSandbox.binaryPath + " merge-driver %O %A %B %P" }

    func testInitGitMakesARepositoryAndCommitsWhatItWrote() throws {
        let box = try GitSandbox(self)
        let store = box.url("team")
        // No identity configured anywhere: the fallback author.
        let r = try box.pushdesk(["init", "--git", "--demo", store.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Created the demo store at \(store.path) in a new git repository\n")
        XCTAssertEqual(try box.read(store, ".gitignore"), ignore)
        XCTAssertEqual(try box.read(store, ".gitattributes"), attributes)
        XCTAssertEqual(try box.git(store, ["config", "--local", "merge.pushdesk.driver"]).stdout, driver + "\n")
        XCTAssertEqual(
            try box.git(store, ["config", "--local", "merge.pushdesk.name"]).stdout, GitSetup.driverName + "\n")
        let log = try box.git(store, ["log", "--format=%an <%ae>|%s", "--name-only"]).stdout
        let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, 255)
        XCTAssertEqual(
            log,
            """
            PushDesk <\(user)@\(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))>|PushDesk: a new store with the Neotrips demo

            .gitattributes
            .gitignore
            deliveries/catalog-refresh.xml
            deliveries/summer-sale.xml
            profiles/ana.xml
            services/neotrips.xml

            """)
        XCTAssertEqual(try box.git(store, ["status", "--porcelain"]).stdout, "")
        XCTAssertEqual(
            try box.git(store, ["check-attr", "merge", "services/neotrips.xml"]).stdout,
            "services/neotrips.xml: merge: pushdesk\n")
    }

    func testInitGitInsideAWorkTreeCommitsOnlyItsFilesWithTheConfiguredAuthor() throws {
        let box = try GitSandbox(self)
        let repo = box.url("repo")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        try box.git(repo, ["init", "-q"])
        try box.identify(repo, "Ana Ops")
        try "notes\n".write(to: repo.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try box.git(repo, ["add", "notes.txt"])
        let r = try box.pushdesk(["init", "--git", repo.appendingPathComponent("push").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            try box.git(repo, ["log", "--format=%an <%ae>", "--name-only"]).stdout,
            "Ana Ops <ana.ops@example.com>\n\npush/.gitattributes\npush/.gitignore\n")
        // The operator's staged file is still staged, not committed.
        XCTAssertEqual(try box.git(repo, ["diff", "--cached", "--name-only"]).stdout, "notes.txt\n")
        XCTAssertEqual(try box.read(repo.appendingPathComponent("push"), ".gitignore"), ignore)
        XCTAssertEqual(try box.git(repo, ["config", "--local", "merge.pushdesk.driver"]).stdout, driver + "\n")
    }

    func testInitGitRefusesWhenASecretIsTrackedOrStaged() throws {
        let box = try GitSandbox(self)
        let repo = box.url("repo")
        let secrets = repo.appendingPathComponent("store/secrets")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        try box.git(repo, ["init", "-q"])
        try "pw".write(to: secrets.appendingPathComponent("p12-password"), atomically: true, encoding: .utf8)
        try box.git(repo, ["add", "store/secrets/p12-password"])
        let r = try box.pushdesk(["init", "--git", repo.appendingPathComponent("store").path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("refusing to commit"), r.stderr)
        XCTAssertTrue(r.stderr.contains("secrets/p12-password"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.appendingPathComponent("store/.gitignore").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.appendingPathComponent("store/services").path))
    }

    func testGitSetupInAClone() throws {
        let box = try GitSandbox(self)
        let repo = box.url("clone")
        let store = repo.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try box.git(repo, ["init", "-q"])
        // An operator's own lines are kept; only the missing ones are added.
        try "*.swp\nsecrets/".write(to: store.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
        // A path another machine left behind is replaced.
        try box.git(repo, ["config", "merge.pushdesk.driver", "/home/else/bin/pushdesk merge-driver %O %A %B %P"])

        var r = try box.pushdesk(["git-setup", "--store", store.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            "wrote .gitignore\nwrote .gitattributes\nset merge.pushdesk.name (local config)\nset merge.pushdesk.driver (local config)\n"
        )
        XCTAssertEqual(try box.read(store, ".gitignore"), "*.swp\nsecrets/\n.pushdesk/\n")
        XCTAssertEqual(try box.read(store, ".gitattributes"), attributes)
        XCTAssertEqual(try box.git(repo, ["config", "--local", "merge.pushdesk.driver"]).stdout, driver + "\n")
        XCTAssertEqual(try box.git(repo, ["status", "--porcelain"]).stdout, "?? store/\n")  // nothing committed

        let before = try snapshotFiles(repo)
        r = try box.pushdesk(["git-setup", "--store", store.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "\(store.path): already set up; nothing changed\n")
        XCTAssertEqual(try snapshotFiles(repo), before)
    }

    func testGitSetupOutsideAWorkTreeExits2() throws {
        let box = try GitSandbox(self)
        let store = box.url("plain")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let r = try box.pushdesk(["git-setup", "--store", store.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.hasPrefix("\(store.path): error: not inside a git work tree"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.path), [])
    }

    /// A store in a directory that its enclosing repository ignores (the demo store in a
    /// clone of PushDesk) is not in git: git-setup refuses, naming the rule, and writes
    /// nothing; its git status is none, so the console shows no branch.
    func testGitSetupInADirectoryTheRepositoryIgnoresSaysItIsNotInGit() throws {
        let box = try GitSandbox(self)
        let project = box.url("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try box.git(project, ["init", "-q", "-b", "main"])
        try Data(".demo-store/\n".utf8).write(to: project.appendingPathComponent(".gitignore"))
        let store = project.appendingPathComponent(".demo-store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        XCTAssertEqual(
            try GitSetup.placement(of: store),
            .ignored(workTree: URL(fileURLWithPath: project.path), rule: ".gitignore:1:.demo-store/"))
        XCTAssertNil(GitStatus.read(store: store))
        XCTAssertNil(try GitSetup.workTree(of: store))
        let r = try box.pushdesk(["git-setup", "--store", store.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(
            r.stderr,
            "\(store.path): error: not in git: the work tree at \(project.path) ignores this directory (.gitignore:1:.demo-store/), so nothing of the store can be committed there; start the store's own repository with `git init` in it, or stop ignoring it\n"
        )
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.path), [])
        XCTAssertNotEqual(try box.git(project, ["config", "--local", "merge.pushdesk.driver"], expect: nil).status, 0)
        // A directory beside it that the repository does not ignore is in git.
        let team = project.appendingPathComponent("team")
        try FileManager.default.createDirectory(at: team, withIntermediateDirectories: true)
        XCTAssertEqual(
            try GitSetup.placement(of: team), .inside(workTree: URL(fileURLWithPath: project.path), prefix: "team/"))
        XCTAssertEqual(GitStatus.read(store: team)?.branch, "main")
    }

    func testDriverCommandQuotesAPathWithSpaces() {
        XCTAssertEqual(
            GitSetup.driverCommand(binary: "/usr/local/bin/pushdesk"),
            "/usr/local/bin/pushdesk merge-driver %O %A %B %P")
        XCTAssertEqual(
            GitSetup.driverCommand(binary: "/opt/Push Desk/it's/pushdesk"),
            #"'/opt/Push Desk/it'\''s/pushdesk' merge-driver %O %A %B %P"#)
    }
}
