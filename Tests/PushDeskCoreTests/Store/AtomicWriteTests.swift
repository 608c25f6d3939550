import XCTest

@testable import PushDeskCore

/// A failed save leaves the old file intact and no debris.
final class AtomicWriteTests: XCTestCase {
    struct Injected: Error {}

    override func tearDown() { AtomicFile.beforeRenameHook = nil }

    func testFailureBeforeRenameKeepsTheOldFile() throws {
        let root = try makeTempDir(self)
        let store = Store(root: root)
        try store.save(DemoStore.neotrips)
        let path = root.appendingPathComponent("services/neotrips.xml")
        let before = try Data(contentsOf: path)
        var changed = DemoStore.neotrips
        changed.label = "Changed"
        AtomicFile.beforeRenameHook = { throw Injected() }
        XCTAssertThrowsError(try store.save(changed)) { e in
            XCTAssertTrue("\(e)".contains("the file on disk is unchanged"), "\(e)")
        }
        AtomicFile.beforeRenameHook = nil
        XCTAssertEqual(try Data(contentsOf: path), before)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("services").path),
            ["neotrips.xml"],
            "no temporary file is left behind")
        try store.save(changed)
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Changed")
    }

    func testReadOnlyDirectoryGivesAnIOErrorAndKeepsTheFile() throws {
        guard getuid() != 0 else {
            // root ignores directory permissions; use a file where the folder should be instead.
            let root = try makeTempDir(self)
            try Data("x".utf8).write(to: root.appendingPathComponent("services"))
            XCTAssertThrowsError(try Store(root: root).save(DemoStore.neotrips)) { e in
                XCTAssertEqual((e as? StoreError)?.kind, .io)
                XCTAssertEqual((e as? StoreError)?.file, "services/neotrips.xml")
            }
            XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("services")), Data("x".utf8))
            return
        }
        let root = try makeTempDir(self)
        let store = Store(root: root)
        try store.save(DemoStore.neotrips)
        let dir = root.appendingPathComponent("services")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }
        var changed = DemoStore.neotrips
        changed.label = "Changed"
        XCTAssertThrowsError(try store.save(changed))
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Neotrips")
    }

    func testInvalidNamesAreNotWritten() throws {
        let root = try makeTempDir(self)
        for bad in ["../escape", "", ".hidden", "a/b", String(repeating: "n", count: 65), "spaced name"] {
            var s = DemoStore.neotrips
            s.name = bad
            XCTAssertThrowsError(try Store(root: root).save(s), bad)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("services").path))
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: root.deletingLastPathComponent().appendingPathComponent("escape.xml").path))
    }
}
