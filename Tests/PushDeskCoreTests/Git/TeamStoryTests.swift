import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// Two operators, two clones and a remote, on real git with the driver that
/// `pushdesk git-setup` installs (docs/TEAMS.md: the team story), at the command line.
final class TeamStoryTests: XCTestCase {
    private let servicePath = "services/neotrips.xml"

    /// A team: A creates the store with `init --git --demo` and pushes it to a bare remote;
    /// B clones it and runs `git-setup`. Returns (A, B).
    private func team(_ box: GitSandbox, remote: String) throws -> (URL, URL) {
        let a = box.url("a")
        let b = box.url("b")
        XCTAssertEqual(try box.pushdesk(["init", "--git", "--demo", a.path]).status, 0)
        try box.identify(a, "Operator A")
        try box.git(a, ["branch", "-M", "main"])
        try box.git(a, ["remote", "add", "origin", remote])
        try box.git(a, ["push", "-q", "-u", "origin", "main"])
        try box.git(box.root, ["clone", "-q", remote, b.path])
        try box.identify(b, "Operator B")
        let setup = try box.pushdesk(["git-setup", "--store", b.path])
        XCTAssertEqual(setup.status, 0, setup.stderr)
        return (a, b)
    }

    private func editService(_ clone: URL, _ change: (inout Service) -> Void) throws {
        let store = Store(root: clone)
        var s = try store.load(Service.self, "neotrips")
        change(&s)
        try store.save(s)
    }

    private func commit(_ box: GitSandbox, _ clone: URL, _ message: String) throws {
        try box.git(clone, ["commit", "-q", "-am", message])
    }

