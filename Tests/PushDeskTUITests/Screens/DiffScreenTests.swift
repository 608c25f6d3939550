import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The diff view scrolls long lines sideways with the registry's keys (← →, 20 columns a
/// press), the +/- marker staying in the first column.
final class DiffScreenTests: WholeScreenTestCase {
    func testSideScrollKeysComeFromTheRegistry() {
        let a = console()
        let long = "<app label=\"" + String(repeating: "x", count: 30) + "\" integrationKey=\"neotrips-ios-dev\"/>"
        a.apply(
            .push(DiffScreen(title: "Diff", sections: [.init(heading: "services/neotrips.xml", old: "", new: long)])))
        a.settle()
        XCTAssertTrue(lines(a).contains { $0.contains("+<app label=\"xxx") }, lines(a).joined(separator: "\n"))
        a.press(.scrollRight)
        XCTAssertTrue(
            lines(a).contains { $0.contains("+…" + String(repeating: "x", count: 22) + "\" integrationKey=") },
            lines(a).joined(separator: "\n"))
        a.press(.scrollLeft)
        XCTAssertTrue(lines(a).contains { $0.contains("+<app label=\"xxx") }, lines(a).joined(separator: "\n"))
    }
}
