import PushDeskCore
import XCTest

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
            try Data(try ServiceXML.encode(s).utf8).write(to: store.url(Service.path(s.name)))
        }
    }
    override func tearDown() async throws { try? FileManager.default.removeItem(at: root) }

    func testNamesFirstThenLabelsAndFindings() throws {
        let cs = ConsoleStore.open(store)
        XCTAssertGreaterThan(cs.fileCount(), ConsoleStore.lazyThreshold)
        let app = ConsoleApp(store: cs, loadNow: false)
        XCTAssertTrue(app.loading)
        assertScreen(app, "namesOnlyWhileLoading", width: 80, height: 24)  // no label before the load
        // Placeholders cannot be opened, deleted or copied; moving works.
        app.handle(.enter)
        XCTAssertEqual(app.message, KeyRegistry.stillLoading)
        XCTAssertTrue(app.top is ServicesListScreen)
        app.handle(.char("d"))
        XCTAssertNil(app.dialog)
        // Nor can the deliveries lists, the findings view or a lock take-over (a reload) start.
        for key: Key in [.char("D"), .ctrl("y"), .ctrl("f"), .ctrl("x")] {
            app.say(nil)
            app.handle(key)
            XCTAssertEqual(app.message, KeyRegistry.stillLoading, "\(key)")
            XCTAssertTrue(app.top is ServicesListScreen, "\(key)")
        }
        app.handle(.char("j"))
        assertScreen(app, "movingWhileLoading", width: 80, height: 24)

        app.finishLoading(cs.loadEverything())
        XCTAssertFalse(app.loading)
        assertScreen(app, "loadedTheSelectionStays", width: 80, height: 24)
        app.handle(.enter)
        XCTAssertTrue(app.top is ServiceEditorScreen, "a loaded row opens")

        // The background load brought the deliveries and profiles the composer needs.
        app.handle(.escape)
        app.handle(.char("k"))
        app.handle(.char("D"))
        assertScreen(app, "deliveriesAfterTheLoad", width: 120, height: 30)
        XCTAssertEqual(app.profiles.map(\.name), [DemoStore.ana.name])
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
        t.waitFor("Label 0")  // filled in by the background load, no key pressed
        t.keys("Enter")
        t.waitFor("Service neotrips")  // the first row (sorted names) opens in the editor
        t.keys("Escape")
        t.keys("C-q")
    }

    /// The lock is taken before the first frame, and unsaved work left by a dropped console
    /// is offered once the background load is in (restoring needs the loaded files).
    func testTmuxLockAtOnceAndRecoveryOfferAfterTheLoad() throws {
        _ = try TmuxHarness.requirements()
        do {
            let t = try TmuxHarness(width: 80, height: 24, args: ["--store", root.path])
            t.waitFor("Label 0")
            t.keys("Enter")
            t.waitFor("Marketing URL")
            t.keys("Tab", "End")
            t.type(" lazy")
            t.waitFor("Neotrips lazy")
            let pid = try XCTUnwrap(t.consolePid())
            kill(pid, SIGTERM)
            t.waitFor("PD-EXIT=143")
        }
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", root.path])
        t.waitFor("svc-0000")
        // A second console started now is read-only: the first took the lock before its first frame.
        let other = try TmuxHarness(width: 80, height: 24, args: ["--store", root.path])
        other.waitFor("[read-only]")
        other.keys("C-q")
        other.waitFor("PD-END")
        assertScreen(t, t.waitFor("[ Later ]"), "recoveryOfferedAfterTheLoad")
        t.keys("r")
        assertScreen(t, t.waitFor("Restored 1 draft as unsaved"), "restored")
        t.keys("C-s")
        t.waitFor("Saved services/neotrips.xml")
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Neotrips lazy")
        t.keys("Escape")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }
}
