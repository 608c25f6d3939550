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

    func testEveryMainScreenDrawsWithoutChangingState() {
        let a = app()
        a.resize(width: 80, height: 24)
        assertPure(a, "services list")
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
        assertPure(a, "deliveries list")
        a.handle(.enter)
        assertPure(a, "composer, content tab")
        a.show(tab: "ios")
        assertPure(a, "composer, iOS tab")
        a.handle(.ctrl("v"))
        a.handle(.pageDown)
        assertPure(a, "composer, preview focused and scrolled")
        a.handle(.ctrl("y"))
        assertPure(a, "copy-out dialog")
        a.handle(.escape)
        a.handle(.ctrl("f"))
        assertPure(a, "findings")
        a.handle(.escape)
        a.handle(.escape)
        a.handle(.escape)
        a.handle(.char("d"))
        assertPure(a, "delete dialog")
    }

    func testTestDevicesViewsDrawWithoutChangingState() {
        let a = app()
        a.resize(width: 80, height: 24)
        a.press(.testDevices)
        assertPure(a, "test devices")
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
