import XCTest

@testable import PushDeskCore

/// What the faster loader must keep: positions found on demand equal to a recorded read,
/// store order and errors with files read in parallel, entity-escaped `&` in attributes.
final class LoadPerformanceTests: XCTestCase {
    var root: URL!

    override func setUp() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-load-\(UUID().uuidString)")
        try DemoStore.write(to: root)
    }
    override func tearDown() async throws { try? FileManager.default.removeItem(at: root) }

    func testSourceMapFoundOnDemandPointsAtTheAttribute() throws {
        let path = Service.path("neotrips")
        let data = try Data(contentsOf: root.appendingPathComponent(path))
        let (_, map) = try ServiceXML.decode(data, file: path)
        let recorder = SourceMapRecorder()
        _ = try ServiceXML.decode(data, file: path, recording: recorder)
        XCTAssertEqual(map.positions, recorder.positions)
        XCTAssertGreaterThan(map.positions.count, 20)
        // The position is where `integrationKey="neotrips-ios"` stands in the text.
        let p = try XCTUnwrap(map.position(of: "apps[1].integrationKey"))
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = String(lines[p.line - 1])
        let column =
            try XCTUnwrap(line.range(of: "integrationKey=\"neotrips-ios\"")).lowerBound.utf16Offset(in: line) + 1
        XCTAssertEqual(p.column, column, line)
    }

    func testParallelLoadKeepsNameOrderAndEveryError() throws {
        let store = Store(root: root)
        var s = DemoStore.neotrips
        for i in (0..<120).reversed() {
            s.name = String(format: "svc-%03d", i)
            for a in s.apps.indices { s.apps[a].integrationKey = "\(s.name)-\(a)" }
            try Data(try ServiceXML.encode(s).utf8).write(to: store.url(Service.path(s.name)))
        }
        try Data("<service".utf8).write(to: store.url(Service.path("svc-050")))
        try Data("<delivery/>".utf8).write(to: store.url(Service.path("svc-099")))
        let snap = store.loadAll()
        XCTAssertEqual(
            snap.services.map(\.name), (try store.names(Service.self)).filter { $0 != "svc-050" && $0 != "svc-099" })
        XCTAssertEqual(snap.errors.map(\.file), ["services/svc-050.xml", "services/svc-099.xml"])
        XCTAssertTrue(snap.errors[1].message.contains("root element is <delivery>"), snap.errors[1].message)
        XCTAssertEqual(snap.deliveries.map(\.name), ["catalog-refresh", "summer-sale"])
        XCTAssertEqual(snap.fingerprints.count, 118 + 1 + 2 + 1, "services, deliveries and the profile")

        // Read-only (validate, list): the same records and errors, no hashing.
        let plain = store.loadAll(readOnly: true)
        XCTAssertEqual(plain.services, snap.services)
        XCTAssertEqual(plain.deliveries, snap.deliveries)
        XCTAssertEqual(plain.errors.map(\.description), snap.errors.map(\.description))
        XCTAssertTrue(plain.fingerprints.isEmpty)
        // Its source maps read the file again: the same positions…
        for (file, map) in snap.sourceMaps { XCTAssertEqual(plain.sourceMaps[file]?.positions, map.positions, file) }
    }

    /// …unless the file changed meanwhile: then no position rather than a wrong one.
    func testSourceMapOfAChangedFileHasNoPositions() throws {
        let store = Store(root: root)
        let path = Service.path("neotrips")
        // The maps keep no bytes but find what a recording read finds.
        let (_, recorded) = try ServiceXML.decode(try Data(contentsOf: store.url(path)), file: path)
        XCTAssertEqual(store.loadAll().sourceMaps[path]?.positions, recorded.positions)
        let plain = store.loadAll(readOnly: true)
        let full = store.loadAll()
        var s = try store.load(Service.self, "neotrips")
        s.label = "Neotrips, relabelled"
        try store.save(s)
        XCTAssertNil(plain.sourceMaps[path]?.position(of: "label"))
        XCTAssertNil(full.sourceMaps[path]?.position(of: "label"))
        XCTAssertNotNil(store.loadAll(readOnly: true).sourceMaps[path]?.position(of: "label"))
        XCTAssertNotNil(store.loadAll().sourceMaps[path]?.position(of: "label"))
    }

    /// The buffer grows past the announced size and an empty file reads as no bytes.
    func testReadBytesWholeFileAndEmptyFile() throws {
        let big = root.appendingPathComponent("big.bin")
        let empty = root.appendingPathComponent("empty.bin")
        let bytes = (0..<200_000).map { UInt8($0 % 251) }
        try Data(bytes).write(to: big)
        try Data().write(to: empty)
        let (data, fp) = try XCTUnwrap(try FileFingerprint.read(big))
        XCTAssertEqual(Array(data), bytes)
        XCTAssertEqual(fp.size, bytes.count)
        XCTAssertEqual(try XCTUnwrap(try FileFingerprint.read(empty)).0.count, 0)
        XCTAssertNil(try FileFingerprint.read(root.appendingPathComponent("none.bin")))
        XCTAssertThrowsError(try FileFingerprint.read(big, maxBytes: 1000))
    }

    func testEscapedAmpersandsInAttributesAreOneAmpersand() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <service format="1" name="a" label="A &amp; B &#38; C &#x26; D &lt;&amp;&gt;" marketingUrl="https://m/?x=1&amp;y=2"/>
            """
        let (s, _) = try ServiceXML.decode(Data(xml.utf8), file: "services/a.xml")
        XCTAssertEqual(s.label, "A & B & C & D <&>")
        XCTAssertEqual(s.marketingUrl, "https://m/?x=1&y=2")
    }

    func testParallelMapKeepsOrder() {
        let input = Array(0..<1000)
        XCTAssertEqual(Parallel.map(input) { $0 * 2 }, input.map { $0 * 2 })
        XCTAssertEqual(Parallel.map([3, 1]) { $0 + 1 }, [4, 2])
    }
}
