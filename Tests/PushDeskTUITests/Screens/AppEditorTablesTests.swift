import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The app editor's table tabs (Variables, Subscription parameters, Sounds), driven by the
/// registry's keys: a row is added into its form, Tab opens the selected row, Esc goes back
/// to the table, K/J move, d deletes at once and u brings the row back.
final class AppEditorTablesTests: WholeScreenTestCase {
    private func variables(_ a: ConsoleApp) throws -> [String] {
        let e = try XCTUnwrap(a.top as? AppEditorScreen)
        return e.app.variables.map(\.name)
    }

    func testAddEditMoveDeleteAndUndoAVariable() throws {
        let a = console()
        a.press(.open)
        a.focus(field: "apps")
        a.press(.open)
        a.show(tab: "variables")
        let before = try variables(a)
        for name in ["first", "second"] {
            a.press(.new)
            XCTAssertEqual(a.focusedField, "name", "a new row opens in its form")
            a.type(name)
            a.press(.back)
            XCTAssertEqual(a.focusedField, "table")
        }
        XCTAssertEqual(try variables(a), before + ["first", "second"])

        a.press(.moveUp)
        XCTAssertEqual(try variables(a), before + ["second", "first"])
        // Tab (the table's next-field key) opens the selected row, which moved with the move.
        a.press(.nextField)
        XCTAssertEqual(a.focusedField, "name")
        a.type("X")
        a.focus(field: "label")
        a.type("Second")
        a.press(.nextField)
        XCTAssertEqual(a.focusedField, "table", "Tab off the row's last field goes back to the table")
        XCTAssertEqual(try variables(a), before + ["secondX", "first"])
        let e = try XCTUnwrap(a.top as? AppEditorScreen)
        XCTAssertEqual(e.app.variables.first { $0.name == "secondX" }?.label, "Second")

        a.press(.delete)
        XCTAssertEqual(try variables(a), before + ["first"])
        XCTAssertEqual(a.message, "Deleted the variable; u (or Ctrl-Z) brings it back.")
        a.press(.undo)
        XCTAssertEqual(try variables(a), before + ["secondX", "first"])
        assertScreen(a, "undoBringsTheVariableBack")  // the row and its form
    }
}
