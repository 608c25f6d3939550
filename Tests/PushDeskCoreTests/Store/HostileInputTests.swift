import XCTest

@testable import PushDeskCore

/// The hostile-input catalogue: each file under Fixtures/hostile is dropped into a fresh
/// demo store and `pushdesk validate` must print exactly the expected lines (EXPECTED.tsv),
/// exit with the expected code, modify nothing, and never let a control character through.
final class HostileInputTests: XCTestCase {
    private var fixtures: URL { packageRoot.appendingPathComponent("Tests/PushDeskCoreTests/Fixtures/hostile") }

    private func runValidate(placing data: Data, at relative: String) throws -> (CommandResult, changed: Bool) {
        try runValidate(at: relative) { try data.write(to: $0) }
    }

    /// `pushdesk validate` on a demo store with `plant` run on the path first; killed after
    /// 20 s (exit 124), so a file that blocks a read fails the case instead of hanging it.
    private func runValidate(at relative: String, plant: (URL) throws -> Void) throws -> (
        CommandResult, changed: Bool
    ) {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        try plant(root.appendingPathComponent(relative))
        let before = try snapshotFiles(root)
        let binary = try builtPushDesk().path
        let r = try runProcess("/usr/bin/timeout", ["20", binary, "validate", "--store", root.path])
        return (r, try snapshotFiles(root) != before)
    }

    /// A catalogue row whose file is not committed: `mkfifo:PATH` plants a FIFO, `mkdir:PATH`
    /// a directory (nothing else can stand for them in a repository).
    private func plant(_ column: String) -> (relative: String, plant: (URL) throws -> Void)? {
        if column.hasPrefix("mkfifo:") {
            return (String(column.dropFirst(7)), { XCTAssertEqual(mkfifo($0.path, 0o644), 0) })
        }
        if column.hasPrefix("mkdir:") {
            return (
                String(column.dropFirst(6)),
                { try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: true) }
            )
        }
        return nil
    }

    private func assertSafe(_ text: String, _ what: String) {
        let scalars = Array(text.unicodeScalars)
        let bad = scalars.indices.first { i in
            scalars[i] != "\n"
                && Escape.mustEscape(
                    scalars[i], previous: i > 0 ? scalars[i - 1] : nil,
                    next: i + 1 < scalars.count ? scalars[i + 1] : nil)
        }.map { scalars[$0] }
        XCTAssertNil(bad, "\(what): a control character reached the output: \(text.debugDescription)")
    }

    func testCatalogue() throws {
        let table = try String(contentsOf: fixtures.appendingPathComponent("EXPECTED.tsv"), encoding: .utf8)
        var count = 0
        for row in table.split(separator: "\n") where !row.hasPrefix("#") {
            let cols = row.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            let (file, exit, expected) = (cols[0], Int32(cols[1])!, cols[2].replacingOccurrences(of: "\\n", with: "\n"))
            let start = Date()
            if file.hasPrefix("$ ") {
                try runCommandRow(file, exit: exit, expected: expected)
                count += 1
                continue
            }
            let (r, changed) =
                try plant(file).map { try runValidate(at: $0.relative, plant: $0.plant) }
                ?? runValidate(placing: try Data(contentsOf: fixtures.appendingPathComponent(file)), at: file)
            XCTAssertEqual(r.status, exit, file)
            XCTAssertEqual(r.stderr.trimmingCharacters(in: .newlines), expected, file)
            XCTAssertFalse(changed, "\(file): the store was modified")
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(file): too slow")
            assertSafe(r.stderr + r.stdout, file)
            count += 1
        }
        XCTAssertGreaterThanOrEqual(count, 40)
    }

    /// A command row (`$ +services/x.xml handoff x`): the fixtures named with `+` are put
    /// into a fresh demo store, then `pushdesk ARGS --store STORE` runs (`{store}` in ARGS
    /// stands for the store instead, `{stdin:TEXT}` is given on standard input); `\u{…}` in
    /// ARGS is that character. Standard error must be exactly the expected lines and nothing
    /// either stream prints may hold a character the escape rule flags.
    private func runCommandRow(_ row: String, exit: Int32, expected: String) throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        var args: [String] = []
        var stdin: String?
        for token in row.dropFirst(2).split(separator: " ").map(String.init) {
            if token.hasPrefix("+") {
                let rel = String(token.dropFirst())
                try Data(contentsOf: fixtures.appendingPathComponent(rel)).write(to: root.appendingPathComponent(rel))
            } else if token.hasPrefix("{stdin:"), token.hasSuffix("}") {
                stdin = String(token.dropFirst(7).dropLast())
            } else {
                args.append(Self.decodeEscapes(token.replacingOccurrences(of: "{store}", with: root.path)))
            }
        }
        if !row.contains("{store}") { args += ["--store", root.path] }
        let binary = packageRoot.appendingPathComponent(".build/debug/pushdesk").path
        let r = try runProcess("/usr/bin/timeout", ["20", binary] + args, stdin: stdin)
        XCTAssertEqual(r.status, exit, row)
        XCTAssertEqual(
            r.stderr.trimmingCharacters(in: .newlines),
            expected.replacingOccurrences(of: "{store}", with: root.path), row)
        assertSafe(r.stderr + r.stdout, row)
    }

    /// `\u{1B}` → ESC (the catalogue is text; its arguments need the raw characters).
    private static func decodeEscapes(_ s: String) -> String {
        var out = ""
        var rest = Substring(s)
        while let r = rest.range(of: "\\u{") {
            out += rest[..<r.lowerBound]
            guard let close = rest[r.upperBound...].firstIndex(of: "}"),
                let v = UInt32(rest[r.upperBound..<close], radix: 16), let scalar = Unicode.Scalar(v)
            else {
                out += rest[r]
                rest = rest[r.upperBound...]
                continue
            }
            out.unicodeScalars.append(scalar)
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
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
