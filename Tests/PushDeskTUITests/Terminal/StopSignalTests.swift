import CStopSignal
import Foundation
import XCTest

@testable import PushDeskTUI

/// The stop-signal flag is one variable for the whole process. It used to be a `static` in
/// an imported C header: one copy per compiled unit, so in a release build the console loop
/// read a copy the handler never set and spun after a hang-up. Here the handler is installed
/// from this module and the flag read through PushDeskTUI: with two copies this fails.
final class StopSignalTests: XCTestCase {
    override func tearDown() {
        signal(SIGTERM, SIG_DFL)
        pd_stop_signal_reset()
        super.tearDown()
    }

    func testSignalCaughtInOneModuleIsSeenByTheConsoleLoop() {
        pd_stop_signal_reset()
        XCTAssertEqual(Terminal.stopSignal, 0)
        XCTAssertEqual(pd_catch_stop_signal(SIGTERM), 0)
        raise(SIGTERM)
        XCTAssertEqual(pd_stop_signal_received(), SIGTERM)
        XCTAssertEqual(Terminal.stopSignal, SIGTERM, "the console loop must see the signal the handler stored")
    }
}
