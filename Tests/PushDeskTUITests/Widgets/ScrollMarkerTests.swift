import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Forms and lists that do not fit say that more lies above or below, and a message the
/// frame cuts ends with ….
final class ScrollMarkerTests: WholeScreenTestCase {
    func testNewServiceFormAt80x24SaysMoreBelowAndAbove() {
        let a = console()
        a.press(.new)
        assertScreen(
            a,
            [
                " * PushDesk — New service (modified)                           F1 help  default",
                "┌ Service ─────────────────────────────────────────────────────────────────────┐",
                "│Name                                                                file name │",
                "│                ↳ error: the service name \"\" must be letters, digits, `_`, `-`│",
                "│                  and `.` (not first), at most 64 characters; it is also the  │",
                "│                  file name                                                   │",
                "│Label                                                                         │",
                "│                ↳ error: the service has no label; give it the name operators │",
                "│                  know it by                                                  │",
                "│Target mapping  nms:appSubscriptionRcp                                        │",
                "└────────────────────────────────────────────────────────────────────── ↓ more ┘",
                "┌ Apps (i: add iOS pair, a: add Android) ──────────────────────────────────────┐",
                "│Platform Environment Label                Integration key       Findings      │",
                "│ No app yet: press i (iOS pair) or a (Android) here.                          │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules: 5 findings (4 errors); Ctrl-F lists them all",
                " error name: the service name \"\" must be letters, digits, `_`, … [service.name]",
                " error label: the service has no label; give it the name oper… [field.required]",
                " error marketingUrl: the marketing server URL is empty; the S… [field.required]",
                " error trackingUrl: the tracking server URL is empty; the SDK… [field.required]",
                " Tab next  Ctrl-Y deliveries  F1 help  Ctrl-S save  Ctrl-Q quit",
            ])
        a.focus(field: "trackingUrl")
        assertScreen(
            a,
            [
                " * PushDesk — New service (modified)                           F1 help  default",
                "┌ Service ───────────────────────────────────────────────────────────── ↑ more ┐",
                "│                  know it by                                                  │",
                "│Target mapping  nms:appSubscriptionRcp                                        │",
                "│Marketing URL                                                                 │",
                "│                ↳ error: the marketing server URL is empty; the SDK needs it  │",
                "│                  (e.g. https://marketing.example.com/)                       │",
                "│Tracking URL                                                                  │",
                "│                ↳ error: the tracking server URL is empty; the SDK needs it   │",
                "│                  (e.g. https://tracking.example.com/)                        │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                "┌ Apps (i: add iOS pair, a: add Android) ──────────────────────────────────────┐",
                "│Platform Environment Label                Integration key       Findings      │",
                "│ No app yet: press i (iOS pair) or a (Android) here.                          │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules: 5 findings (4 errors); Ctrl-F lists them all",
                " error name: the service name \"\" must be letters, digits, `_`, … [service.name]",
                " error label: the service has no label; give it the name oper… [field.required]",
                " error marketingUrl: the marketing server URL is empty; the S… [field.required]",
                " error trackingUrl: the tracking server URL is empty; the SDK… [field.required]",
                " Tab next  Ctrl-Y deliveries  F1 help  Ctrl-S save  Ctrl-Q quit",
            ])
    }

    func testComposerIOSTabAt100x30SaysMoreBelow() {
        let a = console(width: 100, height: 30)
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)
        a.press(.nextTab)
        XCTAssertEqual(a.focusTab, "ios")
        assertScreen(
            a,
            [
                " PushDesk — Delivery summer-sale · neotrips                                         ? help  default",
                " Content   iOS   Android   Variables",
                "┌ iOS (Ctrl-O next tab) ───────────────────────────────────────────────────────────────────────────┐",
                "│Type               ‹ alert        › shows a notification                                          │",
                "│Sound              ‹ chime.caf ›                                                                  │",
                "│Critical sound     [ ] needs Apple's entitlement                                                  │",
                "│Critical volume                                                                         0…1       │",
                "│Badge              3                                                            0 clears it       │",
                "│Category           image                                                         e.g. image       │",
                "│Mutable content    [x] rich: the service extension runs                                           │",
                "│Content available  [ ] also wake the app                                                          │",
                "│Thread id          trips                                                                          │",
                "│Interruption       ‹ time-sensitive ›                                                             │",
                "└────────────────────────────────────────────────────────────────────────────────────────── ↓ more ┘",
                "┌ Preview (the payload engine of pushdesk preview) ────────────────────────────────────────────────┐",
                "│ Neotrips iOS (sandbox) APNs   Neotrips iOS APNs   Neotrips Android FCM v1                        │",
                "│ Size ███░░░░░░░░░░░░░░░░░  444 / 4096 bytes (10 %)                                               │",
                "│ POST https://api.sandbox.push.apple.com/3/devi  ┌──────────────────────────────────────────────┐ │",
                "│ ce/DEVICE_TOKEN                                 │ Neotrips                                now  │ │",
                "│ apns-push-type: alert  apns-priority: 10  apns  │ Summer is here                               │ │",
                "│ -topic: com.neotrips.app  apns-collapse-id: su  │ Trips from 199 EUR                           │ │",
                "│ mmer                                            │ Hi <%= recipient.firstName %>, 20% off until │ │",
                "│ {                                               │ Sunday.                                      │ │",
                "│   \"aps\": {                                      │ [image]                                      │ │",
                "│     \"alert\": {                                  │ sound chime.caf · badge 3 · category image   │ │",
                "│       \"title\": \"Summer is here\",                └──────────────────────────────────────────────┘ │",
                "│       \"subtitle\": \"Trips from 199 EUR\",  ↓ PgDn                                                  │",
                "│─ No findings ────────────────────────────────────────────────────────────────────────────────────│",
                "└──────────────────────────────────────────────────────────────────────────────────────────────────┘",
                " Ctrl-O next tab  Ctrl-V preview  Ctrl-Y copy out  Ctrl-G send test  Tab next  ? help  Ctrl-S save",
            ])
    }
}
