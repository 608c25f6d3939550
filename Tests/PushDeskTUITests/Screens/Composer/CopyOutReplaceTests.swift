import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A copy-out onto a file that exists asks first (the composer reads the disk only through
/// its `AppContext`): No keeps the file as it was, Yes replaces it with the payload.
final class CopyOutReplaceTests: WholeScreenTestCase {
    func testACopyOutOntoAnExistingFileAsksAndNoKeepsIt() throws {
        let out = root.appendingPathComponent("payload.json")
        try Data("kept\n".utf8).write(to: out)
        let a = console()
        a.press(.deliveries)
        a.press(.open)
        func copyOut() {
            a.press(.copyOut)
            a.handle(.enter)  // the payload to a file
            a.handle(.ctrl("u"))  // clear the proposed name
            a.type(out.path)
            a.handle(.enter)
        }
        copyOut()
        XCTAssertEqual(a.dialog?.title, "Replace?")
        XCTAssertEqual(a.dialog?.message, "\(out.path) exists. Replace it?")
        a.handle(.char("n"))
        XCTAssertNil(a.dialog)
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), "kept\n")
        copyOut()
        a.handle(.char("y"))
        let written = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix(#"{"aps":"#), written)
        XCTAssertEqual(a.message?.hasPrefix("Wrote \(out.path) ("), true, a.message ?? "")
    }
}
