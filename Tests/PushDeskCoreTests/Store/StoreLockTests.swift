import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The store's lock: flock(2) on .pushdesk/lock, naming its holder.
final class StoreLockTests: XCTestCase {
    func holder(_ program: String = "console", pid: Int32 = getpid()) -> LockHolder {
        LockHolder(
            user: "alice", host: ProcessIdentity.host, pid: pid, program: program,
            since: Date(timeIntervalSince1970: 1_780_000_000))
    }

    func testFirstAcquiresSecondIsToldWhoHoldsIt() throws {
        let root = try makeTempDir(self)
        guard case .acquired(let lock, let previous) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail("not acquired")
        }
        XCTAssertNil(previous)
        let text = try String(contentsOf: root.appendingPathComponent(".pushdesk/lock"), encoding: .utf8)
        XCTAssertEqual(
            text,
            "pushdesk-lock 1\nuser=alice\nhost=\(ProcessIdentity.host)\npid=\(getpid())\nprogram=console\nsince=2026-05-28T20:26:40Z\n"
        )
        // A second open file description conflicts even in the same process, like another console.
        guard case .heldBy(let h) = try StoreLock.acquire(storeRoot: root, holder: holder("import-package")) else {
            return XCTFail("acquired twice")
        }
        XCTAssertEqual(h, holder())
        XCTAssertTrue(
            h!.summary.hasPrefix("alice@\(ProcessIdentity.host) (pid \(getpid()), console) since "), h!.summary)
        XCTAssertFalse(h!.processIsGone)
        lock.release()
        XCTAssertEqual(
            try Data(contentsOf: root.appendingPathComponent(".pushdesk/lock")).count, 0, "a clean release names nobody"
        )
        guard case .acquired(let again, nil) = try StoreLock.acquire(storeRoot: root, holder: holder("import-package"))
        else { return XCTFail("free after release") }
        again.release()
    }

    func testALockLeftByADeadProcessIsFreeAndNamesItsLastHolder() throws {
        let root = try makeTempDir(self)
        let dead = try deadPid()
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(".pushdesk"), withIntermediateDirectories: true)
        try holder(pid: dead).fileText.write(
            to: root.appendingPathComponent(".pushdesk/lock"), atomically: false, encoding: .utf8)
        guard case .acquired(let lock, let previous) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail()
        }
        XCTAssertEqual(previous?.pid, dead)
        lock.release()
    }

    func testTakeOverOnlyWhenTheNamedHolderIsGone() throws {
        let root = try makeTempDir(self)
        // Another holder keeps the flock (another descriptor) while naming a live process: refused.
        guard case .acquired(let held, _) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail()
        }
        XCTAssertThrowsError(try StoreLock.takeOver(storeRoot: root, holder: holder("console"))) { e in
            XCTAssertTrue("\(e)".contains("still running"), "\(e)")
        }
        // Now the file names a process that is gone, but the flock is still held (an
        // inherited descriptor): take-over replaces the file and locks the new one.
        let dead = try deadPid()
        let lockPath = root.appendingPathComponent(".pushdesk/lock").path
        let fd = open(lockPath, O_WRONLY | O_TRUNC)
        let text = Array(holder(pid: dead).fileText.utf8)
        XCTAssertEqual(write(fd, text, text.count), text.count)
        close(fd)
        guard case .heldBy(let h) = try StoreLock.acquire(storeRoot: root, holder: holder()) else { return XCTFail() }
        XCTAssertTrue(h!.processIsGone)
        guard
            case .acquired(let mine, let previous) = try StoreLock.takeOver(storeRoot: root, holder: holder("console"))
        else { return XCTFail() }
        XCTAssertNil(previous, "a new file")
        guard case .heldBy = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail("the new lock excludes others")
        }
        mine.release()
        held.release()
    }

    func testAnotherMachinesHolderIsNeverTakenOver() throws {
        var h = holder(pid: try deadPid())
        h.host = "elsewhere-\(UUID().uuidString.prefix(6))"
        XCTAssertFalse(h.processIsGone, "a pid on another machine cannot be checked from here")
    }

    func testHostileLockFileContentIsContained() {
        XCTAssertNil(LockHolder.parse(""))
        XCTAssertNil(LockHolder.parse("user=x\npid=1\n"), "no format line: not ours")
        let h = LockHolder.parse(
            "pushdesk-lock 1\nuser=\u{1b}[2Jevil\nhost=h\npid=12\nprogram=console\nsince=2026-01-01T00:00:00Z\n")
        XCTAssertEqual(h?.pid, 12)
        XCTAssertFalse(h!.summary.contains("\u{1b}"), "control characters are escaped: \(h!.summary)")
        XCTAssertTrue(h!.summary.contains("\\u{1B}[2Jevil"), h!.summary)
        // Written holders never carry control characters or a newline that would add a key.
        let w = LockHolder(user: "a\nprogram=x", host: "h", pid: 1, program: "p", since: Date())
        XCTAssertEqual(LockHolder.parse(w.fileText)?.user, "aprogramx")
    }

    func testWithLockRefusesWhileAConsoleHoldsIt() throws {
        let root = try makeTempDir(self)
        guard case .acquired(let lock, _) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail()
        }
        XCTAssertThrowsError(try StoreLock.withLock(storeRoot: root, program: "import-package") { XCTFail("ran") }) {
            e in
            XCTAssertTrue("\(e)".contains("the store is locked by alice@"), "\(e)")
        }
        lock.release()
        XCTAssertEqual(try StoreLock.withLock(storeRoot: root, program: "import-package") { 42 }, 42)
    }
}

/// The pid of a process that has ended (and been reaped).
func deadPid() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    try p.waitUntilExit(within: defaultChildDeadline)
    return p.processIdentifier
}
