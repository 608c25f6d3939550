import Foundation
import PushDeskCore
import XCTest

/// Test devices in a real terminal: the built binary in tmux on the demo store, a new
/// profile whose first device gets its token by a bracketed paste (with the line breaks a
/// copy from a log brings) and whose second gets it by fast typing, saved, the file read
/// back with the core's reader.
final class TmuxTestDevicesTests: TmuxTestCase {
    static let hex64 = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
    static let fcm = "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"

    /// A device's language and a Chinese label typed in a terminal without UTF-8 or colour
    /// (`LANG=C`, `NO_COLOR=1`, 80×24): the wide characters keep their two columns (shown
    /// as `??`), the tag is saved canonically, the label as typed.
    func testALanguageAndACJKLabelInAPlainTerminal() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["LANG": "C", "LC_ALL": "C", "NO_COLOR": "1"])
        t.waitFor("neotrips")
        t.keys("t")
        t.waitFor("Recipient")
        t.keys("Enter")
        t.waitFor("Test devices (n: add")
        t.focus(hint: "edit device")
        t.keys("Enter")
        t.waitFor("Test device -")
        t.focus(field: "Label")
        t.type(" 小明")
        t.focus(field: "Language")
        t.type("zh_hant_tw")
        assertScreen(t, t.waitFor("saved as zh-Hant-TW"), "languageAndCJKLabel")
        t.keys("C-s")
        t.waitFor("Saved profiles/ana.xml")
        t.keys("Escape")
        assertScreen(t, t.waitFor("zh-Hant-TW ok"), "languageInTheTable")
        let saved = try Store(root: store).load(Profile.self, "ana").subscriptions[0]
        XCTAssertEqual(saved.label, "Ana's iPhone 15 小明")
        XCTAssertEqual(saved.locale, "zh-Hant-TW")
        t.keys("C-q")
    }

    func testPasteATokenIntoANewProfileAndSave() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("t")
        t.waitFor("Recipient")
        t.keys("n")
        t.waitFor("Test devices › new profile")
        t.type("bob")
        t.waitFor("Test devices › bob")
        t.focus(hint: "add device")
        t.keys("n")
        t.waitFor("Add a test device: which app?")
        t.waitFor("Neotrips iOS (sandbox) · iOS sandbox · neotrips-ios-dev")
        t.keys("Enter")
        t.waitFor("paste it")
        t.paste("\n  \(Self.hex64) \n")
        t.waitFor("Token: 64 characters, shown in lists as 0a1b2c…e8f9.")
        t.keys("Escape")
        t.waitFor("0a1b2c…e8f9")
        // The second device: an Android token typed fast (tmux send-keys -l), no paste.
        t.keys("n")
        t.waitFor("Add a test device: which app?")
        t.keys("Down", "Down")
        t.keys("Enter")
        t.waitFor("Android · neotrips-android")
        t.type(Self.fcm)
        t.waitFor("Token: \(Self.fcm.count) characters")
        t.keys("C-s")
        t.waitFor("Saved profiles/bob.xml")
        let data = try Data(contentsOf: store.appendingPathComponent("profiles/bob.xml"))
        let bob = try ProfileXML.decode(data, file: "profiles/bob.xml", name: "bob")
        XCTAssertEqual(
            bob.subscriptions,
            [
                Subscription(app: "neotrips-ios-dev", token: Self.hex64),
                Subscription(app: "neotrips-android", token: Self.fcm),
            ])
        t.keys("Escape")
        t.waitFor("dQw4w9…RYqx")
        t.keys("C-q")
    }
}
