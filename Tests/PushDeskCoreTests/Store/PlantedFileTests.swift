import Foundation
import XCTest

@testable import PushDeskCore

/// A shared or cloned store is writable by others: a planted link must never make PushDesk
/// write through it, a planted FIFO must never block it, a planted recovery file must never
/// pass for the operator's own (docs/RELIABILITY.md, "Planted files").
final class PlantedFileTests: XCTestCase {
    private var binary: String { packageRoot.appendingPathComponent(".build/debug/pushdesk").path }

    /// `pushdesk ARGS`, killed after 20 s (a FIFO that blocks must fail the test, not hang it).
    private func pushdesk(_ args: [String], stdin: String? = nil) throws -> CommandResult {
        _ = try builtPushDesk()
        let r = try runProcess("/usr/bin/timeout", ["20", binary] + args, stdin: stdin)
        XCTAssertNotEqual(r.status, 124, "pushdesk \(args) hung: \(r.stderr)")
        return r
    }

    /// Runs `body` on its own thread and fails if it takes more than `seconds`.
    private func bounded<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.result = Result { try body() }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success, let r = box.result else {
            XCTFail("blocked for more than \(seconds) s")
            throw CancellationError()
        }
        return try r.get()
    }

    private func demoStore() throws -> URL {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        return root
    }

    // MARK: links

    func testALockPlantedAsALinkNeverTouchesItsTarget() throws {
        let root = try demoStore()
        let outside = root.deletingLastPathComponent()
        let precious = outside.appendingPathComponent("precious")
        try Data("precious\n".utf8).write(to: precious)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(".pushdesk"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent(".pushdesk/lock").path, withDestinationPath: precious.path)
        let r = try pushdesk(["credentials", "set-secret", "k", "--store", root.path], stdin: "pw\n")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr,
            ".pushdesk/lock:1:1: error: the lock file is a symbolic link, not a regular file; PushDesk does not follow links inside a store; replace it with a regular file\n"
        )
        XCTAssertEqual(try String(contentsOf: precious, encoding: .utf8), "precious\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("secrets/k").path))

        // A link to a file that does not exist: nothing is created there.
        try FileManager.default.removeItem(at: root.appendingPathComponent(".pushdesk/lock"))
        let missing = outside.appendingPathComponent("created-by-lock")
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent(".pushdesk/lock").path, withDestinationPath: missing.path)
        XCTAssertThrowsError(try StoreLock.acquire(storeRoot: root, holder: .current(program: "test")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
    }

    func testALinkedPushdeskFolderIsNotLockedThrough() throws {
        let root = try demoStore()
        let elsewhere = root.deletingLastPathComponent().appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent(".pushdesk").path, withDestinationPath: elsewhere.path)
        XCTAssertThrowsError(try StoreLock.acquire(storeRoot: root, holder: .current(program: "test"))) {
            XCTAssertEqual(
                "\($0)",
                ".pushdesk/lock: error: .pushdesk is a symbolic link, not a directory; PushDesk does not follow links inside a store; replace it with a directory"
            )
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        // Nor are recovery files written there.
        let rs = RecoveryStore(storeRoot: root)
        let rel = RecoveryStore.relativePath(user: "alice", host: "h", pid: 1)
        XCTAssertThrowsError(
            try rs.write(
                RecoveryFile(user: "alice", host: "h", pid: 1, written: Date(), reason: .hangup, entries: []), to: rel))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    func testSavesAndSecretsNeverWriteThroughALinkedFolder() throws {
        let root = try demoStore()
        let elsewhere = root.deletingLastPathComponent().appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("secrets").path, withDestinationPath: elsewhere.path)
        XCTAssertThrowsError(try SecretStore(storeRoot: root).set("k", to: SecretValue("pw"))) {
            XCTAssertEqual(
                "\($0)",
                "cannot write secrets/k: secrets is a symbolic link, not a directory; PushDesk does not follow links inside a store; replace it with a directory"
            )
        }
        // A record file planted as a link is not replaced: its target keeps its bytes.
        let target = elsewhere.appendingPathComponent("target.xml")
        try Data("keep".utf8).write(to: target)
        let path = root.appendingPathComponent(Service.path("linked"))
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: target.path)
        var s = DemoStore.neotrips
        s.name = "linked"
        for i in s.apps.indices { s.apps[i].integrationKey += "-linked" }
        XCTAssertThrowsError(try Store(root: root).save(s)) {
            XCTAssertEqual(
                "\($0)",
                "services/linked.xml: error: not saved, the file on disk is unchanged: services/linked.xml is a symbolic link, not a regular file; PushDesk does not follow links inside a store; replace it with a regular file"
            )
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "keep")
        // A services/ folder that is a link out of the store is refused like a file would be.
        let other = try makeTempDir(self, "other")
        try FileManager.default.createDirectory(
            at: other.appendingPathComponent("services"), withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: root.appendingPathComponent("services"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("services").path,
            withDestinationPath: other.appendingPathComponent("services").path)
        let r = try pushdesk(["validate", "--store", root.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr,
            "services: error: services/ is a symbolic link to \(other.path)/services, outside the store; replace it with a directory [file.io]\n"
        )
    }

    // MARK: FIFOs and other special files

    func testAFIFONamedXMLIsAPositionedErrorNotAHang() throws {
        for (relative, args) in [
            ("services/x.xml", ["validate"]), ("services/x.xml", ["list"]), ("deliveries/x.xml", ["validate"]),
            ("profiles/x.xml", ["preview", "summer-sale", "--profile", "x"]),
        ] {
            let root = try demoStore()
            XCTAssertEqual(mkfifo(root.appendingPathComponent(relative).path, 0o644), 0)
            let r = try pushdesk(args + ["--store", root.path])
            XCTAssertNotEqual(r.status, 0, "\(relative) \(args)")
            XCTAssertTrue(
                (r.stderr + r.stdout).contains(
                    "\(relative):1:1: error: is a FIFO (named pipe), not a regular file; PushDesk reads and writes only regular files here; remove it"
                ), "\(relative) \(args): \(r.stderr)")
        }
    }

    func testAFIFOInRecoveryOrSecretsIsReportedAtOnce() throws {
        let root = try demoStore()
        let rs = RecoveryStore(storeRoot: root)
        try FileManager.default.createDirectory(at: rs.directory, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(rs.directory.appendingPathComponent("x.xml").path, 0o600), 0)
        let user = ProcessIdentity.user
        let found = try bounded(10) { rs.pending(user: user) }
        XCTAssertEqual(found.count, 1)
        guard case .failure(let e) = found.first?.file else { return XCTFail("a FIFO was offered") }
        XCTAssertEqual(
            e.description,
            ".pushdesk/recovery/x.xml:1:1: error: not offered: is a FIFO (named pipe), not a regular file; PushDesk reads and writes only regular files here; remove it"
        )
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("secrets"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(root.appendingPathComponent("secrets/pw").path, 0o600), 0)
        let secrets = SecretStore(storeRoot: root)
        let message = try bounded(10) { () -> String in
            do {
                _ = try secrets.read("pw")
                return "read"
            } catch { return "\(error)" }
        }
        XCTAssertEqual(
            message,
            "secret pw: secrets/pw is a FIFO (named pipe), not a regular file; PushDesk reads and writes only regular files here; remove it"
        )
    }

    // MARK: planted recovery files

    func testARecoveryFileNotMode0600IsNotOffered() throws {
        let root = try demoStore()
        let rs = RecoveryStore(storeRoot: root)
        let f = RecoveryFile(
            user: ProcessIdentity.user, host: "vm", pid: 1, written: Date(), reason: .hangup, entries: [])
        let rel = RecoveryStore.relativePath(user: f.user, host: f.host, pid: f.pid)
        try rs.write(f, to: rel)
        XCTAssertEqual(try rs.pending(user: f.user).map { try $0.file.get().user }, [f.user])
        XCTAssertEqual(chmod(root.appendingPathComponent(rel).path, 0o644), 0)
        let found = rs.pending(user: f.user)
        XCTAssertEqual(found.count, 1)
        guard case .failure(let e) = found.first?.file else { return XCTFail("a 0644 recovery file was offered") }
        XCTAssertEqual(
            e.description,
            "\(rel):1:1: error: not offered: it names \(f.user) but is owned by \(ProcessIdentity.user) with mode 0644; a console writes its recovery file owned by its operator, mode 0600 — someone else may have put it here"
        )
    }

    // MARK: device nodes and other file types as `-o`

    func testOutputOntoADeviceIsWrittenAndNeverReplaced() throws {
        try AtomicFile.write(Array("x".utf8), to: URL(fileURLWithPath: "/dev/null"))
        var st = stat()
        XCTAssertEqual(stat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
        let dir = try makeTempDir(self)
        XCTAssertThrowsError(try AtomicFile.write(Array("x".utf8), to: dir)) {
            XCTAssertEqual("\($0)", "store is a directory, not a regular file; give a file path")
        }
        let root = try demoStore()
        let r = try pushdesk(["export-package", "neotrips", "-o", dir.path, "--store", root.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr,
            "\(dir.path): error: store is a directory, not a regular file; give a file path; check that the folder exists and is writable\n"
        )
    }

    // MARK: empty --store, secret size, what a credential path is

    func testAnEmptyStoreArgumentIsAUsageError() throws {
        let r = try pushdesk(["validate", "--store", ""])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr, "pushdesk: error: --store is empty; give the store's directory (is a variable unset?)\n")
        XCTAssertEqual(r.stdout, "")
    }

    func testAnOversizedSecretIsRefused() throws {
        let root = try demoStore()
        let r = try pushdesk(
            ["credentials", "set-secret", "big", "--store", root.path],
            stdin: String(repeating: "s", count: 5_000) + "\n")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr,
            "secrets/big: error: the secret is longer than 4096 bytes, the most a secret (a password, a server key) may have; nothing written\n"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("secrets/big").path))
    }

    func testACredentialPathThatIsNoFileSaysWhatItIs() throws {
        for (path, what) in [("/dev/urandom", "a character device"), ("/etc", "a directory")] {
            let message = try bounded(10) { () -> String in
                do {
                    _ = try APNsAuthKey.load(file: URL(fileURLWithPath: path), shownAs: path)
                    return "read"
                } catch { return "\(error)" }
            }
            XCTAssertEqual(message, "is \(what), not a regular file")
        }
    }
}

/// What a bounded body returned, handed from its thread.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