    private func story(remote: String, box: GitSandbox) throws {
        let (a, b) = try team(box, remote: remote)

        // A edits the label, commits and pushes; B edits the marketing URL and pulls with rebase.
        try editService(a) { $0.label = "Neotrips (A)" }
        try commit(box, a, "Label from A")
        try box.git(a, ["push", "-q"])
        try editService(b) { $0.marketingUrl = "https://m.neotrips.example/" }
        try commit(box, b, "Marketing URL from B")
        let pull = try box.git(b, ["pull", "-q", "--rebase"])
        XCTAssertEqual(pull.stderr, "")
        try box.git(b, ["push", "-q"])
        try box.git(a, ["pull", "-q", "--rebase"])
        var expected = DemoStore.neotrips
        expected.label = "Neotrips (A)"
        expected.marketingUrl = "https://m.neotrips.example/"
        XCTAssertEqual(try box.read(a, servicePath), try ServiceXML.encode(expected))
        XCTAssertEqual(try box.read(b, servicePath), try ServiceXML.encode(expected))

        // Both change the same label: the driver reports it, B resolves it and pushes.
        try editService(a) { $0.label = "Neotrips A2" }
        try commit(box, a, "Label A2")
        try box.git(a, ["push", "-q"])
        try editService(b) { $0.label = "Neotrips B2" }
        try commit(box, b, "Label B2")
        let conflicted = try box.git(b, ["pull", "--rebase"], expect: nil)
        XCTAssertNotEqual(conflicted.status, 0)
        // In a rebase OURS is the upstream (A's commit), THEIRS the commit being replayed (B's).
        XCTAssertTrue(
            conflicted.stderr.contains(#"services/neotrips.xml:label: ours "Neotrips A2", theirs "Neotrips B2""#),
            conflicted.stderr)
        XCTAssertEqual(try box.git(b, ["diff", "--name-only", "--diff-filter=U"]).stdout, servicePath + "\n")
        // The conflicted file still loads: OURS' value stands until resolved.
        XCTAssertEqual(try Store(root: b).load(Service.self, "neotrips").label, "Neotrips A2")
        try editService(b) { $0.label = "Neotrips B2" }
        try box.git(b, ["add", servicePath])
        try box.git(b, ["rebase", "--continue"])
        try box.git(b, ["push", "-q"])
        try box.git(a, ["pull", "-q", "--rebase"])
        expected.label = "Neotrips B2"
        XCTAssertEqual(try box.read(a, servicePath), try ServiceXML.encode(expected))

        let authors = try box.git(a, ["log", "--format=%an|%s", "origin/main"]).stdout
        XCTAssertEqual(
            authors,
            """
            Operator B|Label B2
            Operator A|Label A2
            Operator B|Marketing URL from B
            Operator A|Label from A
            PushDesk|PushDesk: a new store with the Neotrips demo

            """)
    }

    func testTeamStoryOverAFileRemote() throws {
        let box = try GitSandbox(self)
        let remote = box.url("remote.git")
        try box.git(box.root, ["init", "-q", "--bare", "--initial-branch=main", remote.path])
        try story(remote: remote.path, box: box)
    }

    func testTeamStoryOverGitDaemonOnLoopback() throws {
        let box = try GitSandbox(self)
        let served = box.url("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try box.git(served, ["init", "-q", "--bare", "--initial-branch=main", "remote.git"])
        let daemon = try GitDaemon(box: box, base: served)
        defer { daemon.stop() }
        try story(remote: "git://127.0.0.1:\(daemon.port)/remote.git", box: box)
    }

    func testGitMergeOfTwoBranchesUsesTheDriver() throws {
        let box = try GitSandbox(self)
        let a = box.url("a")
        XCTAssertEqual(try box.pushdesk(["init", "--git", "--demo", a.path]).status, 0)
        try box.identify(a, "Operator A")
        try box.git(a, ["branch", "-M", "main"])
        try box.git(a, ["checkout", "-q", "-b", "ios"])
        try editService(a) { $0.apps[0].variables.append(AppVariable(name: "promo", label: "Promo")) }
        try commit(box, a, "iOS variable")
        try box.git(a, ["checkout", "-q", "main"])
        try editService(a) {
            $0.apps[0].variables.append(AppVariable(name: "deeplink"))
            $0.trackingUrl = "https://t2.neotrips.example/"
        }
        try commit(box, a, "Tracking URL and a variable")
        let merge = try box.git(a, ["merge", "-q", "--no-edit", "ios"])
        XCTAssertEqual(merge.stderr, "")
        var expected = DemoStore.neotrips
        expected.trackingUrl = "https://t2.neotrips.example/"
        expected.apps[0].variables += [AppVariable(name: "deeplink"), AppVariable(name: "promo", label: "Promo")]
        XCTAssertEqual(try box.read(a, servicePath), try ServiceXML.encode(expected))

        // git rebase: a branch's marketing URL replayed onto main's new label — one line of
        // text (the <service> start tag), two fields of the record.
        try box.git(a, ["checkout", "-q", "-b", "later"])
        try editService(a) { $0.marketingUrl = "https://m.neotrips.example/" }
        try commit(box, a, "Marketing URL")
        try box.git(a, ["checkout", "-q", "main"])
        try editService(a) { $0.label = "Neotrips (team)" }
        try commit(box, a, "Label")
        try box.git(a, ["checkout", "-q", "later"])
        let rebase = try box.git(a, ["rebase", "-q", "main"])
        XCTAssertEqual(rebase.stderr, "")
        expected.marketingUrl = "https://m.neotrips.example/"
        expected.label = "Neotrips (team)"
        XCTAssertEqual(try box.read(a, servicePath), try ServiceXML.encode(expected))
    }

    /// The driver as git calls it, through the binary: an unreadable version is exit 2, one
    /// error line, OURS unchanged.
    func testDriverBinaryExitCodes() throws {
        let box = try GitSandbox(self)
        let base = try ServiceXML.encode(DemoStore.neotrips)
        let files = ["base", "ours", "theirs"].map { box.url($0).path }
        try Data(base.utf8).write(to: URL(fileURLWithPath: files[0]))
        try Data(base.replacingOccurrences(of: "label=\"Neotrips\"", with: "label=\"A\"").utf8)
            .write(to: URL(fileURLWithPath: files[1]))
        try Data("<service".utf8).write(to: URL(fileURLWithPath: files[2]))
        var r = try box.pushdesk(["merge-driver"] + files + [servicePath])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("services/neotrips.xml (theirs):1:"), r.stderr)
        XCTAssertEqual(
            try box.read(box.root, "ours"), base.replacingOccurrences(of: "label=\"Neotrips\"", with: "label=\"A\""))

        try Data(base.replacingOccurrences(of: "label=\"Neotrips\"", with: "label=\"B\"").utf8)
            .write(to: URL(fileURLWithPath: files[2]))
        r = try box.pushdesk(["merge-driver"] + files + [servicePath])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, #"services/neotrips.xml:label: ours "A", theirs "B""# + "\n")
    }
}

/// `git daemon` serving a directory on 127.0.0.1 for one test: a free port, push enabled,
/// stopped by the test (and bounded by `--timeout`/`--init-timeout` on each connection).
final class GitDaemon {
    private(set) var port = 0
    private var process = Process()

    /// Ready when it answers: up to 60 s on a loaded machine (a second or so when quiet); a
    /// daemon that exits (its port taken meanwhile) is started again on another port, three
    /// times at most. Never ready is a failure, not a skip.
    init(box: GitSandbox, base: URL) throws {
        var tried: [String] = []
        for _ in 0..<3 {
            port = try Self.freePort()
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack", "--listen=127.0.0.1",
                "--port=\(port)", "--base-path=\(base.path)", "--timeout=30", "--init-timeout=10", base.path,
            ]
            process.environment = ProcessInfo.processInfo.environment.merging(box.environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            let err = Pipe()
            process.standardError = err
            let errText = PipeReader(err.fileHandleForReading)
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            var last = ""
            while Date() < deadline, process.isRunning {
                let r = try runBounded(
                    "/usr/bin/env", ["git", "ls-remote", "git://127.0.0.1:\(port)/remote.git"], in: base,
                    environment: box.environment, timeout: 10)
                if r.status == 0 { return }
                last = r.stderr
                usleep(100_000)
            }
            stop()
            tried.append("port \(port): \(last) \(errText.finish(within: 2).count > 0 ? errText.text : "")")
        }
        throw GitDaemonNotReady(description: "git daemon never answered on 127.0.0.1: \(tried)")
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard bound else { throw GitDaemonNotReady(description: "no free port on 127.0.0.1 (errno \(errno))") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

struct GitDaemonNotReady: Error, CustomStringConvertible {
    var description: String
}
