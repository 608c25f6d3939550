import Foundation
import XCTest

@testable import PushDeskCore

/// Writing commands respect the store's lock: while a console holds it they refuse (exit 2),
/// name the holder and change nothing; once it is free they work and leave it free.
final class StoreLockCommandTests: XCTestCase {
    func testImportAndSetSecretRefuseWhileAConsoleHoldsTheStore() throws {
        let root = try makeTempDir(self, "store")
        try DemoStore.write(to: root)
        let package = root.deletingLastPathComponent().appendingPathComponent("pkg.xml")
        let export = try runPushDesk(["export-package", "neotrips", "--store", root.path, "-o", package.path])
        XCTAssertEqual(export.status, 0, export.stderr)

        // A console (here this test process) holds the lock.
        let holder = LockHolder(
            user: "alice", host: ProcessIdentity.host, pid: getpid(), program: "console", since: Date())
        guard case .acquired(let lock, _) = try StoreLock.acquire(storeRoot: root, holder: holder) else {
            return XCTFail()
        }
        let before = try snapshotFiles(root.appendingPathComponent("services"))

        let imp = try runPushDesk(["import-package", package.path, "--store", root.path, "--replace"])
        XCTAssertEqual(imp.status, 2, imp.stdout)
        XCTAssertTrue(
            imp.stderr.contains(
                ".pushdesk/lock: error: the store is locked by alice@\(ProcessIdentity.host) (pid \(getpid()), console)"
            ), imp.stderr)
        XCTAssertTrue(imp.stderr.contains("nothing was written"), imp.stderr)
        let dry = try runPushDesk(["import-package", package.path, "--store", root.path, "--replace", "--dry-run"])
        XCTAssertEqual(dry.status, 0, "a dry run writes nothing and needs no lock: \(dry.stderr)")

        let secret = try runProcess(
            packageRoot.appendingPathComponent(".build/debug/pushdesk").path,
            ["credentials", "set-secret", "k1", "--store", root.path], stdin: "s3cret\n")
        XCTAssertEqual(secret.status, 2)
        XCTAssertTrue(secret.stderr.contains("the store is locked by alice@"), secret.stderr)
        XCTAssertFalse(secret.stderr.contains("s3cret"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("secrets/k1").path))
        XCTAssertEqual(try snapshotFiles(root.appendingPathComponent("services")), before)

        lock.release()
        let ok = try runProcess(
            packageRoot.appendingPathComponent(".build/debug/pushdesk").path,
            ["credentials", "set-secret", "k1", "--store", root.path], stdin: "s3cret\n")
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let imp2 = try runPushDesk(["import-package", package.path, "--store", root.path, "--replace"])
        XCTAssertEqual(imp2.status, 0, imp2.stderr)
        // Released after the write: the next one gets it.
        guard case .acquired(let again, _) = try StoreLock.acquire(storeRoot: root, holder: holder) else {
            return XCTFail("left locked")
        }
        again.release()
    }
}
