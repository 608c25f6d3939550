import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The editors' findings pane keeps each finding's `[rule-id]` in view, shortening the
/// message first.
final class FindingsPaneTests: WholeScreenTestCase {
    /// The service editor with the tracking URL cleared (field.required), focus moved on.
    func editorWithoutTrackingURL(width: Int) -> ConsoleApp {
        let a = console(width: width)
        a.press(.open)
        a.focus(field: "trackingUrl")
        clearField(a)
        a.press(.nextField)
        return a
    }

    func testRuleIdStaysVisibleAt80Columns() {
        assertScreen(editorWithoutTrackingURL(width: 80), "ruleIdStaysVisibleAt80Columns")
    }

    func testRuleIdStaysVisibleAt100Columns() {
        assertScreen(editorWithoutTrackingURL(width: 100), "ruleIdStaysVisibleAt100Columns")
    }
}
