import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The status bar shows the keys of the dialog that has the focus, not the form's behind
/// it.
final class DialogHintsTests: WholeScreenTestCase {
    func testUnsavedChangesDialogShowsItsOwnKeys() {
        let a = console()
        a.press(.open)
        a.focus(field: "label")
        a.type("!")
        a.press(.quit)
        assertScreen(
            a,
            [
                " * PushDesk — Service neotrips (modified)                      F1 help  default",
                "┌ Service ─────────────────────────────────────────────────────────────────────┐",
                "│Name            neotrips                                            file name │",
                "│Label           Neotrips!                                                     │",
                "│Target mapping  nms:appSubscriptionRcp                                        │",
                "│Marketing URL   https://marketing.neotrips.example:8443/                      │",
                "│Tracking URL    https://tracking.neotrips.example/                            │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                "┌ Apps (i: add iOS pair, a: add Android) ──────────────────────────────────────┐",
                "│Platform Environm┌ Unsaved changes ─────────────────────────┐   Findings      │",
                "│iOS      sandbox │ Save the changes to \'neotrips\'?          │   ok            │",
                "│iOS      producti│                                          │   ok            │",
                "│Android          │     [ Save ] [ Discard ] [ Cancel ]      │   ok            │",
                "│                 └──────────────────────────────────────────┘                 │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules: no finding.",
                "",
                " Enter Save  Tab next  Esc cancel",
            ])
        // Tab to the Discard button, by its name (bounded by the number of buttons).
        let buttons = a.dialog?.buttons ?? []
        XCTAssertTrue(buttons.contains("Discard"), "\(buttons)")
        for _ in buttons.indices where a.dialog.map({ $0.buttons[$0.focusedButton] }) != "Discard" { a.handle(.tab) }
        XCTAssertEqual(a.dialog.map { $0.buttons[$0.focusedButton] }, "Discard")
        XCTAssertEqual(lines(a).last, " Enter Discard  Tab next  Esc cancel", "Enter names the focused button")
    }

    func testPathDialogShowsOKCompleteAndCancel() {
        let a = console()
        a.press(.open)
        a.focus(field: "apps")
        a.press(.open)
        a.focus(field: "credentials.keyFile")
        a.handle(.enter)
        assertScreen(
            a,
            [
                " PushDesk — Service neotrips › Neotrips iOS (sandbox)          F1 help  default",
                " iOS sandbox app · neotrips-ios-dev",
                " Information  Credentials  Variables  Subscription parameters  Sounds  Channels",
                "┌ Credentials (Ctrl-Y: check online) ──────────────────────────────────────────┐",
                "│Auth mode       ‹ token       ›                                               │",
                "│Key ID          ABC123DEFG                                           10 chars │",
                "│Team ID         DEF123GHIJ                                           10 chars │",
                "│Key file (.p8)  credentials/AuthKey_ABC123DEFG.p8               Enter: browse │",
                "│                ↳ error: file not found: credentials/AuthKey_ABC123DEFG.p8    │",
                "│              ┌ Key file (.p8) ────────────────────────────────┐              │",
                "│              │ Path, relative to the store (Tab completes):   │              │",
                "│              │                                                │              │",
                "│              │ credentials/AuthKey_ABC123DEFG.p8              │              │",
                "│              │                                                │              │",
                "│              └────────────────────────────────────────────────┘              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules and credential checks: 1 finding (1 error); Ctrl-F lists them all",
                " error apps[0].auth.keyFile: file not found: credentials/AuthKey_A… [token.key]",
                " Enter OK  Tab complete  Esc cancel",
            ])
    }
}
