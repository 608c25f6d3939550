import XCTest

@testable import PushDeskCore

/// The hostile-input catalogue: each file under Fixtures/hostile is dropped into a fresh
/// demo store and `pushdesk validate` must print exactly the expected lines (EXPECTED.tsv),
/// exit with the expected code, modify nothing, and never let a control character through.
final class HostileInputTests: XCTestCase {
    private var fixtures: URL { packageRoot.appendingPathComponent("Tests/PushDeskCoreTests/Fixtures/hostile") }

    private func runValidate(placing data: Data, at relative: String) throws -> (CommandResult, changed: Bool) {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        try data.write(to: root.appendingPathComponent(relative))
        let before = try snapshotFiles(root)
        let r = try runPushDesk(["validate", "--store", root.path])
        return (r, try snapshotFiles(root) != before)
    }

    private func assertSafe(_ text: String, _ what: String) {
        let bad = text.unicodeScalars.first { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        XCTAssertNil(bad, "\(what): a control character reached the output: \(text.debugDescription)")
    }

    func testCatalogue() throws {
        let table = try String(contentsOf: fixtures.appendingPathComponent("EXPECTED.tsv"), encoding: .utf8)
        var count = 0
        for row in table.split(separator: "\n") where !row.hasPrefix("#") {
            let cols = row.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            let (file, exit, expected) = (cols[0], Int32(cols[1])!, cols[2].replacingOccurrences(of: "\\n", with: "\n"))
            let start = Date()
            let (r, changed) = try runValidate(
                placing: try Data(contentsOf: fixtures.appendingPathComponent(file)), at: file)
            XCTAssertEqual(r.status, exit, file)
            XCTAssertEqual(r.stderr.trimmingCharacters(in: .newlines), expected, file)
            XCTAssertFalse(changed, "\(file): the store was modified")
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(file): too slow")
            assertSafe(r.stderr + r.stdout, file)
            count += 1
        }
        XCTAssertGreaterThanOrEqual(count, 40)
    }

    /// Cases too large to commit are generated here.
    func testGeneratedHugeInputsAreRefusedQuicklyWithAPosition() throws {
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let cases: [(String, Data, String)] = [
            (
                "100 MB file", Data(count: 100 * 1024 * 1024),
                "services/huge.xml:1:1: error: the file is 100 MB; PushDesk files are at most 8 MB"
            ),
            (
                "100k-deep nesting",
                Data((head + "<service format=\"1\" name=\"huge\">" + String(repeating: "<a>", count: 100_000)).utf8),
                "services/huge.xml:2:126: error: elements nested deeper than 32 levels"
            ),
            (
                "1 MB attribute",
                Data(
                    (head + "<service format=\"1\" name=\"huge\" label=\"" + String(repeating: "x", count: 1 << 20)
                        + "\"/>").utf8),
                "services/huge.xml:2:33: error: the value of `label` on <service> is 1048576 bytes; at most 16384 are accepted"
            ),
        ]
        for (what, data, expected) in cases {
            let start = Date()
            let (r, changed) = try runValidate(placing: data, at: "services/huge.xml")
            XCTAssertEqual(r.status, 1, what)
            XCTAssertTrue(r.stderr.hasPrefix(expected), "\(what): \(r.stderr.prefix(300))")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, what)
            XCTAssertFalse(changed, what)
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, what)
        }
    }

    func testSymlinkOutsideTheStoreReadOnlyStoreAndMissingStore() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let outside = root.deletingLastPathComponent().appendingPathComponent("secret.xml")
        try Data("<?xml version=\"1.0\"?><service format=\"1\" name=\"link\"/>".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("services/link.xml"), withDestinationURL: outside)
        let r = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(
            r.stderr.hasPrefix(
                "services/link.xml:1:1: error: is a symbolic link to \(outside.path), outside the store"), r.stderr)

        let missing = try runPushDesk(["list", "--store", root.appendingPathComponent("missing").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("error: no store here; create one with `pushdesk init"), missing.stderr)

        // A store that cannot be written: `init` over a file says so, exit 2, nothing created.
        let file = root.deletingLastPathComponent().appendingPathComponent("plainfile")
        try Data("x".utf8).write(to: file)
        let ro = try runPushDesk(["init", file.appendingPathComponent("store").path])
        XCTAssertEqual(ro.status, 2)
        XCTAssertTrue(ro.stderr.contains("error: cannot create the store"), ro.stderr)
    }
}
