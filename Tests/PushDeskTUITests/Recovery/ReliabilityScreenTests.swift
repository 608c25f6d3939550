import PushDeskCore
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// Two operators and dropped connections, driven key by key on a real store: the read-only
/// console, save conflicts (reload / save as copy / diff) and the recovery offer.
final class ReliabilityScreenTests: DemoStoreConsoleTestCase {
    var neotrips: URL { root.appendingPathComponent("services/neotrips.xml") }

    func screen(_ app: ConsoleApp, _ w: Int = 100, _ h: Int = 30) -> String { app.render(width: w, height: h).text }
    /// The whole screen at `w`×`h` against its golden file, with this machine's user and host,
    /// pids and times masked; a screen that shows the host or a pid is compared as its words
    /// in order, since their length moves the text round them.
    func assertShown(
        _ a: ConsoleApp, _ name: String, _ w: Int = 100, _ h: Int = 30, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        // At least 160 columns: a status line that names the host and a pid is cut at the
        // screen's edge, and where depends on their length.
        assertScreen(a, name, width: max(w, 160), height: h, machine: true, file: file, line: line)
    }
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
        assertShown(a, "readOnlyList", 120, 24)
        a.handle(.char("n"))
        assertShown(a, "readOnlyNewServiceRefused")
        XCTAssertEqual(a.stack.count, 1)
        a.handle(.char("d"))
        XCTAssertNil(a.dialog, "no delete dialog in a read-only console")
        a.handle(.enter)  // viewing is fine
        a.focus(field: "label")
        type(a, "XYZ")
        a.handle(.backspace)
        a.handle(.paste("pasted"))
        assertShown(a, "readOnlyEditorTypesNothing")
        a.handle(.ctrl("s"))
        assertShown(a, "readOnlyEditorSavesNothing")
        XCTAssertEqual(try store.load(Service.self, "neotrips"), DemoStore.neotrips, "nothing written")

        // The other console saves and quits: Ctrl-X here takes the lock and shows its save.
        var theirs = DemoStore.neotrips
        theirs.label = "Saved by alice"
        try store.save(theirs)
        a.handle(.ctrl("x"))
        assertShown(a, "readOnlyStillHeld")  // held while the first console runs
        first.release()
        a.handle(.ctrl("x"))
        // Editing is on, and the open view follows the file as it is now.
        assertShown(a, "lockTakenEditingOn")
        a.handle(.end)
        type(a, "!")
        a.handle(.ctrl("s"))
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Saved by alice!")
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
        XCTAssertTrue(screen(a, 80, 24).contains("pid \(dead), process gone · Ctrl-X takes over"))
        assertShown(a, "holderGone", 80, 24)
        a.handle(.ctrl("x"))
        assertShown(a, "takeOverAsks")
        a.handle(.escape)
        XCTAssertTrue(access.isReadOnly, "cancel keeps it read-only")
        a.handle(.ctrl("x"))
        a.handle(.char("t"))
        XCTAssertFalse(access.isReadOnly)
        assertShown(a, "tookOver")
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
        assertShown(app(access), "unlockable", 120, 24)
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
        assertShown(a, "changedOnDisk")
        XCTAssertEqual(try String(contentsOf: neotrips, encoding: .utf8), theirs, "never overwritten")
        a.handle(.char("d"))  // Diff
        let diff = a.render(width: 120, height: 30)
        let minus = try XCTUnwrap(
            diff.row(containing: #"-<service format="1" name="neotrips" label="Theirs""#), diff.text)
        XCTAssertNotNil(diff.row(containing: #"+<service format="1" name="neotrips" label="Mine""#), diff.text)
        XCTAssertEqual(diff.role(x: 2, y: minus), .findingError)
        a.handle(.escape)
        assertShown(a, "changedOnDiskBackToTheQuestion")
        a.handle(.char("s"))  // Save as copy
        assertShown(a, "saveAsCopyAsksTheName")
        a.handle(.enter)
        XCTAssertEqual(try store.load(Service.self, "neotrips-copy").label, "Mine")
        XCTAssertEqual(try String(contentsOf: neotrips, encoding: .utf8), theirs)
        assertShown(a, "savedAsCopy")
    }

    func testReloadTakesTheDiskVersionAndDeletedFileClosesTheEditor() throws {
        let a = app()
        editLabel(a, "Mine")
        _ = try handEdit(label: "Theirs")
        a.handle(.ctrl("s"))
        a.handle(.char("r"))
        assertShown(a, "reloaded")
        // A save after the reload works: its baseline is the file as reloaded.
        a.handle(.end)
        type(a, "+")
        a.handle(.ctrl("s"))
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Theirs+")

        type(a, "x")
        try FileManager.default.removeItem(at: neotrips)
        a.handle(.ctrl("s"))
        assertShown(a, "deletedOnDisk")
        XCTAssertFalse(FileManager.default.fileExists(atPath: neotrips.path), "not recreated behind anyone's back")
        a.handle(.char("c"))
        assertShown(a, "deletedOnDiskCancelKeepsTheDraft")
        a.handle(.ctrl("s"))
        a.handle(.char("r"))
        assertShown(a, "deletedOnDiskReloadClosesTheEditor")
    }

    func testListDeleteKeepsAFileChangedSinceItWasListed() throws {
        let a = app()
        _ = try handEdit(label: "Theirs")
        a.handle(.char("d"))
        a.handle(.char("y"))
        assertShown(a, "listDeleteKeepsAChangedFile")
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
        assertShown(a, "secretStored")
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
        XCTAssertTrue(flat(screen(a)).contains("(pid \(dead)) left unsaved drafts"))
        assertShown(a, "recoveryOffer")
        a.handle(.char("s"))  // Show diff
        assertShown(a, "recoveryDiff", 140, 40)
        a.handle(.escape)
        a.handle(.char("r"))  // Restore
        assertShown(a, "recoveryRestored")
        XCTAssertEqual(a.unsavedDrafts.count, 2)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: root.appendingPathComponent(old.path).path),
            "the old file is handed over")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: root.appendingPathComponent(keeper.path).path), "…to this console's")
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Neotrips", "restored, not saved")
        a.handle(.ctrl("s"))  // the top editor: acme
        XCTAssertEqual(try store.load(Service.self, "acme").name, "acme")
        a.handle(.escape)
        a.handle(.ctrl("s"))  // neotrips
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Neotrips Travel")
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
        assertShown(a, "recoveryOfferAfterTerminate")
        a.handle(.char("l"))  // Later
        XCTAssertNil(a.dialog)
        assertShown(a, "recoveryLater")
        XCTAssertTrue(FileManager.default.fileExists(atPath: oldFile.path))

        a.offerPendingRecovery()
        a.handle(.char("d"))
        assertShown(a, "recoveryDiscardAsks")
        a.handle(.char("c"))  // cancel: back to the offer
        assertShown(a, "recoveryOfferAgain")
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
        assertShown(a, "restoredDraftConflicts")
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
        assertShown(a, "recoveryOfferedOnceTheLockIsTaken")
    }
}

func deadPid() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    try p.waitUntilExit(within: defaultChildDeadline)
    return p.processIdentifier
}
