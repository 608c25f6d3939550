import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Forms and lists that do not fit say that more lies above or below, and a message the
/// frame cuts ends with ….
final class ScrollMarkerTests: WholeScreenTestCase {
    func testNewServiceFormAt80x24SaysMoreBelowAndAbove() {
        let a = console()
        a.press(.new)
        assertScreen(a, "newServiceFormAt80x24SaysMoreBelowAndAbove")
        a.focus(field: "trackingUrl")
        assertScreen(a, "newServiceFormAt80x24SaysMoreBelowAndAbove-2")
    }

    func testComposerIOSTabAt100x30SaysMoreBelow() {
        let a = console(width: 100, height: 30)
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)
        a.press(.nextTab)
        XCTAssertEqual(a.focusTab, "ios")
        assertScreen(a, "composerIOSTabAt100x30SaysMoreBelow")
    }
}
