import Foundation
import PushDeskCore
import XCTest

/// docs/PAYLOADS.md in a real terminal: the built binary in tmux on the demo store. A test device
/// that is a Firebase installation ID is added, its kind set to `fid`, saved and read back;
/// a 21-character one shows its finding under the field.
final class TmuxPlatformsTests: TmuxTestCase {
    static let fid = "dAbCdEfGhIjKlMnOpQrStU"

    func testAnInstallationIDDeviceIsAddedWithKindFid() throws {
        let t = try TmuxHarness(width: 100, height: 30, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("t")
        t.waitFor("Recipient")
        t.keys("n")
        t.waitFor("Test devices › new profile")
        t.type("fidp")
        t.waitFor("Test devices › fidp")
        t.focus(hint: "add device")
        t.keys("n")
        t.waitFor("Add a test device: which app?")
        t.keys("Down", "Down")
        t.keys("Enter")
        t.waitFor("Android · neotrips-android")
        t.paste(Self.fid)
        t.waitFor("Token: 22 characters")
        t.keys("Tab", "Tab", "Tab")  // label, user key, kind
        t.waitFor("receives alert, silent")
        for _ in 0..<(TokenKind.allCases.count - 1) { t.keys("Space") }  // device … pushToTalk, fid
        t.waitFor("installation ID: alert, silent as message.fid")
        t.keys("C-s")
        t.waitFor("Saved profiles/fidp.xml")
        let data = try Data(contentsOf: store.appendingPathComponent("profiles/fidp.xml"))
        XCTAssertEqual(
            try ProfileXML.decode(data, file: "profiles/fidp.xml", name: "fidp").subscriptions,
            [Subscription(app: "neotrips-android", token: Self.fid, kind: .fid)])
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#"token="\#(Self.fid)" kind="fid"/>"#))
        // One character short: the rule says so under the token.
        t.focus(field: "Token")
        t.keys("End", "BSpace")
        t.waitFor("(21 characters) is not a Firebase")
        t.keys("C-q")
    }

    /// The sandbox app's key limited to production on the Credentials tab: the finding shows
    /// under the field and in the findings line as it is picked, and the save writes it.
    func testAKeyScopeIsPickedOnTheCredentialsTab() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        t.openFirstApp()
        t.press("C-o", until: "Credentials (Ctrl-Y: check online)")
        t.waitFor("Key scope       ‹ both       › environments the key may push to")
        t.focus(field: "Key scope")
        t.keys("Space", "Space")  // sandbox, production
        t.waitFor("↳ error: the key of neotrips-ios-dev is limited to production")
        t.waitFor("[token.environment]")
        t.keys("C-s")
        t.waitFor("Saved services/neotrips.xml")
        let xml = try String(contentsOf: store.appendingPathComponent("services/neotrips.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains(#"teamId="DEF123GHIJ" keyEnvironment="production" keyFile="#), xml)
        t.keys("C-q")
    }
}
