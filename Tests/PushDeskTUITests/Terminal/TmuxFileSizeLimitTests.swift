import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A save past `ulimit -f` (RLIMIT_FSIZE) must fail like a full disk: SIGXFSZ would kill the
/// console (signal 25, the terminal left in the alternate screen, no recovery file), so the
/// binary ignores it and the write's EFBIG takes the "Save failed" path.
final class TmuxFileSizeLimitTests: TmuxTestCase {
    func testCtrlSPastTheFileSizeLimitSaysSaveFailedAndTheConsoleLives() throws {
        let file = store.appendingPathComponent("services/neotrips.xml")
        let before = try Data(contentsOf: file)
        XCTAssertGreaterThan(before.count, 1024, "the service must not fit under the limit")
        // dash counts `ulimit -f` in 512-byte blocks, bash in 1024: either way far below the file.
        let t = try TmuxHarness(width: 100, height: 30, args: ["--store", store.path], shell: "ulimit -f 1")
        t.waitFor("neotrips")
        t.keys("Enter")
        t.waitFor("Marketing URL")
        t.focus(field: "Label")
        t.keys("End")
        t.type(" Big")
        t.waitFor("Neotrips Big")
        t.keys("C-s")
        let screen = t.waitUntil("the save to fail") { $0.contains("Save failed") }
        // The whole screen: the failed save says why (the file size limit) and the console lives on.
        assertScreen(
            text: screen, "saveFailedFileTooLarge", size: "100x30",
            masks: [(NSRegularExpression.escapedPattern(for: store.path), "STORE")])
        let pid = try XCTUnwrap(t.consolePid())
        XCTAssertTrue(ProcessIdentity.isAlive(pid), "the console is gone")
        // The file on disk is the old one, whole; the edit is still open.
        XCTAssertEqual(try Data(contentsOf: file), before)
        t.keys("Enter")
        t.waitFor("Neotrips Big")
        XCTAssertTrue(ProcessIdentity.isAlive(pid))
    }
}
