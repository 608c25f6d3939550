import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Dropped connections and two operators, with the built binary in real terminals (tmux):
/// a hang-up, SIGTERM and SIGKILL mid-edit, then the next console restores the drafts;
/// two consoles on one store; a file changed by hand in another window.
final class TmuxRecoveryTests: TmuxTestCase {
    var recoveryDir: URL { store.appendingPathComponent(RecoveryStore.relativeDirectory) }
    func recoveryFiles() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: recoveryDir.path)) ?? [])
            .filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.map { recoveryDir.appendingPathComponent($0) }
    }
    func label() throws -> String? {
        try Store(root: store).load(Service.self, "neotrips").label
    }

    /// Polls the file system (never a bare sleep) until `predicate` holds.
    func waitFor(_ what: String, timeout: TimeInterval = 30, _ predicate: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate() {
            if Date() > deadline { return XCTFail("timed out waiting for \(what)") }
            usleep(20_000)
        }
    }

    func editLabel(_ t: TmuxHarness, append: String) {
        t.waitFor("neotrips")
        t.keys("Enter")
        t.waitFor("Marketing URL")
        t.focus(field: "Label")
        t.keys("End")
        t.type(append)
        t.waitFor("Neotrips\(append)")
    }

    /// The recovery file a console wrote, decoded; its mode must be 0600.
    func theRecoveryFile(reason: RecoveryFile.Reason) throws -> RecoveryFile {
        let files = recoveryFiles()
        XCTAssertEqual(files.count, 1, "\(files)")
        let u = try XCTUnwrap(files.first)
        XCTAssertEqual(
            (try FileManager.default.attributesOfItem(atPath: u.path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let f = try RecoveryFile.decode(try Data(contentsOf: u), file: u.lastPathComponent)
        XCTAssertEqual(f.reason, reason)
        return f
    }

    /// Restarts on the store, restores the offered drafts; returns the new console.
    func restartAndRestore(expecting phrase: String) -> TmuxHarness? {
        // 160 columns: the status line names the last console's host and pid, and is cut at
        // the edge where their length says.
        guard let t = try? TmuxHarness(width: 160, height: 24, args: ["--store", store.path]) else {
            XCTFail("no harness")
            return nil
        }
        // The whole dialog (its last button drawn): why the drafts were left, the service's draft.
        let name = phrase.filter { $0.isLetter }
        assertScreen(t, t.waitFor("[ Later ]"), "offer-" + name)
        t.keys("r")
        assertScreen(t, t.waitFor("Restored 1 draft as unsaved"), "restored-" + name)
        return t
    }

    /// The SSH connection drops (the terminal goes away mid-edit): the console writes the
    /// draft and nothing else; the next start restores it, Ctrl-S saves it.
    func testHangUpThenRestoreSaveAndCheckTheXML() throws {
        do {
            let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
            editLabel(t, append: " Travel 旅")
            let pid = try XCTUnwrap(t.consolePid())
            _ = try t.run(["kill-session", "-t", "pd"])  // the terminal is gone
            waitFor("the console to end") { !ProcessIdentity.isAlive(pid) }
        }
        let f = try theRecoveryFile(reason: .hangup)
        XCTAssertEqual(try ServiceXML.decode(Data(f.entries[0].xml), file: "x").0.label, "Neotrips Travel 旅")
        XCTAssertEqual(try label(), "Neotrips", "a hang-up saves nothing by itself")

        let t = try XCTUnwrap(restartAndRestore(expecting: "(the connection dropped)"))
        t.keys("C-s")
        t.waitFor("Saved services/neotrips.xml")
        XCTAssertEqual(try label(), "Neotrips Travel 旅")
        t.keys("C-q")
        XCTAssertEqual(t.ending().status, 0)
        XCTAssertEqual(recoveryFiles(), [], "saved and quit: nothing left to recover")
    }

    /// SIGTERM: drafts to the recovery file, the terminal restored, exit 143.
    func testSigtermWritesTheRecoveryFileAndRestoresTheTerminal() throws {
        let t = try TmuxHarness(width: 200, height: 50, args: ["--store", store.path])
        editLabel(t, append: " term")
        kill(try XCTUnwrap(t.consolePid()), SIGTERM)
        let end = t.ending()
        XCTAssertEqual(end.status, 143, end.screen)
        XCTAssertEqual(end.modes, "icanon echo", "cooked mode restored")
        XCTAssertEqual(t.display("#{alternate_on}"), "0")
        let f = try theRecoveryFile(reason: .terminate)
        XCTAssertEqual(f.entries.map(\.summary), ["service neotrips"])

        let t2 = try XCTUnwrap(restartAndRestore(expecting: "(the console was told to stop)"))
        t2.waitFor("Neotrips term")
        t2.keys("C-q")
        t2.waitFor("Save the changes")
        t2.keys("d")
        XCTAssertEqual(t2.ending().status, 0)
        XCTAssertEqual(try label(), "Neotrips", "discarded")
        XCTAssertEqual(recoveryFiles(), [], "discarded on purpose: the old file was handed over, then cleared")
    }

    /// With a short interval the draft reaches the recovery file while the console runs, so
    /// SIGKILL (which no program can catch) loses at most one interval of work.
    func testPeriodicWriteSurvivesSigkill() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["PUSHDESK_RECOVERY_INTERVAL": "0.3"])
        editLabel(t, append: " periodic")
        waitFor("the periodic recovery write") {
            self.recoveryFiles().contains {
                (try? String(contentsOf: $0, encoding: .utf8))?.contains(#"reason="periodic""#) ?? false
            }
        }
        kill(try XCTUnwrap(t.consolePid()), SIGKILL)
        XCTAssertEqual(t.ending().status, 137)
        _ = try theRecoveryFile(reason: .periodic)
        let t2 = try XCTUnwrap(restartAndRestore(expecting: "(periodic save of unsaved work)"))
        t2.waitFor("Neotrips periodic")
        t2.keys("C-s")
        t2.waitFor("Saved services/neotrips.xml")
        XCTAssertEqual(try label(), "Neotrips periodic")
        t2.keys("C-q")
        t2.waitFor("PD-EXIT=0")
    }

    /// Two consoles on one store: the second is read-only with a banner naming the first,
    /// refuses edits, and takes over (Ctrl-X) once the first has quit.
    func testTwoConsolesOnOneStore() throws {
        let a = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        a.waitFor("neotrips")
        let aPid = try XCTUnwrap(a.consolePid())
        // A asks for the lock just after its first frame: B starts once the lock file names A.
        waitFor("A holding the store's lock") {
            let lock = self.store.appendingPathComponent(".pushdesk/lock")
            return (try? String(contentsOf: lock, encoding: .utf8))?.contains("pid=\(aPid)\n") ?? false
        }
        let b = try TmuxHarness(width: 160, height: 30, args: ["--store", store.path])
        let banner = b.waitFor("[read-only]")
        XCTAssertTrue(banner.contains("pid \(aPid) since "), "the read-only banner names A:\n\(banner)")
        assertScreen(b, banner, "readOnly")
        b.keys("Enter")
        b.waitFor("Marketing URL")
        b.focus(field: "Label")
        b.type("zz")
        assertScreen(b, b.waitFor("nothing is changed here"), "readOnlyTypesNothing")
        b.keys("C-x")
        b.waitFor("Still held by")

        editLabel(a, append: " by A")
        a.keys("C-s")
        a.waitFor("Saved services/neotrips.xml")
        a.keys("C-q")
        XCTAssertEqual(a.ending().status, 0)

        b.keys("C-x")
        assertScreen(b, b.waitFor("editing is on"), "editingOnWithAsSave")
        b.keys("End")
        b.type(" and B")
        b.keys("C-s")
        b.waitFor("Saved services/neotrips.xml")
        XCTAssertEqual(try label(), "Neotrips by A and B")
        b.keys("C-q")
        b.waitFor("PD-EXIT=0")
    }

    /// While a console edits, another window writes the file: a command is refused by the
    /// lock, a hand edit is not, and the console's save then never overwrites it.
    func testFileChangedInAnotherWindowIsNeverOverwritten() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        editLabel(t, append: " mine")
        let pkg = store.appendingPathComponent("pkg.xml").path
        let bin = TmuxHarness.quote(TmuxHarness.binary.path)
        let dir = TmuxHarness.quote(store.path)
        let script =
            "\(bin) export-package neotrips --store \(dir) -o \(pkg) && \(bin) import-package \(pkg) --replace --store \(dir); "
            + "echo IMPORT-EXIT=$?; sed -i 's/label=\"Neotrips\"/label=\"Theirs\"/' \(dir)/services/neotrips.xml; echo EDITED; exec sleep 600"
        _ = try t.run(["new-window", "-d", "-t", "pd", "-n", "hand", "sh", "-c", script])
        var other = ""
        waitFor("the other window") {
            other = (try? t.run(["capture-pane", "-p", "-J", "-t", "pd:hand"])) ?? ""
            return other.contains("EDITED")
        }
        XCTAssertTrue(other.contains("IMPORT-EXIT=2"), other)
        XCTAssertTrue(other.contains("the store is locked by"), other)
        let theirs = try String(contentsOf: store.appendingPathComponent("services/neotrips.xml"), encoding: .utf8)
        XCTAssertTrue(theirs.contains(#"label="Theirs""#))

        t.keys("C-s")
        assertScreen(t, t.waitFor("[ Cancel ]"), "changedOnDisk")
        t.keys("d")
        assertScreen(t, t.waitFor(#"label="Theirs""#), "diff")
        t.keys("Escape")
        t.waitFor("Changed on disk")
        t.keys("s")
        t.waitFor("Save as copy")
        t.keys("Enter")
        t.waitFor("Saved your version as services/neotrips-copy.xml")
        XCTAssertEqual(
            try String(contentsOf: store.appendingPathComponent("services/neotrips.xml"), encoding: .utf8), theirs)
        XCTAssertEqual(try Store(root: store).load(Service.self, "neotrips-copy").label, "Neotrips mine")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// Temp files of a save killed mid-write are removed when a console opens the store.
    func testStaleTempFilesAreCleanedAtOpen() throws {
        let dead = try deadPid()
        let stale = store.appendingPathComponent("services/.neotrips.xml.tmp-\(dead)-4242")
        try Data("<service".utf8).write(to: stale)
        let t = try TmuxHarness(width: 100, height: 24, args: ["--store", store.path])
        t.waitFor("Removed 1 temporary file left by interrupted saves.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }
}
