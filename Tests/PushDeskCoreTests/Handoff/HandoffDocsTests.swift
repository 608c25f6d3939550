import Foundation
import XCTest

/// docs/HANDOFF.md shows real output: the examples must be what the code produces today.
final class HandoffDocsTests: XCTestCase {
    func testDocsShowTheCurrentSheetAndPackage() throws {
        let repo = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: repo.appendingPathComponent("docs/HANDOFF.md"), encoding: .utf8)
        let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
        let sheet = try String(
            contentsOf: fixtures.appendingPathComponent("handoff/golden/neotrips-android.md"), encoding: .utf8)
        XCTAssertTrue(doc.contains("````markdown\n" + sheet + "````\n"), "docs/HANDOFF.md shows an outdated sheet")
        let package = try String(
            contentsOf: fixtures.appendingPathComponent("campaign/neotrips-package.xml"), encoding: .utf8)
        let head = package.split(separator: "\n", omittingEmptySubsequences: false).prefix(20).joined(separator: "\n")
        XCTAssertTrue(doc.contains("```xml\n" + head + "\n    …\n"), "docs/HANDOFF.md shows an outdated package")
    }
}
