import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The composer under the store's lock, save conflicts and recovery files: the same paths
/// as the service editor's (ReliabilityScreenTests), with a delivery.
final class ComposerReliabilityTests: DemoStoreConsoleTestCase {
    var summer: URL { root.appendingPathComponent("deliveries/summer-sale.xml") }

    func screen(_ a: ConsoleApp) -> String { a.render(width: 120, height: 40).text }
    func assertShown(_ a: ConsoleApp, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        // 160 columns: a status line naming the host and a pid is cut where their length says.
        assertScreen(a, name, width: 160, height: 40, machine: true, file: file, line: line)
    }

    /// Composer on summer-sale, cursor at the end of the title, `text` typed.
    func editTitle(_ a: ConsoleApp, _ text: String) {
        a.handle(.char("D"))
        a.handle(.char("j"))
        a.handle(.enter)
        a.focus(field: "content.title")
        type(a, text)
    }

    func testChangedOnDiskIsAConflictThenSaveAsCopy() throws {
        let a = app()
        editTitle(a, " (mine)")
        let theirs = try String(contentsOf: summer, encoding: .utf8).replacingOccurrences(
            of: "Summer is here", with: "Theirs")
        try theirs.write(to: summer, atomically: true, encoding: .utf8)
        a.handle(.ctrl("s"))
        assertShown(a, "changedOnDisk")
        XCTAssertEqual(try String(contentsOf: summer, encoding: .utf8), theirs, "never overwritten")
        a.handle(.char("s"))  // Save as copy
        assertShown(a, "saveAsCopyAsksANewName")
        a.handle(.enter)
        XCTAssertEqual(try store.load(Delivery.self, "summer-sale-copy").content.title, "Summer is here (mine)")
        XCTAssertEqual(try String(contentsOf: summer, encoding: .utf8), theirs)
        assertShown(a, "savedAsCopy")
    }

    func testReloadTakesTheDiskVersion() throws {
        let a = app()
        editTitle(a, " (mine)")
        let theirs = try String(contentsOf: summer, encoding: .utf8).replacingOccurrences(
            of: "Summer is here", with: "Theirs")
        try theirs.write(to: summer, atomically: true, encoding: .utf8)
        a.handle(.ctrl("s"))
        a.handle(.char("r"))
        assertShown(a, "reloadedThePreviewFollowsTheFile")
    }

    func testDirtyComposerIsRecoveredAndRestoredInTheComposer() throws {
        let old = RecoveryKeeper(storeRoot: root, interval: 30, pid: try deadPid())
        let first = app(keeper: old)
        editTitle(first, " — last call")
        let entries = first.recoveryEntries()
        XCTAssertEqual(entries.map(\.kind), [.delivery])
        XCTAssertEqual(entries.first?.summary, "delivery summer-sale")
        XCTAssertTrue(
            String(decoding: entries[0].xml, as: UTF8.self).contains("<title>Summer is here — last call</title>"))
        XCTAssertTrue(old.writeNow(entries, reason: .hangup))

        let keeper = RecoveryKeeper(storeRoot: root, interval: 30)
        let a = app(keeper: keeper)
        a.offerPendingRecovery()
        assertShown(a, "recoveryOffer")
        a.handle(.char("r"))  // Restore
        let composer = try XCTUnwrap(a.stack.last as? ComposerScreen, "restored into the composer")
        XCTAssertEqual(composer.s.draft.content.title, "Summer is here — last call")
        XCTAssertTrue(composer.s.isDirty)
        XCTAssertEqual(
            try store.load(Delivery.self, "summer-sale").content.title, "Summer is here", "restored, not saved")
        a.handle(.ctrl("s"))
        XCTAssertEqual(try store.load(Delivery.self, "summer-sale").content.title, "Summer is here — last call")
    }

    func testReadOnlyComposerChangesNothing() throws {
        guard
            case .acquired(let first, _) = try StoreLock.acquire(
                storeRoot: root,
                holder: LockHolder(
                    user: "alice", host: ProcessIdentity.host, pid: getpid(), program: "console", since: Date()))
        else {
            return XCTFail("lock")
        }
        defer { first.release() }
        let access = StoreAccess.open(storeRoot: root)
        defer { access.release() }
        let a = app(access)
        editTitle(a, "XYZ")
        a.focus(field: "body")
        a.handle(.enter)
        a.handle(.ctrl("s"))
        assertShown(a, "readOnlyViewingIsFine")
        XCTAssertFalse((a.stack.last as! ComposerScreen).s.isDirty, "Enter in the body did not add a line")
        XCTAssertEqual(try store.load(Delivery.self, "summer-sale"), DemoStore.summerSale)
    }
}
