import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Monochrome (NO_COLOR): only the focus is reverse video; an unfocused selection and the
/// active tab are bold and underlined.
final class MonochromeFocusTests: WholeScreenTestCase {
    /// Rows of the body (between the title and the status bar) holding a cell drawn in
    /// reverse video by the monochrome theme.
    func reverseRows(_ a: ConsoleApp) throws -> [Int] {
        let theme = try ThemeLoader.load(named: "monochrome", directories: [])
        let b = a.render(width: a.viewWidth, height: a.viewHeight)
        return (1..<(b.height - 1)).filter { y in (0..<b.width).contains { theme.style(b.role(x: $0, y: y)).reverse } }
    }

    func testOnlyTheFocusedFieldIsReverse() throws {
        let a = console()
        a.press(.open)
        a.focus(field: "label")  // the apps table keeps a selected row, unfocused
        let b = a.render(width: 80, height: 24)
        XCTAssertEqual(try reverseRows(a), [b.row(containing: "Label")!], b.text)
        a.focus(field: "apps")
        a.press(.open)
        a.focus(field: "bundleId")  // in the app editor the active tab is no focus either
        let e = a.render(width: 80, height: 24)
        XCTAssertEqual(try reverseRows(a), [e.row(containing: "Bundle id")!], e.text)
    }

    func testUnfocusedSelectionAndActiveTabStillStandOut() throws {
        let theme = try ThemeLoader.load(named: "monochrome", directories: [])
        for role in [Role.listSelectedInactive, .tabActive] {
            let s = theme.style(role)
            XCTAssertTrue(s.bold && s.underline && !s.reverse, role.rawValue)
        }
    }
}
