import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Drawing changes nothing: each main screen drawn twice gives the same buffer, and the
/// console's state (message, dialog, help scroll, every view on the stack with its view
/// state) is the same before the first drawing and after the second — at the size the
/// console was laid out for and at another one.
final class PureRenderTests: DemoStoreConsoleTestCase {
    /// Everything a drawing could change, as text (`dump` walks every stored property).
    func state(_ a: ConsoleApp) -> String {
        var out = ""
        dump(a.message, to: &out)
        dump(a.dialog, to: &out)
        dump(a.help.scroll, to: &out)
        for s in a.stack { dump(s, to: &out) }
        return out
    }

    func assertPure(_ a: ConsoleApp, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for (w, h) in [(80, 24), (140, 40)] {
            let before = state(a)
            let first = a.render(width: w, height: h)
            let second = a.render(width: w, height: h)
            XCTAssertEqual(first.text, second.text, "\(what) at \(w)x\(h): the frame", file: file, line: line)
            XCTAssertEqual(first.cursor?.x, second.cursor?.x, "\(what): the cursor", file: file, line: line)
            XCTAssertEqual(first.cursor?.y, second.cursor?.y, "\(what): the cursor", file: file, line: line)
            // The frame settled after the last key is the frame a fresh drawing gives, cell for cell.
            var (help, question) = (a.help, a.question)
            let fresh = a.frame.draw(
                width: w, height: h, asciiOnly: false, settling: false, help: &help, question: &question)
            XCTAssertEqual(first, fresh, "\(what) at \(w)x\(h): settled and fresh frames", file: file, line: line)
            XCTAssertEqual(before, state(a), "\(what) at \(w)x\(h): the state", file: file, line: line)
        }
    }

    /// Actions the walk leaves alone: leaving, and what reaches outside the console (the
    /// network, a listener, git) or only moves within a view.
    static let notWalked: [Action] = [
        .quit, .back, .redraw, .takeLock, .checkOnline, .sendTest, .dryRun, .listen, .fetchChannels, .sync, .commit,
        .resolve, .history, .up, .down, .pageUp, .pageDown, .top, .bottom, .cursorLeft, .cursorRight, .lineStart,
        .lineEnd, .lineUp, .lineDown, .deleteBack, .deleteForward, .deleteWord, .deleteToStart, .deleteToEnd,
        .newline, .scrollLeft, .scrollRight, .undo, .save,
    ]

    /// Where a walk stands: the view in front, its tab, the key contexts in force (a table or
    /// the preview with focus), and whether a dialog or help is open.
    func place(_ a: ConsoleApp) -> String {
        "\(Swift.type(of: a.top)) \(a.top.focus.tab ?? "-") \(a.policy.activeContexts.map(\.rawValue)) "
            + "dialog:\(a.dialog?.title ?? "-") help:\(a.help.visible)"
    }

    /// The actions to try where `a` stands: each bound in the contexts in force that changes
    /// nothing on disk, or asks first (a walk never answers yes).
    /// Help and the theme switcher, which look the same over every view, only from the first.
    func walkable(_ a: ConsoleApp, first: Bool = false) -> [KeyBinding] {
        var seen: [Action] = []
        return KeyRegistry.bindings(in: a.policy.activeContexts).filter { b in
            guard !b.byFirstLetter, !b.keys.isEmpty, !Self.notWalked.contains(b.action), !seen.contains(b.action),
                !b.writes || b.dangerous, first || (b.action != .help && b.action != .themes)
            else { return false }
            seen.append(b.action)
            return true
        }
    }

    /// A console on the demo store after `path`, each action pressed with the key the
    /// registry names for it where the focus is.
    func replay(_ path: [Action]) -> ConsoleApp {
        let a = app()
        a.resize(width: 80, height: 24)
        for (i, action) in path.enumerated() {
            guard let b = walkable(a, first: i == 0).first(where: { $0.action == action }) else { break }
            a.handle(b.shownKey(textFocused: a.top.textFocused))
        }
        return a
    }

    /// Every view the registry's keys reach from the services list (breadth first, each
    /// place once, a dialog or help being the end of a path) draws without changing anything.
    /// No list of views: a new view reached by a key is walked with the rest.
    func testEveryViewReachedByKeysDrawsWithoutChangingState() {
        var seen: Set<String> = []
        var views: Set<String> = []
        var queue: [[Action]] = [[]]
        while !queue.isEmpty, seen.count < 150 {
            let path = queue.removeFirst()
            let a = replay(path)
            let here = place(a)
            guard seen.insert(here).inserted else { continue }
            views.insert("\(Swift.type(of: a.top))")
            assertPure(a, path.isEmpty ? "the first view" : path.map(\.rawValue).joined(separator: " → "))
            guard a.dialog == nil, !a.help.visible, path.count < 6 else { continue }
            for b in walkable(a, first: path.isEmpty) {
                let next = replay(path + [b.action])
                if !seen.contains(place(next)) { queue.append(path + [b.action]) }
            }
        }
        XCTAssertGreaterThanOrEqual(views.count, 10, "views reached: \(views.sorted())")
    }

    /// What a walk by actions does not reach: edited fields, scrolled help and preview.
    func testEditedAndScrolledViewsDrawWithoutChangingState() {
        let a = app()
        a.resize(width: 80, height: 24)
        a.handle(.char("?"))
        for _ in 0..<30 { a.handle(.down) }
        assertPure(a, "help overlay, scrolled")
        a.handle(.escape)
        a.handle(.enter)
        type(a, "x")
        assertPure(a, "service editor, edited")
        a.handle(.ctrl("z"))
        a.handle(.escape)
        a.handle(.char("D"))
        a.handle(.enter)
        a.show(tab: "ios")
        a.handle(.ctrl("v"))
        a.handle(.pageDown)
        assertPure(a, "composer, preview focused and scrolled")
        a.handle(.escape)
        a.handle(.escape)
        a.handle(.escape)
        a.press(.testDevices)
        a.press(.open)
        a.focus(field: "devices")
        a.press(.down)
        assertPure(a, "profile editor, devices focused")
        a.press(.open)
        a.focus(field: "token")
        type(a, "zz")
        assertPure(a, "device editor, a bad token")
        a.focus(field: "app")
        a.press(.pick)
        assertPure(a, "app picker")
    }
}
