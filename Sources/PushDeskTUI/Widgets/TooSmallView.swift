/// What a terminal smaller than the console's minimum shows: the size, what is needed and
/// how to get out, wrapped over the rows there are (a 20-column terminal still reads it).
/// Keys keep working while it shows; an open dialog (the Save / Discard / Cancel question
/// of Ctrl-Q) is named with its answers, so nothing is answered blind.
enum TooSmallView {
    static func lines(width: Int, height: Int, dialog: Dialog?) -> [String] {
        let size = "\(width)x\(height)"
        let text: String
        if let d = dialog {
            let answers = d.kind == .buttons ? d.buttons.joined(separator: " / ") : "enlarge it to answer, Esc cancels"
            text = "Too small: \(size). \(d.title): \(answers)"
        } else {
            text =
                "Terminal too small: \(size), need \(ConsoleApp.minWidth)x\(ConsoleApp.minHeight). Enlarge it or press Ctrl-Q."
        }
        return TextWidth.wrap(text, to: width, maxLines: max(1, height))
    }

    static func render(into buf: inout CellBuffer, dialog: Dialog?) {
        for (y, line) in lines(width: buf.width, height: buf.height, dialog: dialog).enumerated() {
            buf.put(line, x: 0, y: y, role: .statusMessage)
        }
    }
}
