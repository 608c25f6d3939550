import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Esc after a findings jump goes back to where the operator came from, never through the
/// views that showed the record before the jump.
final class FindingJumpTests: WholeScreenTestCase {
    func testEscAfterAJumpToAnAppFieldGoesBackWhereTheOperatorCameFrom() {
        let a = console()
        a.press(.open)
        a.focus(field: "apps")
        a.press(.open)  // the sandbox app's editor
        a.focus(field: "label")
        clearField(a)  // field.required on apps[0].label
        a.press(.findings)
        XCTAssertEqual(a.stack.map(\.title).last, "Findings")
        a.press(.open)  // jump to apps[0].label
        // The findings view and the app editor left before it are gone: one view per record.
        XCTAssertEqual(
            a.stack.map(\.title), ["Services", "Service neotrips", "Service neotrips › neotrips-ios-dev"])
        XCTAssertEqual(a.focusedField, "label")
        a.press(.back)
        XCTAssertEqual(a.stack.map(\.title), ["Services", "Service neotrips"])
        a.press(.back)  // the last view of the draft: the question, not another stale view
        XCTAssertEqual(a.dialog?.title, "Unsaved changes")
        a.handle(.char("d"))
        XCTAssertEqual(a.stack.map(\.title), ["Services"])
    }

    func testEscAfterAJumpToAServiceFieldAsksAboutTheDraft() {
        let a = console()
        a.press(.open)
        a.focus(field: "label")
        clearField(a)
        a.press(.findings)
        a.press(.open)
        XCTAssertEqual(a.stack.map(\.title), ["Services", "Service neotrips"])
        XCTAssertEqual(a.focusedField, "label")
        a.press(.back)
        XCTAssertEqual(a.dialog?.title, "Unsaved changes")
    }
}
