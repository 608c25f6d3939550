import Foundation
import PushDeskCore

/// Drawing the app: after every key the views are laid out for the terminal's size and the
/// frame drawn once; `render` returns it, or draws another size from copies. Nothing here
/// changes the app's state.
extension ConsoleApp {
    /// The title row, the body the views draw in (under the read-only banner) and the status row.
    func frame(width: Int, height: Int) -> (title: Rect, body: Rect, status: Rect) {
        let all = Rect(x: 0, y: 0, width: width, height: height)
        let (titleRow, rest) = all.splitTop(1)
        var (body, statusRow) = rest.splitBottom(1)
        if access.banner != nil { body = body.splitTop(1).1 }
        return (titleRow, body, statusRow)
    }

    /// After every key: the top view brings what it shows up to date, then the frame of the
    /// current size is drawn once, keeping the scroll offsets and click areas of the view,
    /// the help overlay and the dialog.
    func settle() {
        settledFrame = nil
        guard viewWidth >= Self.minWidth, viewHeight >= Self.minHeight else { return }
        top.update(frame(width: viewWidth, height: viewHeight).body, app: context)
        settledFrame = draw(width: viewWidth, height: viewHeight, asciiOnly: asciiOnly, settling: true)
    }

    // MARK: drawing

    /// Draws the whole state into a new buffer of this size; changes nothing (view state was
    /// laid out for `viewWidth` × `viewHeight` after the last key: another size draws from
    /// copies laid out on the fly).
    public func render(width: Int, height: Int, asciiOnly: Bool = false) -> CellBuffer {
        if let f = settledFrame, f.width == width, f.height == height, f.asciiOnly == asciiOnly { return f }
        return draw(width: width, height: height, asciiOnly: asciiOnly, settling: false)
    }

    /// Draws a frame. Only `settle` passes `settling`: then the views keep the view state the
    /// drawing lays out (scroll offsets, click areas, the help overlay's and the dialog's);
    /// otherwise each draws from a copy and nothing changes.
    func draw(width: Int, height: Int, asciiOnly: Bool, settling: Bool) -> CellBuffer {
        var buf = CellBuffer(width: width, height: height)
        buf.asciiOnly = asciiOnly
        buf.fill(buf.bounds, role: .normal)
        guard width >= Self.minWidth, height >= Self.minHeight else {
            TooSmallView.render(into: &buf, dialog: dialog)
            return buf
        }
        let (titleRow, body, statusRow) = frame(width: width, height: height)
        if let banner = access.banner {
            // A read-only console says so on every screen, with who holds the store.
            let line = Rect(x: 0, y: titleRow.maxY, width: width, height: 1)
            buf.fill(line, role: .findingWarning)
            buf.put(" " + banner, x: line.x, y: line.y, role: .findingWarning, maxX: line.maxX)
        }
        buf.fill(titleRow, role: .title)
        let dirty = stack.contains { $0.session?.isDirty ?? false }
        var x = 1
        if dirty { x = buf.put("* ", x: x, y: 0, role: .titleDirty) }
        // In a text field `?` is a character: the title names the key that opens help there.
        let help = KeyRegistry.bindings(in: [.global]).first { $0.action == .help }
        let helpKey = help?.shownKey(textFocused: top.textFocused).label ?? "?"
        let right = "\(helpKey) help  " + themeName
        let titleEnd = width - TextWidth.width(of: right) - 2
        let title =
            "PushDesk — " + top.title + (git.map { " [\($0.summary)]" } ?? "")
            + (access.isReadOnly ? " [read-only]" : "")
        x = buf.put(
            TextWidth.truncate(title, to: titleEnd - x - (dirty ? 11 : 0)), x: x, y: 0, role: .title, maxX: titleEnd)
        if dirty { buf.put(" (modified)", x: x, y: 0, role: .titleDirty, maxX: titleEnd) }
        buf.put(right, x: width - TextWidth.width(of: right) - 1, y: 0, role: .title)
        if settling { top.layOut(into: &buf, body, app: context) } else { top.render(into: &buf, body, app: context) }
        // Only what can act here: no "save" where nothing is open, no "new" in a read-only console.
        // A dialog has the focus: its keys, not those of the view behind it.
        let hints =
            dialog?.hints ?? KeyRegistry.hints(for: activeContexts, textFocused: top.textFocused, hiding: hintHidden)
        StatusBar.render(into: &buf, statusRow, hints: hints, message: message)
        if helpVisible {
            buf.cursor = nil
            let used = HelpOverlay.render(
                into: &buf, in: body, contexts: activeContexts, scroll: helpScroll, hiding: notHereInHelp)
            if settling { helpScroll = used }
        }
        if var q = question {
            buf.cursor = nil
            q.dialog.render(into: &buf, in: body)
            if settling { question = q }
        }
        return buf
    }
}
