import XCTest

@testable import PushDeskCore

/// Before writing, the store checks the file is what was read (size + SHA-256 of the bytes);
/// a file changed on disk meanwhile is never overwritten.
final class StoreConflictTests: XCTestCase {
    func demoStore() throws -> (Store, URL) {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        return (Store(root: root), root.appendingPathComponent("services/neotrips.xml"))
    }

    func testFingerprintIsOfTheBytesRead() throws {
        let (store, file) = try demoStore()
        let (_, _, fp) = try store.loadRecord(Service.self, "neotrips")
        let bytes = try Data(contentsOf: file)
        XCTAssertEqual(fp.size, bytes.count)
        XCTAssertEqual(fp, try FileFingerprint.current(file))
        XCTAssertEqual(fp.sha256.count, 64)
        XCTAssertEqual(store.loadAll().fingerprints[Service.path("neotrips")], fp)
        XCTAssertNil(try store.fingerprint("services/none.xml"))
    }

    /// The hash is SHA-256 in lower-case hex (FIPS 180-2 test vectors).
    func testFingerprintHashIsSHA256Hex() {
        XCTAssertEqual(
            FileFingerprint(bytes: Array("abc".utf8), modified: Date()).sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            FileFingerprint(bytes: [UInt8](), modified: Date()).sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testUnchangedFileSavesAndReturnsTheNextBaseline() throws {
        let (store, file) = try demoStore()
        var (s, _, fp) = try store.loadRecord(Service.self, "neotrips")
        s.label = "Neotrips 2"
        let next = try store.save(s, baseline: .read(fp))
        XCTAssertTrue(next.matches(try FileFingerprint.current(file)!))
        s.label = "Neotrips 3"
        XCTAssertNoThrow(
            try store.save(s, baseline: .read(next)), "the returned fingerprint is the baseline of the next save")
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Neotrips 3")
    }

    func testChangedOnDiskIsNeverOverwritten() throws {
        let (store, file) = try demoStore()
        var (s, _, fp) = try store.loadRecord(Service.self, "neotrips")
        // Someone edits the file by hand meanwhile.
        let theirs = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: #"label="Neotrips""#, with: #"label="Theirs""#)
        try theirs.write(to: file, atomically: true, encoding: .utf8)
        s.label = "Mine"
        XCTAssertThrowsError(try store.save(s, baseline: .read(fp))) { e in
            guard let c = e as? StoreConflict else { return XCTFail("\(e)") }
            XCTAssertEqual(c.file, "services/neotrips.xml")
            XCTAssertEqual(c.current?.size, theirs.utf8.count)
            XCTAssertTrue(c.description.contains("changed on disk since it was read"), c.description)
            XCTAssertTrue(c.description.contains("nothing was written"), c.description)
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), theirs, "their version is intact")
    }

    func testSameBytesWithANewTimeIsNotAConflict() throws {
        let (store, file) = try demoStore()
        var (s, _, fp) = try store.loadRecord(Service.self, "neotrips")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: file.path)
        s.label = "Touched is fine"
        XCTAssertNoThrow(try store.save(s, baseline: .read(fp)))
    }

    func testDeletedOnDiskAndCreatedMeanwhile() throws {
        let (store, file) = try demoStore()
        let (s, _, fp) = try store.loadRecord(Service.self, "neotrips")
        try FileManager.default.removeItem(at: file)
        XCTAssertThrowsError(try store.save(s, baseline: .read(fp))) { e in
            XCTAssertTrue("\(e)".contains("was deleted on disk"), "\(e)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "not recreated behind the other's back")
        // A new record whose file someone else created meanwhile.
        try store.save(s)
        var fresh = s
        fresh.label = "Mine"
        XCTAssertThrowsError(try store.save(fresh, baseline: .absent)) { e in
            XCTAssertTrue("\(e)".contains("was created on disk by someone else"), "\(e)")
        }
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Neotrips")
    }

    func testDeleteChecksTheBaselineToo() throws {
        let (store, file) = try demoStore()
        let (_, _, fp) = try store.loadRecord(Service.self, "neotrips")
        try (String(contentsOf: file, encoding: .utf8) + "<!-- edited -->\n").write(
            to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try store.delete(Service.path("neotrips"), baseline: fp)) {
            XCTAssertTrue($0 is StoreConflict)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
        let now = try store.fingerprint(Service.path("neotrips"))!
        try store.delete(Service.path("neotrips"), baseline: now)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }
}
