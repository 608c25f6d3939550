import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The composer's option fields come from the core's option tables: the options added
/// through the table alone (`filterCriteria`, `directBootOk`) are fields found by name,
/// edited, previewed and saved like the others.
final class ComposerOptionFieldsTests: DemoStoreConsoleTestCase {
    func composer(_ app: ConsoleApp) -> ComposerScreen { app.stack.last as! ComposerScreen }

    /// Opens the composer on the demo's summer-sale delivery (D, then its row).
    func openSummerSale(_ app: ConsoleApp) {
        app.handle(.char("D"))
        let list = app.stack.last as! DeliveriesListScreen
        list.table.select(row: list.shown.firstIndex { $0.name == "summer-sale" }!)
        app.handle(.enter)
    }

    func testFilterCriteriaAndDirectBootOkAreEditedByNameAndSaved() throws {
        let a = app()
        openSummerSale(a)
        let c = composer(a)
        XCTAssertTrue(c.focus(field: "ios.filterCriteria", app: a.context))
        XCTAssertEqual(c.form.focused?.label, "Filter criteria")
        type(a, "work")
        XCTAssertEqual(c.s.draft.ios.filterCriteria, "work")
        var b = a.render(width: 200, height: 50)
        XCTAssertNotNil(b.row(containing: #""filter-criteria": "work""#), b.text)

        XCTAssertTrue(c.focus(field: "android.directBootOk", app: a.context))
        XCTAssertEqual(c.form.focused?.label, "Direct boot OK")
        XCTAssertFalse(c.form.focused?.dimmed ?? true, "sent with data messages too")
        a.handle(.char(" "))
        XCTAssertEqual(c.s.draft.android.directBootOk, true)
        b = a.render(width: 200, height: 50)
        XCTAssertNotNil(b.row(containing: #""direct_boot_ok": true"#), b.text)

        a.handle(.ctrl("s"))
        let saved = try store.loadDelivery("summer-sale")
        XCTAssertEqual(saved.ios.filterCriteria, "work")
        XCTAssertEqual(saved.android.directBootOk, true)
        let text = try String(contentsOf: root.appendingPathComponent("deliveries/summer-sale.xml"), encoding: .utf8)
        XCTAssertTrue(text.contains(#"relevanceScore="0.8" filterCriteria="work" targetContentId="offers""#), text)
        XCTAssertTrue(text.contains(#"collapseKey="summer" directBootOk="true" channelId="offers""#), text)

        // Unchecking goes back to "not set": the saved file had no directBootOk before.
        a.handle(.char(" "))
        XCTAssertNil(c.s.draft.android.directBootOk)
    }

    /// A finding on a new option jumps to its field.
    func testNewOptionsAreLocatedByTheirFieldPaths() {
        XCTAssertTrue(ComposerFields.locate("ios.filterCriteria")! == (.ios, "filterCriteria"))
        XCTAssertTrue(ComposerFields.locate("android.directBootOk")! == (.android, "directBootOk"))
    }
}
