import PushDeskCore
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// Two operators and dropped connections, driven key by key on a real store: the read-only
/// console, save conflicts (reload / save as copy / diff) and the recovery offer.
final class ReliabilityScreenTests: DemoStoreConsoleTestCase {
    var neotrips: URL { root.appendingPathComponent("services/neotrips.xml") }

    func screen(_ app: ConsoleApp, _ w: Int = 100, _ h: Int = 30) -> String { app.render(width: w, height: h).text }
    func holder(pid: Int32 = getpid()) -> LockHolder {
        LockHolder(user: "alice", host: ProcessIdentity.host, pid: pid, program: "console", since: Date())
    }

    // MARK: two operators

    func testSecondConsoleIsReadOnlyUntilTheFirstQuits() throws {
        guard case .acquired(let first, _) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail()
        }
        let access = StoreAccess.open(storeRoot: root)
        XCTAssertTrue(access.isReadOnly)
        let a = app(access)
        var s = screen(a, 80, 24)
        XCTAssertTrue(s.contains("PushDesk — Services [read-only]"), s)
        XCTAssertTrue(s.contains("Read-only: held by alice@\(ProcessIdentity.host) pid \(getpid()) since "), s)
        a.handle(.char("n"))
        XCTAssertTrue(screen(a).contains("Read-only: alice@"), "new service refused")
        XCTAssertEqual(a.stack.count, 1)
        a.handle(.char("d"))
        XCTAssertNil(a.dialog, "no delete dialog in a read-only console")
        a.handle(.enter)  // viewing is fine
        a.focus(field: "label")
        type(a, "XYZ")
        a.handle(.backspace)
        a.handle(.paste("pasted"))
        s = screen(a)
        XCTAssertFalse(s.contains("XYZ") || s.contains("pasted") || s.contains("(modified)"), s)
        XCTAssertTrue(s.contains("holds the store; nothing is changed here"), s)
        a.handle(.ctrl("s"))
        XCTAssertTrue(screen(a).contains("nothing is changed here"))
        XCTAssertEqual(try store.loadService("neotrips"), DemoStore.neotrips, "nothing written")

