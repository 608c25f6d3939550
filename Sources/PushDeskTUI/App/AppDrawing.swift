import Foundation
import PushDeskCore

/// Drawing the app: after every key the views are laid out for the terminal's size and the
/// frame drawn once (`settle`); `render` returns it, or draws another size from copies.
/// `AppFrame` draws; nothing here changes the app's state but the view state drawing lays out.
extension ConsoleApp {
    /// After every key: the top view brings what it shows up to date, then the frame of the
    /// current size is drawn once, keeping the scroll offsets and click areas of the view,
    /// the help overlay and the dialog.
    func settle() {
        state.settledFrame = nil
        let (w, h) = (state.viewWidth, state.viewHeight)
        guard w >= Self.minWidth, h >= Self.minHeight else { return }
        top.update(AppFrame.regions(width: w, height: h, banner: state.access.banner).body, app: context)
        state.settledFrame = frame.draw(
            width: w, height: h, asciiOnly: state.asciiOnly, help: &help, question: &question)
    }

    /// Draws the whole state into a buffer of this size; changes nothing (another size than
    /// the one laid out after the last key draws from copies).
    public func render(width: Int, height: Int, asciiOnly: Bool = false) -> CellBuffer {
        if let f = state.settledFrame, f.width == width, f.height == height, f.asciiOnly == asciiOnly { return f }
        var (h, q) = (help, question)
        return frame.draw(width: width, height: height, asciiOnly: asciiOnly, settling: false, help: &h, question: &q)
    }

    var frame: AppFrame { AppFrame(state: state, stack: stack, policy: policy, context: context) }
}

/// One frame of the console: the title row, the read-only banner, the top view, the status
/// row, the help overlay and the dialog.
struct AppFrame {
    let state: AppState
    let stack: ScreenStack
    let policy: KeyPolicy
    let context: AppContext

    /// The title row, the body the views draw in (under the read-only banner) and the status row.
    static func regions(width: Int, height: Int, banner: String?) -> (title: Rect, body: Rect, status: Rect) {
        let all = Rect(x: 0, y: 0, width: width, height: height)
        let (titleRow, rest) = all.splitTop(1)
        var (body, statusRow) = rest.splitBottom(1)
        if banner != nil { body = body.splitTop(1).1 }
        return (titleRow, body, statusRow)
    }

    /// Draws a frame. When `settling`, the top view, the help overlay and the dialog keep the
    /// view state the drawing lays out (scroll offsets, click areas); otherwise each draws
    /// from a copy and nothing changes.
    func draw(
        width: Int, height: Int, asciiOnly: Bool, settling: Bool = true, help: inout HelpState,
        question: inout Question?
    ) -> CellBuffer {
        var buf = CellBuffer(width: width, height: height)
        buf.asciiOnly = asciiOnly
        buf.fill(buf.bounds, role: .normal)
        guard width >= ConsoleApp.minWidth, height >= ConsoleApp.minHeight else {
            TooSmallView.render(into: &buf, dialog: question?.dialog)
            return buf
        }
        let access = state.access
        let top = stack.top
        let (titleRow, body, statusRow) = Self.regions(width: width, height: height, banner: access.banner)
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
        let helpBinding = KeyRegistry.bindings(in: [.global]).first { $0.action == .help }
        let helpKey = helpBinding?.shownKey(textFocused: top.textFocused).label ?? "?"
        let right = "\(helpKey) help  " + state.themeName
        let titleEnd = width - TextWidth.width(of: right) - 2
        let title =
            "PushDesk — " + top.title + (state.git.map { " [\($0.summary)]" } ?? "")
            + (access.isReadOnly ? " [read-only]" : "")
        x = buf.put(
            TextWidth.truncate(title, to: titleEnd - x - (dirty ? 11 : 0)), x: x, y: 0, role: .title, maxX: titleEnd)
        if dirty { buf.put(" (modified)", x: x, y: 0, role: .titleDirty, maxX: titleEnd) }
        buf.put(right, x: width - TextWidth.width(of: right) - 1, y: 0, role: .title)
        if settling { top.layOut(into: &buf, body, app: context) } else { top.render(into: &buf, body, app: context) }
        // Only what can act here: no "save" where nothing is open, no "new" in a read-only console.
        // A dialog has the focus: its keys, not those of the view behind it.
        let hints =
            question?.dialog.hints
            ?? KeyRegistry.hints(for: policy.activeContexts, textFocused: top.textFocused, hiding: policy.hintHidden)
        StatusBar.render(into: &buf, statusRow, hints: hints, message: state.message)
        if help.visible {
            buf.cursor = nil
            help.scroll = HelpOverlay.render(
                into: &buf, in: body, contexts: policy.activeContexts, scroll: help.scroll, hiding: policy.notHereInHelp
            )
        }
        if question != nil {
            buf.cursor = nil
            question?.dialog.render(into: &buf, in: body)
        }
        return buf
    }
}
