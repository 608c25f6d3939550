import XCTest

@testable import PushDeskCore

/// Temp files of saves killed mid-write are removed at store open, only when their writer
/// is gone or they are old.
final class StaleTempFilesTests: XCTestCase {
    func testOnlyDeadOrOldWritersTempFilesAreRemoved() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let dead = try deadPid()
        let live = getpid()
        let services = root.appendingPathComponent("services")
        func touch(_ name: String, age: TimeInterval = 0, in dir: URL? = nil) throws {
            let u = (dir ?? services).appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<service".utf8).write(to: u)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: u.path)
        }
        try touch(".neotrips.xml.tmp-\(dead)-12345")  // writer gone
        try touch(".neotrips.xml.tmp-\(live)-777")  // writer alive, fresh: kept (mid-save)
        try touch(".other.xml.tmp-\(live)-778", age: 3600)  // alive pid but an hour old: the pid was reused
        try touch(".x.tmp-\(dead)-1", in: root.appendingPathComponent("secrets"))
        try touch(".alice@h.1.xml.tmp-\(dead)-9", in: root.appendingPathComponent(".pushdesk/recovery"))
        try touch("notes.tmp-\(dead)-1")  // not ours (no leading dot)
        try touch(".neotrips.xml.tmp-abc-1")  // not ours (pid not a number)
        try FileManager.default.createSymbolicLink(
            atPath: services.appendingPathComponent(".l.xml.tmp-\(dead)-2").path, withDestinationPath: "/etc/passwd")

        let removed = StaleTempFiles.clean(storeRoot: root)
        XCTAssertEqual(
            Set(removed),
            [
                "services/.neotrips.xml.tmp-\(dead)-12345", "services/.other.xml.tmp-\(live)-778",
                "secrets/.x.tmp-\(dead)-1", ".pushdesk/recovery/.alice@h.1.xml.tmp-\(dead)-9",
            ])
        let left = try FileManager.default.contentsOfDirectory(atPath: services.path)
        XCTAssertTrue(left.contains(".neotrips.xml.tmp-\(live)-777"))
        XCTAssertTrue(left.contains("notes.tmp-\(dead)-1"))
        XCTAssertTrue(left.contains(".neotrips.xml.tmp-abc-1"))
        XCTAssertTrue(left.contains(".l.xml.tmp-\(dead)-2"), "symbolic links are left alone")
        XCTAssertTrue(left.contains("neotrips.xml"))
        XCTAssertNoThrow(try Store(root: root).load(Service.self, "neotrips"))
    }

    /// What AtomicFile leaves when a save dies between write and rename is what gets cleaned.
    func testTheNamesAtomicFileLeavesAreRecognised() throws {
        let root = try makeTempDir(self)
        struct Boom: Error {}
        AtomicFile.beforeRenameHook = { throw Boom() }
        defer { AtomicFile.beforeRenameHook = nil }
        // The hook throws, AtomicFile unlinks its temp file; record the name it used instead.
        var seen: [String] = []
        AtomicFile.beforeRenameHook = {
            seen = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            throw Boom()
        }
        XCTAssertThrowsError(try AtomicFile.write(Array("x".utf8), to: root.appendingPathComponent("a.xml")))
        let tmp = try XCTUnwrap(seen.first { $0.hasPrefix(".a.xml.tmp-") })
        XCTAssertEqual(StaleTempFiles.writerPid(tmp), getpid())
        XCTAssertNil(StaleTempFiles.writerPid("a.xml"))
        XCTAssertNil(StaleTempFiles.writerPid(".tmp-1-2"))
    }
}
