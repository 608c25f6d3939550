import Foundation
import XCTest

@testable import PushDeskTUI

/// Keys whose sequences the terminfo entry does not name (a mismatched TERM, tmux's own
/// sequences): they must act as the key, and an unknown sequence must not leak in as text.
final class TmuxKeySequenceTests: TmuxTestCase {
    /// Under TERM=xterm, tmux sends End as ESC [ 4 ~ and Home as ESC [ 1 ~, which xterm's
    /// entry spells differently: once they closed the editor (Esc) and typed "[4~".
    func testHomeEndUnderMismatchedTermAndUnknownSequenceSwallowed() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: ["TERM": "xterm"])
        t.waitFor("neotrips")
        t.keys("Enter")
        t.waitFor("Marketing URL")
        t.focus(field: "Label")  // "Neotrips"
        t.type("\u{1b}[1~")
        t.type("<")  // Home as tmux sends it
        t.waitFor("<Neotrips")
        t.type("\u{1b}[4~")
        t.type(">")  // End as tmux sends it
        t.waitFor("<Neotrips>")
        t.type("\u{1b}[99;5~")
        t.type("\u{1b}Oz")
        t.type("!")  // unknown CSI and SS3 sequences
        // No part of an unknown sequence typed, still in the editor (no Esc seen).
        assertScreen(t, t.waitFor("<Neotrips>!"), "unknownSequencesIgnored")
        t.keys("Escape")
        t.waitFor("Save the changes")  // a real Esc still closes, asking first
        t.keys("d")
        t.waitFor("PushDesk — Services")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }
}
