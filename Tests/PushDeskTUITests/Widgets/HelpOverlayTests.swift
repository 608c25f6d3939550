import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The help overlay: no row touches the border, what is cut ends with …, scrolling is
/// marked above and below.
final class HelpOverlayTests: WholeScreenTestCase {
    func testHelpInAFormAt80x24() {
        let a = console()
        a.press(.open)
        a.focus(field: "label")
        a.handle(.f(1))  // help: in a text field `?` types
        assertScreen(a, "helpInAFormAt80x24")
        for _ in 0..<80 { a.handle(.down) }
        assertScreen(a, "helpInAFormAt80x24-2")
    }
}
