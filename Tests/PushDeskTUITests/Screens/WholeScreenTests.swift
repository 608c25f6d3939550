import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Each main screen of the demo store at 80x24, every line compared (ratatui's buffer
/// assertions): a change anywhere on a screen shows here, not only in the text a test
/// happened to look for. Reached as an operator would, through the test driver.
final class WholeScreenTests: WholeScreenTestCase {
    func testServicesList() {
        assertScreen(console(), "views/servicesList")
    }

    func testServiceEditor() {
        let a = console()
        a.press(.open)
        assertScreen(a, "views/serviceEditor")
    }

    func testAppEditor() {
        let a = console()
        a.press(.open)
        a.focus(field: "apps")
        a.press(.open)
        assertScreen(a, "appEditor")
    }

    func testDeliveriesList() {
        let a = console()
        a.press(.deliveries)
        assertScreen(a, "deliveriesList")
    }

    func testComposer() {
        let a = console()
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)
        assertScreen(a, "views/composer")
    }

    func testFindings() {
        let a = console()
        a.press(.findings)
        assertScreen(a, "findings")
    }
}
