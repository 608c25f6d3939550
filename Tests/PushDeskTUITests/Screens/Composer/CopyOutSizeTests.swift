import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// An FCM payload: the meter counts docs/PAYLOADS.md's bytes (without "token"), the copied file
/// is the body sent (with it); both places say so.
final class CopyOutSizeTests: WholeScreenTestCase {
    func testFCMMeterAndCopiedFileSayWhyTheyDiffer() throws {
        let a = console()
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)
        a.press(.switchPane)
        a.press(.nextTarget)
        a.press(.nextTarget)  // the Android app (FCM v1)
        assertScreen(a, "fCMMeterAndCopiedFileSayWhyTheyDiffer")
        a.press(.copyOut)
        a.handle(.enter)  // the payload to a file
        a.handle(.ctrl("u"))  // the path dialog's line editor: clear the proposed name
        let out = root.appendingPathComponent("android.json").path
        a.type(out)
        a.handle(.enter)
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int
        XCTAssertEqual(
            a.message,
            "Wrote \(out) (594 bytes: the body with \"token\"; the size meter counts 559 without it).")
        XCTAssertEqual(size, 594)
    }
}
