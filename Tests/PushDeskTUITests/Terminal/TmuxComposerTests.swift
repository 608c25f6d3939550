import Foundation
import XCTest

@testable import PushDeskTUI

/// The composer in a real terminal: the built binary in tmux, driven like an operator.
final class TmuxComposerTests: TmuxTestCase {
    /// `pushdesk preview NAME --app KEY --json`: the payload's own pretty lines (the
    /// document nests it 6 columns deep) and its byte count.
    func cliPayload(_ delivery: String, app: String) throws -> (lines: [String], bytes: Int) {
        let (status, out) = try TmuxHarness.spawn(
            TmuxHarness.binary.path, ["preview", delivery, "--store", store.path, "--app", app, "--json"])
        XCTAssertEqual(status, 0, out)
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try XCTUnwrap(lines.firstIndex(of: #"      "payload": {"#), out)
        let end = try XCTUnwrap(lines[start...].firstIndex(of: "      },"), out)
        let payload = ["{"] + lines[(start + 1)...end].map { String($0.dropFirst(6)) }.map { $0 == "}," ? "}" : $0 }
        let bytesLine = try XCTUnwrap(lines.first { $0.hasPrefix(#"      "bytes": "#) })
        let bytes = try XCTUnwrap(Int(bytesLine.dropFirst(#"      "bytes": "#.count).dropLast()))
        return (payload, bytes)
    }

    /// Every line shows on the screen, in order.
    func assertOnScreen(_ lines: [String], _ screen: String, file: StaticString = #filePath, line: UInt = #line) {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertFalse(lines.isEmpty, file: file, line: line)
        var at = 0
        for l in lines {
            // Each line on its own row below the last: repeated lines (`}`) need rows of their own.
            guard at < rows.count, let i = rows[at...].firstIndex(where: { $0.contains(l) }) else {
                return XCTFail("\(l) is not on the screen (after row \(at)):\n\(screen)", file: file, line: line)
            }
            at = i + 1
        }
    }

    /// Compose the rich iOS delivery from scratch, see the exact payload in the pane, save;
    /// `pushdesk preview --json` on the saved file prints that same payload.
    func testComposeRichDeliveryFromScratchThenPreviewJSONMatches() throws {
        let t = try TmuxHarness(width: 200, height: 50, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("Deliveries of neotrips")
        t.keys("n")
        t.waitFor("New delivery · neotrips")
        t.type("rich-test")
        t.focus(field: "Label")
        t.type("Rich test")
        t.focus(field: "Title")
        t.type("Summer is here")
        t.focus(field: "Subtitle")
        t.type("Trips from 199 EUR")
        t.focus(field: "Body")
        t.type("20% off until Sunday.")
        t.keys("C-o")
        t.waitFor("Mutable content")
        t.focus(field: "Category")
        t.type("image")
        t.focus(field: "Mutable content")
        t.keys("Space")
        t.press("C-o", until: "_mId message id")  // the Variables tab
        t.type("https://cdn.neotrips.example/summer.jpg")
        t.press("C-p", until: "Mutable content")  // back on iOS: an iOS app's request
        // (Android's data carries mediaUrl too: wait for the iOS request itself.)
        let s = t.waitUntil("the iOS payload with the media URL") {
            $0.contains(#""mediaUrl": "https://cdn.neotrips.example/summer.jpg","#)
                && $0.contains("apns-push-type: alert")
        }
        // The category, mutable-content, and the device view marking the rich notification.
        assertScreen(t, s, "richIOS")
        t.keys("C-s")
        t.waitFor("Saved deliveries/rich-test.xml")
        let shown = t.screen()

        let (payload, bytes) = try cliPayload("rich-test", app: "neotrips-ios-dev")
        XCTAssertTrue(
            payload.contains(#"  "mediaUrl": "https://cdn.neotrips.example/summer.jpg","#),
            payload.joined(separator: "\n"))
        assertOnScreen(payload, shown)
        XCTAssertTrue(
            shown.contains("\(bytes) / 4096 bytes"), "the meter shows the CLI's byte count \(bytes):\n\(shown)")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// A body past 4096 bytes: the meter turns to the error colour and says by how much;
    /// `size.limit` is among the findings.
    func testBodyPastTheLimitTurnsTheMeterRed() throws {
        let t = try TmuxHarness(width: 200, height: 50, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("summer-sale")
        t.keys("j", "Enter")
        t.waitFor("Delivery summer-sale")
        t.focus(field: "Body")
        t.keys("End")
        t.paste(String(repeating: "Lorem ipsum dolor sit amet. ", count: 150))
        let s = t.waitFor("over by")
        assertScreen(t, s, "overTheLimit")  // size.limit among the findings
        // The meter's cells carry meter.over: white on red 160 in the default theme.
        let meterLine = try XCTUnwrap(t.screen(escapes: true).split(separator: "\n").first { $0.contains("over by") })
        XCTAssertNotNil(meterLine.range(of: "48;5;160"), "meter.over colours:\n\(meterLine.debugDescription)")
        t.keys("C-z")
        t.waitUntil("back under the limit") { !$0.contains("over by") && $0.contains("/ 4096 bytes") }
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// Switching to silent: the alert keys vanish, content-available appears, and with text
    /// left `silent.content` is reported.
    func testSwitchToSilentDropsTheAlertKeys() throws {
        let t = try TmuxHarness(width: 200, height: 50, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("summer-sale")
        t.keys("j", "Enter")
        t.waitFor(#""alert": {"#)
        t.keys("C-o")
        t.waitFor("Mutable content")
        t.keys("Space")
        let s = t.waitFor(#""content-available": 1"#)
        // No alert keys, silent.content reported, greyed fields saying why, the background header.
        assertScreen(t, s, "silent")
        t.keys("C-q")
        t.waitFor("Save the changes")
        t.keys("d")
        t.waitFor("PD-EXIT=0")
    }

    /// The Type field offers every push type (docs/PAYLOADS.md): picked by name with Space, the
    /// preview's headers and payload follow the type's row, the fields it does not send are
    /// greyed with the type's name, and the device view says what the push does.
    func testTheTypeSelectorOffersEveryPushTypeByName() throws {
        let t = try TmuxHarness(width: 200, height: 50, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("summer-sale")
        t.keys("j", "Enter")
        t.waitFor(#""alert": {"#)
        t.keys("C-o")
        t.waitFor("Mutable content")
        // The iOS tab opens on its first field, Type: Space picks the next type.
        t.press("Space", until: "│Type               ‹ widgets")
        var s = t.waitFor("apns-topic: com.neotrips.app.push-type.widgets")
        // No custom keys, greyed fields saying why, what the device does, no Android target.
        assertScreen(t, s, "widgets")
        t.press("Space", until: "│Type               ‹ voip")
        s = t.waitFor("apns-topic: com.neotrips.app.voip")
        assertScreen(t, s, "voip")  // voip's header and its 5120-byte limit
        t.press("Space", until: "│Type               ‹ alert")
        t.waitFor("apns-push-type: alert")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// 80x24, NO_COLOR, TERM=xterm, a CJK title: the preview goes under the form, the JSON
    /// keeps the title, the meter still reads, and a curl command asked for "stdout on exit"
    /// is printed after the terminal is restored.
    func testNarrowMonochromeCJKAndCurlOnExit() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["NO_COLOR": "1", "TERM": "xterm"])
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("summer-sale")
        t.keys("j", "Enter")
        t.waitFor("Delivery summer-sale")
        t.focus(field: "Title")
        t.keys("C-u")
        t.type("夏のセール")
        var s = t.waitFor(#""title": "夏のセール","#)
        assertScreen(t, s, "narrowCJK")  // the preview under the form, the title, the meter
        XCTAssertNil(
            t.screen(escapes: true).range(
                of: "\u{1b}\\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)[;m]", options: .regularExpression),
            "no colour under NO_COLOR")
        t.keys("C-y")
        t.waitFor("Copy out for neotrips-ios-dev")
        t.keys("Down", "Down", "Down", "Enter")
        t.waitFor("will be printed when the console exits")
        t.keys("C-q")
        t.waitFor("Save the changes")
        t.keys("d")
        s = t.waitFor("PD-END")
        // Exit 0, the curl command printed after the console ended, the terminal restored.
        assertScreen(t, s, "curlOnExit")
    }
}
