import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A delivery in several languages in a real terminal: the built binary in tmux at 80x24,
/// the zh-Hant variant chosen with F7 and its wide text in the device view, as the
/// terminal itself lays it out (no colour, then the ASCII-only POSIX locale).
final class TmuxLanguagesTests: TmuxTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let s = Store(root: store)
        var d = try s.load(Delivery.self, "summer-sale")
        d.variants = [
            DeliveryVariant(locale: "de", title: "Der Sommer ist da", body: "Hallo, 20 % Rabatt bis Sonntag."),
            DeliveryVariant(
                locale: "zh-Hant", title: "夏天來了：全館八折",
                body: "週日前全館八折，會員再享免運。Neotrips 夏季特賣 café"),
        ]
        try s.save(d)
    }

    /// Opens summer-sale, chooses zh-Hant with F7, shows the device view (`v` in the preview).
    func zhHantDeviceView(_ t: TmuxHarness) -> String {
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("summer-sale")
        t.keys("j", "Enter")
        t.waitFor("Delivery summer-sale")
        t.keys("F7")
        t.waitFor("Language to edit")
        t.keys("Down", "Down", "Enter")
        t.waitFor("(F7 language")
        t.keys("C-v", "v")
        return t.waitFor("v device")
    }

    func testZhHantDeviceViewAt80x24WithoutColour() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["NO_COLOR": "1", "TERM": "xterm"])
        assertScreen(t, zhHantDeviceView(t), "zhHantDevice")
    }

    /// LANG=C: borders in ASCII, the wide characters still two columns each, nothing shifted.
    func testZhHantDeviceViewInThePOSIXLocale() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["LANG": "C", "LC_ALL": ""])
        assertScreen(t, zhHantDeviceView(t), "zhHantDevicePOSIX")
    }
}