        // The other console saves and quits: Ctrl-X here takes the lock and shows its save.
        var theirs = DemoStore.neotrips
        theirs.label = "Saved by alice"
        try store.save(theirs)
        a.handle(.ctrl("x"))
        XCTAssertTrue(screen(a).contains("Still held by alice@"), "held while the first console runs")
        first.release()
        a.handle(.ctrl("x"))
        s = screen(a)
        XCTAssertTrue(s.contains("now holds the store's lock: editing is on"), s)
        XCTAssertFalse(s.contains("[read-only]"), s)
        XCTAssertTrue(s.contains("Saved by alice"), "the open view follows the file as it is now:\n\(s)")
        a.handle(.end)
        type(a, "!")
        a.handle(.ctrl("s"))
        XCTAssertEqual(try store.loadService("neotrips").label, "Saved by alice!")
        access.release()
    }

    func testTakeOverFromAHolderWhoseProcessIsGoneAsksFirst() throws {
        guard case .acquired(let ghost, _) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail()
        }
        // The flock is still held (an inherited descriptor) but the named process is gone.
        let dead = try deadPid()
        let fd = open(root.appendingPathComponent(".pushdesk/lock").path, O_WRONLY | O_TRUNC)
        let text = Array(holder(pid: dead).fileText.utf8)
        _ = write(fd, text, text.count)
        close(fd)
        let access = StoreAccess.open(storeRoot: root)
        let a = app(access)
        var s = screen(a, 80, 24)
        XCTAssertTrue(s.contains("pid \(dead), process gone · Ctrl-X takes over"), s)
        a.handle(.ctrl("x"))
        s = flat(screen(a))
        XCTAssertTrue(s.contains("Take over the store?"), s)
        XCTAssertTrue(s.contains("its process is gone from this machine"), s)
        a.handle(.escape)
        XCTAssertTrue(access.isReadOnly, "cancel keeps it read-only")
        a.handle(.ctrl("x"))
        a.handle(.char("t"))
        XCTAssertFalse(access.isReadOnly)
        XCTAssertTrue(screen(a).contains("editing is on"))
        guard case .heldBy(let h) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail("not locked")
        }
        XCTAssertEqual(h?.pid, getpid())
        access.release()
        ghost.release()
    }

    /// A store that cannot be locked at all (here `.pushdesk` is a file) opens read-only and says why.
    func testUnlockableStoreOpensReadOnlyAndSaysWhy() throws {
        try Data("not a folder".utf8).write(to: root.appendingPathComponent(".pushdesk"))
        let access = StoreAccess.open(storeRoot: root)
        XCTAssertTrue(access.isReadOnly)
        let s = screen(app(access), 120, 24)
        XCTAssertTrue(
            s.contains(
                "Read-only, the store cannot be locked: .pushdesk/lock: error: .pushdesk is a regular file, not a directory;"
            ), s)
    }

    // MARK: changed on disk

    func editLabel(_ a: ConsoleApp, _ text: String) {
        a.handle(.enter)
        a.focus(field: "label")
        for _ in 0..<20 { a.handle(.backspace) }
        type(a, text)
    }

    func handEdit(label: String) throws -> String {
        let theirs = try String(contentsOf: neotrips, encoding: .utf8)
            .replacingOccurrences(of: #"label="Neotrips""#, with: #"label="\#(label)""#)
        try theirs.write(to: neotrips, atomically: true, encoding: .utf8)
        return theirs
    }

    func testChangedOnDiskOffersDiffThenSaveAsCopy() throws {
        let a = app()
        editLabel(a, "Mine")
        let theirs = try handEdit(label: "Theirs")
        a.handle(.ctrl("s"))
        var s = flat(screen(a))
        XCTAssertTrue(s.contains("services/neotrips.xml changed on disk"), s)
        XCTAssertTrue(s.contains("Your edits are NOT saved"), s)
        XCTAssertEqual(try String(contentsOf: neotrips, encoding: .utf8), theirs, "never overwritten")
        a.handle(.char("d"))  // Diff
        let diff = a.render(width: 120, height: 30)
        let minus = try XCTUnwrap(
            diff.row(containing: #"-<service format="1" name="neotrips" label="Theirs""#), diff.text)
        XCTAssertNotNil(diff.row(containing: #"+<service format="1" name="neotrips" label="Mine""#), diff.text)
        XCTAssertEqual(diff.role(x: 2, y: minus), .findingError)
        a.handle(.escape)
        XCTAssertTrue(flat(screen(a)).contains("Changed on disk"), "back to the question")
        a.handle(.char("s"))  // Save as copy
        s = flat(screen(a))
        XCTAssertTrue(s.contains("neotrips-copy"), s)
        a.handle(.enter)
        XCTAssertEqual(try store.loadService("neotrips-copy").label, "Mine")
        XCTAssertEqual(try String(contentsOf: neotrips, encoding: .utf8), theirs)
        s = screen(a)
        XCTAssertTrue(s.contains("Saved your version as services/neotrips-copy.xml"), s)
        XCTAssertTrue(s.contains("Service neotrips-copy"), s)
        XCTAssertFalse(s.contains("(modified)"), s)
    }

    func testReloadTakesTheDiskVersionAndDeletedFileClosesTheEditor() throws {
        let a = app()
        editLabel(a, "Mine")
        _ = try handEdit(label: "Theirs")
        a.handle(.ctrl("s"))
        a.handle(.char("r"))
        var s = screen(a)
        XCTAssertTrue(s.contains("Reloaded services/neotrips.xml from disk"), s)
        XCTAssertTrue(s.contains("Theirs") && !s.contains("Mine") && !s.contains("(modified)"), s)
        // A save after the reload works: its baseline is the file as reloaded.
        a.handle(.end)
        type(a, "+")
        a.handle(.ctrl("s"))
        XCTAssertEqual(try store.loadService("neotrips").label, "Theirs+")

        type(a, "x")
        try FileManager.default.removeItem(at: neotrips)
        a.handle(.ctrl("s"))
        XCTAssertTrue(flat(screen(a)).contains("was deleted on disk"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: neotrips.path), "not recreated behind anyone's back")
        a.handle(.char("c"))
        XCTAssertTrue(screen(a).contains("(modified)"), "Cancel keeps the draft")
        a.handle(.ctrl("s"))
        a.handle(.char("r"))
        s = screen(a)
        XCTAssertTrue(s.contains("PushDesk — Services"), s)
        XCTAssertTrue(s.contains("is not on disk any more; closed its editor"), s)
    }

    func testListDeleteKeepsAFileChangedSinceItWasListed() throws {
        let a = app()
        _ = try handEdit(label: "Theirs")
        a.handle(.char("d"))
        a.handle(.char("y"))
        XCTAssertTrue(flat(screen(a)).contains("changed on disk since it was read"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: neotrips.path))
    }

    // MARK: recovery

    func testKeeperWritesAfterTheIntervalAndDeletesWhenNothingIsUnsaved() throws {
        let keeper = RecoveryKeeper(storeRoot: root, interval: 30)
        let a = app(keeper: keeper)
        let file = root.appendingPathComponent(keeper.path)
        let t0 = Date()
        keeper.tick(a.recoveryEntries(), now: t0)
        editLabel(a, "Unsaved")
        keeper.tick(a.recoveryEntries(), now: t0)
        keeper.tick(a.recoveryEntries(), now: t0.addingTimeInterval(29))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "not before 30 s of unsaved work")
        keeper.tick(a.recoveryEntries(), now: t0.addingTimeInterval(30))
        let f = try RecoveryFile.decode(try Data(contentsOf: file), file: keeper.path)
        XCTAssertEqual(f.reason, .periodic)
        XCTAssertEqual(try ServiceXML.decode(Data(f.entries[0].xml), file: "x").0.label, "Unsaved")
        XCTAssertEqual(
            (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue,
            0o600)
        let written = try Data(contentsOf: file)
        keeper.tick(a.recoveryEntries(), now: t0.addingTimeInterval(90))
        XCTAssertEqual(try Data(contentsOf: file), written, "unchanged drafts are not rewritten")
        type(a, "!")
        keeper.tick(a.recoveryEntries(), now: t0.addingTimeInterval(100))
        XCTAssertTrue(
            String(
                decoding: try RecoveryFile.decode(try Data(contentsOf: file), file: "x").entries[0].xml, as: UTF8.self
            ).contains("Unsaved!"))
        a.handle(.ctrl("s"))
        keeper.tick(a.recoveryEntries(), now: t0.addingTimeInterval(101))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "saved: nothing to recover")
    }

    /// A password typed in the masked Credentials field goes to secrets/, never into the
    /// draft, so never into a recovery file — only its reference does.
    func testNoSecretLandsInTheRecoveryFile() throws {
        let keeper = RecoveryKeeper(storeRoot: root, interval: 30)
        let a = app(keeper: keeper)
        a.handle(.enter)
        a.focus(field: "apps")
        a.handle(.down)
        a.handle(.enter)  // production app: certificate auth
        a.focus(field: "credentials.passwordRef")
        a.handle(.ctrl("u"))  // cleared: the secret entry makes a new one
        a.focus(field: "password")
        a.handle(.enter)
        type(a, "hunter2-p12")
        a.handle(.enter)
        XCTAssertTrue(screen(a).contains("Stored the secret 'neotrips-ios-p12'"), screen(a))
        XCTAssertEqual(a.recoveryEntries().count, 1, "the new reference makes the draft unsaved")
        XCTAssertTrue(keeper.writeNow(a.recoveryEntries(), reason: .hangup))
        let bytes = try Data(contentsOf: root.appendingPathComponent(keeper.path))
        let f = try RecoveryFile.decode(bytes, file: "x")
        let xml = String(decoding: f.entries[0].xml, as: UTF8.self)
        XCTAssertTrue(xml.contains(#"passwordRef="neotrips-ios-p12""#), xml)
        for hay in [String(decoding: bytes, as: UTF8.self), xml] { XCTAssertFalse(hay.contains("hunter2"), hay) }
        XCTAssertFalse(
            String(decoding: bytes, as: UTF8.self).contains(Data("hunter2-p12".utf8).base64EncodedString().prefix(12)))
        XCTAssertEqual(
            try String(contentsOf: root.appendingPathComponent("secrets/neotrips-ios-p12"), encoding: .utf8),
            "hunter2-p12")
    }

    /// A console that stopped with drafts; the next one offers them: diff, restore as
    /// unsaved drafts, save with Ctrl-S; the old file goes only once the new one holds them.
    func testNextStartOffersDiffAndRestoresUnsavedDrafts() throws {
        let dead = try deadPid()
        let old = RecoveryKeeper(storeRoot: root, interval: 30, pid: dead)
        let first = app(keeper: old)
        editLabel(first, "Neotrips Travel")
        first.handle(.escape)  // leave the editor? it asks; cancel keeps it
        first.handle(.char("c"))
        first.apply(first.stack[0].handle(.new, app: first.context) ?? .none)  // and a new service, unnamed yet
        type(first, "acme")
        XCTAssertEqual(first.recoveryEntries().count, 2)
        XCTAssertTrue(old.writeNow(first.recoveryEntries(), reason: .hangup))

        let keeper = RecoveryKeeper(storeRoot: root, interval: 30)
        let a = app(keeper: keeper)
        a.offerPendingRecovery()
        var s = flat(screen(a, 100, 30))
        XCTAssertTrue(s.contains("Unsaved work found"), s)
        XCTAssertTrue(s.contains("(pid \(dead)) left unsaved drafts"), s)
        XCTAssertTrue(s.contains("(the connection dropped)"), s)
        XCTAssertTrue(s.contains("• service neotrips") && s.contains("• new service acme"), s)
        a.handle(.char("s"))  // Show diff
        s = screen(a, 140, 40)
        XCTAssertTrue(s.contains("services/neotrips.xml: on disk → recovered draft"), s)
        XCTAssertTrue(s.contains(#"+<service format="1" name="neotrips" label="Neotrips Travel""#), s)
        XCTAssertTrue(s.contains("services/acme.xml: (not on disk) → recovered draft"), s)
        a.handle(.escape)
        a.handle(.char("r"))  // Restore
        s = screen(a)
        XCTAssertTrue(s.contains("Restored 2 drafts as unsaved"), s)
        XCTAssertTrue(s.contains("(modified)"), s)
        XCTAssertEqual(a.unsavedDrafts.count, 2)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: root.appendingPathComponent(old.path).path),
            "the old file is handed over")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: root.appendingPathComponent(keeper.path).path), "…to this console's")
        XCTAssertEqual(try store.loadService("neotrips").label, "Neotrips", "restored, not saved")
        a.handle(.ctrl("s"))  // the top editor: acme
        XCTAssertEqual(try store.loadService("acme").name, "acme")
        a.handle(.escape)
        a.handle(.ctrl("s"))  // neotrips
        XCTAssertEqual(try store.loadService("neotrips").label, "Neotrips Travel")
        keeper.tick(a.recoveryEntries())
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(keeper.path).path))
    }

    func testDiscardAsksAndLaterKeeps() throws {
        let dead = try deadPid()
        let old = RecoveryKeeper(storeRoot: root, interval: 30, pid: dead)
        let first = app(keeper: old)
        editLabel(first, "Lost?")
        XCTAssertTrue(old.writeNow(first.recoveryEntries(), reason: .terminate))
        let oldFile = root.appendingPathComponent(old.path)

        let a = app(keeper: RecoveryKeeper(storeRoot: root, interval: 30))
        a.offerPendingRecovery()
        XCTAssertTrue(flat(screen(a)).contains("(the console was told to stop)"))
        a.handle(.char("l"))  // Later
        XCTAssertNil(a.dialog)
        XCTAssertTrue(screen(a).contains("offered again at the next start"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: oldFile.path))

        a.offerPendingRecovery()
        a.handle(.char("d"))
        XCTAssertTrue(flat(screen(a)).contains("lost for good"))
        a.handle(.char("c"))  // cancel: back to the offer
        XCTAssertTrue(flat(screen(a)).contains("Unsaved work found"))
        a.handle(.char("d"))
        a.handle(.char("d"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldFile.path))
        XCTAssertNil(a.dialog)
    }

    /// A draft restored after someone changed the file meanwhile is caught at save.
    func testRestoredDraftOfAChangedFileIsAConflictAtSave() throws {
        let old = RecoveryKeeper(storeRoot: root, interval: 30, pid: try deadPid())
        let first = app(keeper: old)
        editLabel(first, "Mine")
        XCTAssertTrue(old.writeNow(first.recoveryEntries(), reason: .hangup))
        let theirs = try handEdit(label: "Theirs")
        let a = app(keeper: RecoveryKeeper(storeRoot: root, interval: 30))
        a.offerPendingRecovery()
        a.handle(.char("r"))
        a.handle(.ctrl("s"))
        XCTAssertTrue(flat(screen(a)).contains("services/neotrips.xml changed on disk"))
        XCTAssertEqual(try String(contentsOf: neotrips, encoding: .utf8), theirs)
    }

    func testReadOnlyConsoleOffersNoRecovery() throws {
        let old = RecoveryKeeper(storeRoot: root, interval: 30, pid: try deadPid())
        let first = app(keeper: old)
        editLabel(first, "Mine")
        XCTAssertTrue(old.writeNow(first.recoveryEntries(), reason: .hangup))
        guard case .acquired(let lock, _) = try StoreLock.acquire(storeRoot: root, holder: holder()) else {
            return XCTFail()
        }
        let a = app(StoreAccess.open(storeRoot: root), keeper: RecoveryKeeper(storeRoot: root, interval: 30))
        a.offerPendingRecovery()
        XCTAssertNil(a.dialog, "only the lock holder restores")
        lock.release()
        a.handle(.ctrl("x"))
        XCTAssertTrue(flat(screen(a)).contains("Unsaved work found"), "offered once the lock is taken")
    }
}

func deadPid() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    try p.waitUntilExit(within: defaultChildDeadline)
    return p.processIdentifier
}
