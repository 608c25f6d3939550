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
        assertScreen(
            a,
            [
                " PushDesk — Delivery summer-sale · neotrips                     ? help  default",
                " Content   iOS   Android   Variables",
                "┌ Content (Ctrl-O next tab) ───────────────────────────────────────────────────┐",
                "│Name        summer-sale                                             file name │",
                "│Label       Summer sale                                                       │",
                "│Service     ‹ neotrips ›                                                      │",
                "│Title       Summer is here                                                    │",
                "│Subtitle    Trips from 199 EUR                                       iOS only │",
                "│Body        Hi <%= recipient.firstName %>, 20% off until Sunday.              │",
                "│                                                                              │",
                "└────────────────────────────────────────────────────────────────────── ↓ more ┘",
                "┌ Preview (the payload engine of pushdesk preview) ────────────────────────────┐",
                "│ Neotrips iOS (sandbox) APNs   Neotrips iOS APNs   Neotrips Android FCM v1    │",
                "│ Size ██░░░░░░░░  559 / 4096 bytes (13 %), without \"token\" (the body: 594)    │",
                "│ POST https://fcm.googleapis.com/v1/projects/neotrips-12345/messages:send     │",
                "│ {                                                                            │",
                "│   \"message\": {                                                               │",
                "│     \"token\": \"DEVICE_TOKEN\",                                                 │",
                "│     \"notification\": {                                                        │",
                "│       \"title\": \"Summer is here\",                                             │",
                "│       \"body\": \"Hi <%= recipient.firstName %>, 20% off until Sunday.\",  ↓ PgDn│",
                "│─ No findings ────────────────────────────────────────────────────────────────│",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " → app  Enter jump  v device  Ctrl-O next tab  Ctrl-V preview  Ctrl-Y copy out",
            ])
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
