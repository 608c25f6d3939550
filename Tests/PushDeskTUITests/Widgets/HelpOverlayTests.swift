import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The help overlay: no row touches the border, what is cut ends with …, scrolling is
/// marked above and below.
final class HelpOverlayTests: WholeScreenTestCase {
    func testHelpInAFormAt80x24() {
        let a = console()
        a.press(.open)
        a.focus(field: "label")
        a.handle(.f(1))  // help: in a text field `?` types
        assertScreen(
            a,
            [
                " PushDesk — Service neotrips                                   F1 help  default",
                "┌┌ Keys (↑↓ scroll, Esc closes) ──────────────────────────────────────────────┐┐",
                "││ Forms                                                                      ││",
                "││  Tab ↓             Next field                                              ││",
                "││  Shift-Tab ↑       Previous field                                          ││",
                "││  Space             Toggle a checkbox or cycle a choice                     ││",
                "││  Enter             Open the choices of a choice field; next field otherwi… ││",
                "└│ Service editor                                                             │┘",
                "┌│  Ctrl-Y            Deliveries of this service                              │┐",
                "││ Text fields (one line, and the body)                                       ││",
                "││  ← Ctrl-B          Cursor left                                             ││",
                "││  →                 Cursor right                                            ││",
                "││  Home Ctrl-A       Start of the value (in the body: of the line)           ││",
                "││  End Ctrl-E        End of the value (in the body: of the line)             ││",
                "││  Backspace Ctrl-H  Delete the character before the cursor                  ││",
                "││  Delete Ctrl-D     Delete the character at the cursor                      ││",
                "││  Ctrl-W            Delete the word before the cursor                       ││",
                "││  Ctrl-U            Delete to the start (in the body: of the line)          ││",
                "││  Ctrl-K            Delete to the end (body: of the line; at its end, join) ││",
                "││ Everywhere                                                                 ││",
                "└│  ? F1 Ctrl-R       Show the keys of this view (Ctrl-R inside text fields)  │┘",
                " │  Ctrl-S F2         Save the record being edited                            │",
                " └─────────────────────────────────────────────────────────────────── ↓ more ─┘",
                " Tab next  Ctrl-Y deliveries  F1 help  Ctrl-S save  Ctrl-Q quit",
            ])
        for _ in 0..<80 { a.handle(.down) }
        assertScreen(
            a,
            [
                " PushDesk — Service neotrips                                   F1 help  default",
                "┌┌ Keys (↑↓ scroll, Esc closes) ───────────────────────────────────── ↑ more ─┐┐",
                "││ Text fields (one line, and the body)                                       ││",
                "││  ← Ctrl-B          Cursor left                                             ││",
                "││  →                 Cursor right                                            ││",
                "││  Home Ctrl-A       Start of the value (in the body: of the line)           ││",
                "││  End Ctrl-E        End of the value (in the body: of the line)             ││",
                "└│  Backspace Ctrl-H  Delete the character before the cursor                  │┘",
                "┌│  Delete Ctrl-D     Delete the character at the cursor                      │┐",
                "││  Ctrl-W            Delete the word before the cursor                       ││",
                "││  Ctrl-U            Delete to the start (in the body: of the line)          ││",
                "││  Ctrl-K            Delete to the end (body: of the line; at its end, join) ││",
                "││ Everywhere                                                                 ││",
                "││  ? F1 Ctrl-R       Show the keys of this view (Ctrl-R inside text fields)  ││",
                "││  Ctrl-S F2         Save the record being edited                            ││",
                "││  Ctrl-Z            Undo the last edit of this record                       ││",
                "││  Ctrl-Q F10 Ctrl-C Quit (asks when there are unsaved changes)              ││",
                "││  Ctrl-L            Redraw the whole screen                                 ││",
                "││  Ctrl-T F9         Choose a colour theme                                   ││",
                "││  Ctrl-F F4         Show every finding of the store                         ││",
                "└│  Esc               Close this view (asks when there are unsaved changes)   │┘",
                " │  Ctrl-X            Read-only console: take the store\'s lock once its hold… │",
                " └────────────────────────────────────────────────────────────────────── end ─┘",
                " Tab next  Ctrl-Y deliveries  F1 help  Ctrl-S save  Ctrl-Q quit",
            ])
    }
}
