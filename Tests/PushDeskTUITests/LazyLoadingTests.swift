import XCTest
import PushDeskCore
@testable import PushDeskTUI

/// A large store opens on its names; the rest arrives from a background load.
final class LazyLoadingTests: XCTestCase {
    var root: URL!
    var store: Store!

    override func setUp() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-lazy-\(UUID().uuidString)")
        try DemoStore.write(to: root)
        store = Store(root: root)
        // More files than the threshold: copies of the demo service with their own keys.
        var s = DemoStore.neotrips
        for i in 0...ConsoleStore.lazyThreshold {
            s.name = String(format: "svc-%04d", i)
            s.label = "Label \(i)"
            for a in s.apps.indices { s.apps[a].integrationKey = "\(s.name)-\(a)" }
            try Data(try ServiceXML.encode(s).utf8).write(to: store.url(Store.servicePath(s.name)))
        }
    }
    override func tearDown() async throws { try? FileManager.default.removeItem(at: root) }

    func testNamesFirstThenLabelsAndFindings() throws {
        let cs = ConsoleStore.open(store)
        XCTAssertGreaterThan(cs.fileCount(), ConsoleStore.lazyThreshold)
        let app = ConsoleApp(store: cs, loadNow: false)
        XCTAssertTrue(app.loading)
        var b = app.render(width: 80, height: 24)
        let row = try XCTUnwrap(b.row(containing: "neotrips"), b.text)
        XCTAssertTrue(b.line(row).contains("loading…"), b.text)
        XCTAssertFalse(b.text.contains("Neotrips"), "no label before the load:\n\(b.text)")
        // Placeholders cannot be opened, deleted or copied; moving works.
        app.handle(.enter)
        XCTAssertEqual(app.message, ConsoleApp.stillLoading)
        XCTAssertTrue(app.top is ServicesListScreen)
        app.handle(.char("d"))
        XCTAssertNil(app.dialog)
        app.handle(.char("j"))
        b = app.render(width: 80, height: 24)
        XCTAssertTrue(b.text.contains("2/\(ConsoleStore.lazyThreshold + 2)"), b.text)

        app.finishLoading(cs.loadEverything())
        XCTAssertFalse(app.loading)
        b = app.render(width: 80, height: 24)
        let loaded = try XCTUnwrap(b.row(containing: "neotrips"), b.text)
        XCTAssertTrue(b.line(loaded).contains("Neotrips"), b.text)
        XCTAssertTrue(b.line(loaded).contains("ok"), b.text)
        XCTAssertTrue(b.text.contains("2/\(ConsoleStore.lazyThreshold + 2)"), "the selection stays:\n\(b.text)")
        app.handle(.enter)
        XCTAssertTrue(app.top is ServiceEditorScreen, "a loaded row opens")
    }

    func testSmallStoreLoadsBeforeTheFirstFrame() throws {
        let small = FileManager.default.temporaryDirectory.appendingPathComponent("pd-small-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: small) }
        try DemoStore.write(to: small)
        XCTAssertLessThanOrEqual(ConsoleStore.open(Store(root: small)).fileCount(), ConsoleStore.lazyThreshold)
    }

    /// The real binary in tmux: the list is there at once, labels follow without a key.
    func testTmuxLargeStoreFillsInWithoutAKey() throws {
        _ = try TmuxHarness.requirements()
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", root.path])
        t.waitFor("svc-0000")
        t.waitFor("Label 0")          // filled in by the background load, no key pressed
        t.keys("Enter")
        t.waitFor("Service neotrips")  // the first row (sorted names) opens in the editor
        t.keys("Escape"); t.keys("C-q")
    }
}
