import XCTest

@testable import PushDeskCore
@testable import PushDeskFuzzing

/// Replays the committed fuzz corpus (Fixtures/fuzz/xml, Fixtures/fuzz/payload: the inputs
/// libFuzzer found that reach new code, and every input that once broke a promise) through
/// the same checks the fuzzer runs (`LoaderFuzz`, `PayloadFuzz`). scripts/fuzz finds them;
/// this keeps them passing in `make test`. docs/RELIABILITY.md has the runs.
final class FuzzCorpusTests: XCTestCase {
    private var corpus: URL { packageRoot.appendingPathComponent("Tests/PushDeskCoreTests/Fixtures/fuzz") }

    private func files(_ target: FuzzTarget) throws -> [URL] {
        let dir = corpus.appendingPathComponent(target.rawValue)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }.sorted()
            .map { dir.appendingPathComponent($0) }
    }

    private func replay(_ target: FuzzTarget) throws -> Int {
        let inputs = try files(target)
        for file in inputs {
            let problems = target.check(try Data(contentsOf: file))
            XCTAssertTrue(problems.isEmpty, "\(target.rawValue)/\(file.lastPathComponent):\n\(problems)")
        }
        return inputs.count
    }

    func testXMLCorpus() throws {
        XCTAssertGreaterThanOrEqual(try replay(.xml), 100, "the committed corpus (scripts/fuzz merge xml)")
    }

    func testPayloadCorpus() throws {
        XCTAssertGreaterThanOrEqual(try replay(.payload), 100, "the committed corpus (scripts/fuzz merge payload)")
    }

    /// The XML corpus through the store as well: each input as a service, a delivery and a
    /// profile file of one store, loaded by `Store.loadAll` and validated like `pushdesk
    /// validate` does; every file that does not load has a positioned, escaped error.
    func testXMLCorpusThroughTheStore() throws {
        let root = try makeTempDir(self)
        let store = Store(root: root)
        for folder in ["services", "deliveries", "profiles"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in try files(.xml) {
            let data = try Data(contentsOf: file)
            for path in ["services/x.xml", "deliveries/x.xml", "profiles/x.xml"] {
                try data.write(to: root.appendingPathComponent(path))
            }
            let snap = store.loadAll()
            XCTAssertEqual(
                snap.services.count + snap.deliveries.count + snap.profiles.count + snap.errors.count, 3,
                file.lastPathComponent)
            for e in snap.errors {
                XCTAssertNotNil(e.line, "\(file.lastPathComponent): \(e)")
                XCTAssertNotNil(e.column, "\(file.lastPathComponent): \(e)")
            }
            var problems = FuzzProblems()
            for f in StoreValidation.findings(snap, now: LoaderFuzz.now) { problems.checkSafe(f.formatted, f.rule) }
            XCTAssertTrue(problems.isEmpty, "\(file.lastPathComponent): \(problems)")
        }
    }

    // MARK: the checks themselves can fail

    /// A checker that never fails proves nothing: broken promises planted here are caught.
    func testTheChecksCatchBrokenPromises() throws {
        var p = FuzzProblems()
        p.checkSafe("services/a.xml:1:1: error: label \u{1B}[2J", "error")
        p.checkSafe("a\u{202E}b", "finding")
        p.checkSafe("a\u{200B}b", "finding")
        XCTAssertEqual(p.list.count, 3, p.description)
        p = FuzzProblems()
        p.checkSafe("👩‍👩‍👧 東京 e\u{301} \\u{1B}", "finding")
        XCTAssertTrue(p.isEmpty, "emoji joiners, CJK, marks and visible escapes are fine: \(p)")

        // A payload whose byte count is off by one, and one that escapes `/`.
        let preview = PreviewEngine.preview(
            delivery: DemoStore.summerSale, service: DemoStore.neotrips,
            profile: DemoStore.ana, appKey: nil, token: nil, now: LoaderFuzz.now)
        var target = try XCTUnwrap(preview.targets.first)
        p = FuzzProblems()
        PayloadCheck.target(&p, target)
        XCTAssertTrue(p.isEmpty, p.description)
        target.bytes += 1
        PayloadCheck.target(&p, target)
        XCTAssertTrue(p.description.contains("the counting rule says \(target.bytes - 1)"), p.description)
        p = FuzzProblems()
        PayloadCheck.checkCompactForm(&p, Array(#"{"a":"x\/y","b":"\u0041"}"#.utf8), "t")
        XCTAssertEqual(p.list.count, 2, p.description)

        // A loader error without a position.
        p = FuzzProblems()
        let bytes = [UInt8]("<service/>".utf8)
        XCTAssertNil(
            LoaderFuzz.load(&p, bytes, "services/fuzz.xml") { () throws -> Int in
                throw StoreError(file: "services/fuzz.xml", "no position")
            })
        XCTAssertTrue(p.description.contains("has no line:column"), p.description)
    }
}
