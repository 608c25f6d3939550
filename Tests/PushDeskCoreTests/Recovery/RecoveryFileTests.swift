import XCTest

@testable import PushDeskCore

/// Recovery files: exact round trip of drafts, mode 0600, never read as records.
final class RecoveryFileTests: XCTestCase {
    func sample() throws -> RecoveryFile {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let (_, _, fp) = try Store(root: root).loadRecord(Service.self, "neotrips")
        var edited = DemoStore.neotrips
        edited.label = "Neotrips ✈︎ 東京 \"quoted\" <tag> & co"
        let fresh = Service(name: "", label: "")
        return RecoveryFile(
            user: "alice", host: "build-01", pid: 4242, written: Date(timeIntervalSince1970: 1_780_000_000),
            reason: .hangup,
            entries: [
                RecoveryEntry(
                    kind: .service, name: "neotrips", original: "neotrips", baseline: .read(fp),
                    xml: RecoveryXML.service(edited).bytes),
                RecoveryEntry(
                    kind: .service, name: "", original: nil, baseline: .absent,
                    xml: RecoveryXML.service(fresh).bytes),
            ])
    }

    func testRoundTripIsExact() throws {
        let f = try sample()
        let bytes = try f.encode()
        let back = try RecoveryFile.decode(Data(bytes), file: "r.xml")
        XCTAssertEqual(back, f)
        // The drafts decode to the same services.
        let s = try ServiceXML.decode(Data(back.entries[0].xml), file: "x").0
        XCTAssertEqual(s.label, "Neotrips ✈︎ 東京 \"quoted\" <tag> & co")
        let empty = try ServiceXML.decode(Data(back.entries[1].xml), file: "x").0
        XCTAssertEqual(empty, Service(name: "", label: ""), "an unnamed new service comes back as it was")
        XCTAssertEqual(back.entries[1].summary, "new service (no name yet)")
        XCTAssertTrue(
            String(decoding: bytes, as: UTF8.self).hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<recovery format=\"1\" user=\"alice\" host=\"build-01\" pid=\"4242\" written=\"2026-05-28T20:26:40Z\" reason=\"hangup\">\n  <draft kind=\"service\" name=\"neotrips\" original=\"neotrips\" baselineSize="
            ))
    }

    func testWrittenMode0600InTheStoreButNeverAsARecord() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let rs = RecoveryStore(storeRoot: root)
        let rel = RecoveryStore.relativePath(user: "alice", host: "build-01", pid: 4242)
        XCTAssertEqual(rel, ".pushdesk/recovery/alice@build-01.4242.xml")
        XCTAssertEqual(
            RecoveryStore.relativePath(user: "../x", host: "h/ost", pid: 1), ".pushdesk/recovery/_.._x@h_ost.1.xml")
        var f = try sample()
        f.user = ProcessIdentity.user
        f.host = "other-host"
        try rs.write(f, to: rel)
        let attrs = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(rel).path)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let store = Store(root: root)
        XCTAssertEqual(try store.names(Service.self), ["neotrips"])
        XCTAssertTrue(store.loadAll().errors.isEmpty)
        let found = rs.pending(user: ProcessIdentity.user)
        XCTAssertEqual(found.map(\.path), [rel])
        XCTAssertEqual(try found[0].file.get().entries.count, 2)
        XCTAssertTrue(rs.pending(user: "bob").isEmpty, "another user's drafts are not offered")
        XCTAssertTrue(rs.pending(user: ProcessIdentity.user, excluding: rel).isEmpty)
        try rs.remove(rel)
        XCTAssertTrue(rs.pending(user: ProcessIdentity.user).isEmpty)
    }

    /// A file is offered even while its writer is still finishing its exit: the writer
    /// wrote it before letting the lock go, and only the lock holder asks.
    func testAFileOfAProcessStillExitingIsOffered() throws {
        let root = try makeTempDir(self)
        var f = try sample()
        f.user = ProcessIdentity.user
        f.host = ProcessIdentity.host
        let rs = RecoveryStore(storeRoot: root)
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer {
            sleeper.terminate()
            sleeper.waitUntilExit()
        }
        f.pid = sleeper.processIdentifier
        let rel = RecoveryStore.relativePath(user: f.user, host: f.host, pid: f.pid)
        try rs.write(f, to: rel)
        XCTAssertEqual(rs.pending(user: f.user).map(\.path), [rel])
    }

    func testBrokenRecoveryFileIsReportedWithPosition() throws {
        let root = try makeTempDir(self)
        let rs = RecoveryStore(storeRoot: root)
        try FileManager.default.createDirectory(at: rs.directory, withIntermediateDirectories: true)
        let bad =
            "<?xml version=\"1.0\"?>\n<recovery format=\"1\" user=\"\(ProcessIdentity.user)\" host=\"h\" pid=\"1\" written=\"2026-01-01T00:00:00Z\" reason=\"hangup\">\n  <draft kind=\"service\" name=\"x\">!!not base64!!</draft>\n</recovery>\n"
        try bad.write(to: rs.directory.appendingPathComponent("x.xml"), atomically: true, encoding: .utf8)
        let found = rs.pending(user: ProcessIdentity.user)
        XCTAssertEqual(found.count, 1)
        guard case .failure(let e) = found[0].file else { return XCTFail("decoded garbage") }
        XCTAssertEqual(e.description, ".pushdesk/recovery/x.xml:3:3: error: the draft's content is not base64")
        XCTAssertThrowsError(try RecoveryFile.decode(Data("<service/>".utf8), file: "r.xml")) {
            XCTAssertTrue("\($0)".contains("a recovery file starts with <recovery>"), "\($0)")
        }
        XCTAssertThrowsError(
            try RecoveryFile.decode(Data("<!DOCTYPE x [<!ENTITY a 'b'>]><recovery/>".utf8), file: "r.xml"),
            "DTDs are refused like everywhere")
    }

    /// A pasted control character cannot go into XML: the draft is still written, with
    /// U+FFFD in its place, and the entry says so.
    func testUnencodableDraftIsKeptWithReplacement() throws {
        var s = DemoStore.neotrips
        s.label = "bad\u{1b}[31m"
        let (bytes, replaced) = RecoveryXML.service(s)
        XCTAssertTrue(replaced)
        XCTAssertEqual(try ServiceXML.decode(Data(bytes), file: "x").0.label, "bad\u{FFFD}[31m")
        XCTAssertFalse(RecoveryXML.service(DemoStore.neotrips).replaced)
    }
}
