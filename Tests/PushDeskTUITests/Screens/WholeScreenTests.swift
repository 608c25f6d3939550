import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Each main screen of the demo store at 80x24, every line compared (ratatui's buffer
/// assertions): a change anywhere on a screen shows here, not only in the text a test
/// happened to look for. Reached as an operator would, through the test driver.
final class WholeScreenTests: DemoStoreConsoleTestCase {
    /// The screen's lines, trailing spaces dropped (cells past the text are blank).
    func lines(_ a: ConsoleApp) -> [String] {
        let b = a.render(width: 80, height: 24)
        return (0..<b.height).map {
            b.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    func assertScreen(
        _ a: ConsoleApp, _ expected: [String], file: StaticString = #filePath, line: UInt = #line
    ) {
        let got = lines(a)
        if ProcessInfo.processInfo.environment["PUSHDESK_PRINT_SCREENS"] == "1" {
            print("[\n" + got.map { "    " + String(reflecting: $0) + "," }.joined(separator: "\n") + "\n]")
        }
        XCTAssertEqual(got.count, expected.count, "rows", file: file, line: line)
        for (i, (g, e)) in zip(got, expected).enumerated() where g != e {
            XCTFail(
                "row \(i):\n  drawn    \(g)\n  expected \(e)\n\(got.joined(separator: "\n"))", file: file, line: line)
        }
    }

    func console() -> ConsoleApp {
        let a = app()
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: 80, height: 24)
        return a
    }

    func testServicesList() {
        assertScreen(
            console(),
            [
                " PushDesk — Services                                            ? help  default",
                "Name                   Label                              Apps  Findings",
                "neotrips               Neotrips                           3     ok",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                " Enter edit  n new  c duplicate  d delete  D deliveries  t test devices",
            ])
    }

    func testServiceEditor() {
        let a = console()
        a.press(.open)
        assertScreen(
            a,
            [
                " PushDesk — Service neotrips                                   F1 help  default",
                "┌ Service ─────────────────────────────────────────────────────────────────────┐",
                "│Name            neotrips                                            file name │",
                "│Label           Neotrips                                                      │",
                "│Target mapping  nms:appSubscriptionRcp                                        │",
                "│Marketing URL   https://marketing.neotrips.example:8443/                      │",
                "│Tracking URL    https://tracking.neotrips.example/                            │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                "┌ Apps (i: add iOS pair, a: add Android) ──────────────────────────────────────┐",
                "│Platform Environment Label                Integration key       Findings      │",
                "│iOS      sandbox     Neotrips iOS (sandb… neotrips-ios-dev      ok            │",
                "│iOS      production  Neotrips iOS         neotrips-ios          ok            │",
                "│Android              Neotrips Android     neotrips-android      ok            │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules: no finding.",
                "",
                " Tab next  Ctrl-Y deliveries  F1 help  Ctrl-S save  Ctrl-Q quit",
            ])
    }

    func testAppEditor() {
        let a = console()
        a.press(.open)
        a.focus(field: "apps")
        a.press(.open)
        assertScreen(
            a,
            [
                " PushDesk — Service neotrips › Neotrips iOS (sandbox)          F1 help  default",
                " iOS sandbox app · neotrips-ios-dev",
                " Information  Credentials  Variables  Subscription parameters  Sounds  Channels",
                "┌ Information ─────────────────────────────────────────────────────────────────┐",
                "│Label            Neotrips iOS (sandbox)                                       │",
                "│Integration key  neotrips-ios-dev                                  Ctrl-G new │",
                "│Bundle id        com.neotrips.app                                             │",
                "│Icon             icons/neotrips-48.png                          Enter: browse │",
                "│Environment      ‹ sandbox    ›                                               │",
                "│Connector        ‹ http2  ›                                                   │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules: no finding.",
                "",
                " Tab next  Ctrl-G generate key  Ctrl-O next tab  F1 help  Ctrl-S save",
            ])
    }

    func testDeliveriesList() {
        let a = console()
        a.press(.deliveries)
        assertScreen(
            a,
            [
                " PushDesk — Deliveries of neotrips                              ? help  default",
                "Name               Label            iOS · Android  Largest     Worst finding",
                "catalog-refresh    Catalog refresh… silent · data  136 / 4096  ok",
                "summer-sale        Summer sale      alert · notif. 559 / 4096  ok",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                " Enter compose  n new  c duplicate  d delete  a all  s sends  / filter  ? help",
            ])
    }

    func testComposer() {
        let a = console()
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)
        assertScreen(
            a,
            [
                " PushDesk — Delivery summer-sale · neotrips                    F1 help  default",
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
                "│ Size ███░░░░░░░░░░░░░░░░░  444 / 4096 bytes (10 %)                           │",
                "│ POST https://api.sandbox.push.apple.com/3/device/DEVICE_TOKEN                │",
                "│ apns-push-type: alert  apns-priority: 10  apns-topic: com.neotrips.app  apns │",
                "│ -collapse-id: summer                                                         │",
                "│ {                                                                            │",
                "│   \"aps\": {                                                                   │",
                "│     \"alert\": {                                                               │",
                "│       \"title\": \"Summer is here\",                                       ↓ PgDn│",
                "│─ No findings ────────────────────────────────────────────────────────────────│",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Ctrl-O next tab  Ctrl-V preview  Ctrl-Y copy out  Ctrl-G send test  Tab next",
            ])
    }

    func testFindings() {
        let a = console()
        a.press(.findings)
        assertScreen(
            a,
            [
                " PushDesk — Findings                                            ? help  default",
                " 0 findings: 0 errors, 0 warnings",
                "Severity Rule                          Where                      Message",
                " No findings: every service and delivery passes the rules.",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "────────────────────────────────────────────────────────────────────────────────",
                "",
                "",
                "",
                "",
                " Enter jump  / filter  ? help  Ctrl-Q quit  Ctrl-F findings  Esc back",
            ])
    }
}
