import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The editors' findings pane keeps each finding's `[rule-id]` in view, shortening the
/// message first.
final class FindingsPaneTests: WholeScreenTestCase {
    /// The service editor with the tracking URL cleared (field.required), focus moved on.
    func editorWithoutTrackingURL(width: Int) -> ConsoleApp {
        let a = console(width: width)
        a.press(.open)
        a.focus(field: "trackingUrl")
        clearField(a)
        a.press(.nextField)
        return a
    }

    func testRuleIdStaysVisibleAt80Columns() {
        assertScreen(
            editorWithoutTrackingURL(width: 80),
            [
                " * PushDesk — Service neotrips (modified)                       ? help  default",
                "┌ Service ─────────────────────────────────────────────────────────────────────┐",
                "│Name            neotrips                                            file name │",
                "│Label           Neotrips                                                      │",
                "│Target mapping  nms:appSubscriptionRcp                                        │",
                "│Marketing URL   https://marketing.neotrips.example:8443/                      │",
                "│Tracking URL                                                                  │",
                "│                ↳ error: the tracking server URL is empty; the SDK needs it   │",
                "│                  (e.g. https://tracking.example.com/)                        │",
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
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules: 1 finding (1 error); Ctrl-F lists them all",
                " error trackingUrl: the tracking server URL is empty; the SDK… [field.required]",
                " Enter edit app  i add iOS  a add Android  d delete  / filter",
            ])
    }

    func testRuleIdStaysVisibleAt100Columns() {
        assertScreen(
            editorWithoutTrackingURL(width: 100),
            [
                " * PushDesk — Service neotrips (modified)                                           ? help  default",
                "┌ Service ─────────────────────────────────────────────────────────────────────────────────────────┐",
                "│Name            neotrips                                                       file name          │",
                "│Label           Neotrips                                                                          │",
                "│Target mapping  nms:appSubscriptionRcp                                                            │",
                "│Marketing URL   https://marketing.neotrips.example:8443/                                          │",
                "│Tracking URL                                                                                      │",
                "│                ↳ error: the tracking server URL is empty; the SDK needs it (e.g.                 │",
                "│                  https://tracking.example.com/)                                                  │",
                "└──────────────────────────────────────────────────────────────────────────────────────────────────┘",
                "┌ Apps (i: add iOS pair, a: add Android) ──────────────────────────────────────────────────────────┐",
                "│Platform Environment Label                          Integration key                 Findings      │",
                "│iOS      sandbox     Neotrips iOS (sandbox)         neotrips-ios-dev                ok            │",
                "│iOS      production  Neotrips iOS                   neotrips-ios                    ok            │",
                "│Android              Neotrips Android               neotrips-android                ok            │",
                "│                                                                                                  │",
                "│                                                                                                  │",
                "│                                                                                                  │",
                "│                                                                                                  │",
                "│                                                                                                  │",
                "└──────────────────────────────────────────────────────────────────────────────────────────────────┘",
                " Rules: 1 finding (1 error); Ctrl-F lists them all",
                " error trackingUrl: the tracking server URL is empty; the SDK needs it (e.g. http… [field.required]",
                " Enter edit app  i add iOS  a add Android  d delete  / filter  Ctrl-Y deliveries  ? help",
            ])
    }
}
