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
        assertScreen(a, "fromTheLeft")
        a.press(.scrollRight)
        assertScreen(a, "scrolledRight")  // the line from its ninth character, marked with …
        a.press(.scrollLeft)
        assertScreen(a, "fromTheLeft")
    }
}
