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

    // MARK: a Live Activity's JSON

    /// An update whose content state stops reading on its second line, after a key whose
    /// accent is a combining mark (two scalars, one character): the reader counts scalars,
    /// the editor characters.
    private let brokenState = "{\"gate\":\"B12\",\n \"ste\u{301}\": boarding}"

    private func saveBrokenLiveActivity() throws {
        try store.save(
            Delivery(
                name: "flight", service: "neotrips", content: DeliveryContent(title: "Boarding"),
                ios: IOSOptions(type: .liveactivity),
                liveActivity: LiveActivity(event: "update", contentState: brokenState)))
    }

    /// The composer is on the Live Activity tab, in the content state's editor, with the
    /// cursor drawn on the first character the reader refused (the `b` of `boarding`).
    private func assertCursorOnTheError(_ a: ConsoleApp, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.stack.last?.title, "Delivery flight · neotrips", file: file, line: line)
        XCTAssertEqual(a.focusTab, "liveActivity", file: file, line: line)
        XCTAssertEqual(a.focusedField, "contentState", file: file, line: line)
        let b = a.render(width: a.viewWidth, height: a.viewHeight)
        guard let y = b.row(containing: ": boarding}"), let x = b.column(of: "boarding}", inRow: y) else {
            return XCTFail("the content state's second line is not on screen:\n\(b.text)", file: file, line: line)
        }
        XCTAssertEqual(b.cursor?.x, x, "cursor column\n\(b.text)", file: file, line: line)
        XCTAssertEqual(b.cursor?.y, y, "cursor row\n\(b.text)", file: file, line: line)
    }

    func testEnterOnALiveActivityJSONFindingPutsTheCursorAtItsLineAndColumn() throws {
        try saveBrokenLiveActivity()
        let a = console()
        a.press(.findings)
        let list = try XCTUnwrap(a.stack.last as? FindingsScreen)
        let rule = list.table.rows.firstIndex { $0[1] == "liveactivity.json" }
        XCTAssertNotNil(rule, "no liveactivity.json finding:\n\(lines(a).joined(separator: "\n"))")
        for _ in 0..<list.table.rows.count where list.table.selectedRow != rule { a.press(.down) }
        assertScreen(a, "liveActivityJSONFinding")  // where in the content state, in the detail pane
        a.press(.open)
        assertCursorOnTheError(a)
    }

    func testEnterOnItInTheComposersFindingsPutsTheCursorThereToo() throws {
        try saveBrokenLiveActivity()
        let a = console()
        a.press(.deliveries)
        let deliveries = try XCTUnwrap(a.stack.last as? DeliveriesListScreen)
        deliveries.table.select(row: deliveries.shown.firstIndex { $0.name == "flight" }!)
        a.press(.open)
        XCTAssertEqual(a.focusTab, "content")
        a.press(.switchPane)
        let composer = try XCTUnwrap(a.stack.last as? ComposerScreen)
        let findings = PreviewPane.findings(try XCTUnwrap(composer.preview(a.context)))
        let rule = try XCTUnwrap(findings.firstIndex { $0.finding.rule == "liveactivity.json" })
        for _ in 0..<rule { a.press(.down) }
        a.press(.open)
        assertCursorOnTheError(a)
    }
}
