/// A column of labelled fields: text, secret (masked), path (text with completion),
/// choice, checkbox and multi-line text, each with an optional validation message under it.
public struct FormField: Sendable {
    public enum Kind: Equatable, Sendable {
        case text, secret, path
        case choice([String])
        case checkbox
        /// Multi-line text that grows with its content between `rows` bounds.
        case textArea(rows: ClosedRange<Int>)
    }
    /// Stable id used by screens and by findings (`label`, `integrationKey`, …).
    public var id: String
    public var label: String
    public var kind: Kind
    public var input: TextField
    public var checked = false
    /// Message shown under the field (a finding or an input error), with its role.
    public var message: String?
    public var messageRole: Role = .formError
    /// Read-only note after the field (e.g. "required").
    public var note: String = ""
    /// The editor of a `.textArea` field.
    public var area = TextArea()
    /// Greyed out: what the record's current settings do not send (still editable, so it
    /// can be cleared; the note says why).
    public var dimmed = false
    /// Shows a value the record inherits (a language variant's value from the default): drawn
    /// greyed until focused, and the note says so; typing makes it the record's own.
    public var inherited = false

    public init(
        id: String, label: String, kind: Kind = .text, value: String = "", checked: Bool = false, note: String = ""
    ) {
        self.id = id
        self.label = label
        self.kind = kind
        self.input = TextField(value, masked: kind == .secret)
        self.checked = checked
        self.note = note
        if case .textArea = kind {
            area = TextArea(value)
            input = TextField()
        }
    }

    public var isTextArea: Bool { if case .textArea = kind { true } else { false } }

    public var value: String {
        get { kind == .checkbox ? (checked ? "true" : "false") : isTextArea ? area.text : input.text }
        set {
            if kind == .checkbox {
                checked = newValue == "true"
            } else if isTextArea {
                area.text = newValue
            } else {
                input.text = newValue
            }
        }
    }
    /// Fields that take typing. A `.secret` field never holds the secret: Enter opens a
    /// masked input and the field shows only whether one is set.
    public var isTextual: Bool { kind == .text || kind == .path || isTextArea }
}

public struct Form: Sendable {
    public var fields: [FormField]
    public var focus = 0
    private var scroll = 0

    /// Screen row of each field from the last render (for mouse clicks).
    private var lastRows: [Int: Int] = [:]
    private var lastRect = Rect(x: 0, y: 0, width: 0, height: 0)

    public init(_ fields: [FormField]) { self.fields = fields }

    /// Focuses the field drawn at screen row `y`; false when none is there.
    public mutating func click(x: Int, y: Int) -> Bool {
        guard x >= lastRect.x, x < lastRect.maxX, let i = lastRows.first(where: { $0.value == y })?.key else {
            return false
        }
        focus = i
        return true
    }

    public enum Event: Equatable {
        case changed(String)
        case moved, unhandled
        case pick(String)

        /// The field a text key changed, which the editor writes into its draft.
        public var changedField: String? { if case .changed(let id) = self { id } else { nil } }
        /// A text key the field took (it changed the value or moved the cursor).
        public var used: Bool { self == .moved || changedField != nil }
    }

    public var focused: FormField? { fields.indices.contains(focus) ? fields[focus] : nil }

    /// `fresh` in place of the fields when `force` (a new tab) or their ids differ, the focus
    /// kept on its field unless forced; false when the ids are the same, and the caller
    /// updates the values in place so cursors stay where they are.
    public mutating func replace(with fresh: [FormField], force: Bool = false) -> Bool {
        guard force || fresh.map(\.id) != fields.map(\.id) else { return false }
        let keep = focused?.id
        self = Form(fresh)
        if !force, let keep { focus(id: keep) }
        return true
    }
    public subscript(id: String) -> String {
        get { fields.first { $0.id == id }?.value ?? "" }
        set { if let i = fields.firstIndex(where: { $0.id == id }) { fields[i].value = newValue } }
    }
    public mutating func focus(id: String) { if let i = fields.firstIndex(where: { $0.id == id }) { focus = i } }
    public mutating func setMessage(_ id: String, _ m: String?, role: Role = .formError) {
        if let i = fields.firstIndex(where: { $0.id == id }) {
            fields[i].message = m
            fields[i].messageRole = role
        }
    }
    public mutating func clearMessages() { for i in fields.indices { fields[i].message = nil } }

    /// Keys typed into the focused text field (printable text, paste, editing keys).
    public mutating func handleText(_ key: Key) -> Event {
        guard fields.indices.contains(focus), fields[focus].isTextual else { return .unhandled }
        let before = fields[focus].value
        let used = fields[focus].isTextArea ? fields[focus].area.handle(key) : fields[focus].input.handle(key)
        guard used else { return .unhandled }
        return fields[focus].value != before ? .changed(fields[focus].id) : .moved
    }

    public mutating func handle(_ action: Action) -> Event {
        guard !fields.isEmpty else { return .unhandled }
        switch action {
        case .newline:
            guard fields[focus].isTextArea else { return .unhandled }
            fields[focus].area.insertNewline()
            return .changed(fields[focus].id)
        case .lineUp, .lineDown:
            // Past the first / last row the arrows leave the text for the field above / below.
            if fields[focus].isTextArea, fields[focus].area.moveVertically(action == .lineUp ? -1 : 1) { return .moved }
            return handle(action == .lineUp ? .prevField : .nextField)
        case .nextField:
            focus = (focus + 1) % fields.count
            return .moved
        case .prevField:
            focus = (focus + fields.count - 1) % fields.count
            return .moved
        case .toggle:
            switch fields[focus].kind {
            case .checkbox:
                fields[focus].checked.toggle()
                return .changed(fields[focus].id)
            case .choice(let opts):
                let i = opts.firstIndex(of: fields[focus].input.text) ?? -1
                fields[focus].input.text = opts[(i + 1) % opts.count]
                return .changed(fields[focus].id)
            default: return .unhandled
            }
        case .pick:
            switch fields[focus].kind {
            case .choice, .path, .secret: return .pick(fields[focus].id)
            case .checkbox:
                fields[focus].checked.toggle()
                return .changed(fields[focus].id)
            default:
                focus = (focus + 1) % fields.count
                return .moved
            }
        default: return .unhandled
        }
    }

    /// Label column width and value width for a form this wide.
    private func metrics(width: Int) -> (labelW: Int, fieldW: Int) {
        let labelW = min(max(8, fields.map { TextWidth.width(of: $0.label) }.max() ?? 8), width / 3)
        // Fields stop growing at 72 columns so that notes and messages stay near the value.
        return (labelW, max(4, min(72, width - labelW - 3)))
    }
    /// Rows of the value: one, or a text area's wrapped rows within its bounds.
    private func valueRows(_ f: FormField, fieldW: Int) -> Int {
        guard case .textArea(let bounds) = f.kind else { return 1 }
        return min(max(f.area.rowCount(width: fieldW), bounds.lowerBound), bounds.upperBound)
    }
    /// Rows each field takes: its value, plus its message wrapped (at most 3 lines).
    private func height(_ f: FormField, width: Int, fieldW: Int) -> Int {
        valueRows(f, fieldW: fieldW) + messageLines(f, width: width).count
    }
    private func messageLines(_ f: FormField, width: Int) -> [String] {
        guard let m = f.message else { return [] }
        return TextWidth.wrap("↳ " + m, to: max(10, width), maxLines: 3)
    }
    /// Rows the whole form takes at this width (for layouts that size a box to it).
    public func height(width: Int) -> Int {
        let (labelW, fieldW) = metrics(width: width)
        return fields.reduce(0) { $0 + height($1, width: width - labelW - 2, fieldW: fieldW) }
    }

    public mutating func render(into buf: inout CellBuffer, _ rect: Rect, focused: Bool) {
        guard !rect.isEmpty else { return }
        let (labelW, fieldW) = metrics(width: rect.width)
        let fieldX = rect.x + labelW + 2
        // Scroll so that the focused field (and its message) is visible.
        let msgW = rect.maxX - fieldX
        var tops: [Int] = []
        var total = 0
        for f in fields {
            tops.append(total)
            total += height(f, width: msgW, fieldW: fieldW)
        }
        if fields.indices.contains(focus) {
            let h = height(fields[focus], width: msgW, fieldW: fieldW)
            if tops[focus] < scroll { scroll = tops[focus] }
            if tops[focus] + h > scroll + rect.height { scroll = tops[focus] + min(h, rect.height) - rect.height }
        }
        scroll = max(0, min(scroll, total - rect.height))
        lastRect = rect
        lastRows = [:]
        for i in fields.indices {
            let y = rect.y + tops[i] - scroll
            if y >= rect.y, y < rect.maxY { lastRows[i] = y }
            let rows = valueRows(fields[i], fieldW: fieldW)
            let message = messageLines(fields[i], width: msgW)
            // A field scrolled off the top may still show the end of its message.
            guard y + rows + message.count > rect.y, y < rect.maxY else { continue }
            let isFocus = focused && i == focus
            let f = fields[i]
            let dim = f.dimmed && !isFocus
            if y + rows <= rect.y {
                // Only the message shows.
            } else if y >= rect.y {
                buf.putPadded(
                    f.label, x: rect.x, y: y, columns: labelW,
                    role: isFocus ? .formFieldFocus : dim ? .formDisabled : .formLabel)
            }
            let role: Role = isFocus ? .formFieldFocus : dim || f.inherited ? .formDisabled : .formField
            switch y + rows <= rect.y ? nil : f.kind {
            case nil: break
            case .checkbox:
                buf.put(f.checked ? "[x]" : "[ ]", x: fieldX, y: y, role: role)
                if !f.note.isEmpty { buf.put(f.note, x: fieldX + 4, y: y, role: .muted, maxX: rect.maxX) }
                if isFocus { buf.cursor = (fieldX + 1, y) }
            case .secret:
                buf.putPadded(f.input.text, x: fieldX, y: y, columns: min(fieldW, 24), role: role)
                if !f.note.isEmpty {
                    buf.put(f.note, x: fieldX + min(fieldW, 24) + 1, y: y, role: .muted, maxX: rect.maxX)
                }
            case .choice(let opts):
                let w = min(fieldW, (opts.map { TextWidth.width(of: $0) }.max() ?? 4) + 4)
                buf.putPadded("‹ " + f.input.text, x: fieldX, y: y, columns: w - 1, role: role)
                buf.put("›", x: fieldX + w - 1, y: y, role: role)
                if !f.note.isEmpty { buf.put(f.note, x: fieldX + w + 1, y: y, role: .muted, maxX: rect.maxX) }
                // On the value, as a checkbox's: a terminal (and a screen reader) shows where the focus is.
                if isFocus { buf.cursor = (fieldX + 2, y) }
            case .textArea:
                // Only the rows inside the form's rectangle (a tall body may be cut at the top).
                let top = max(y, rect.y)
                let bottom = min(y + rows, rect.maxY)
                var area = fields[i].area
                if top == y {
                    area.render(
                        into: &buf, x: fieldX, y: y, width: fieldW, height: bottom - top, focused: isFocus, role: role)
                } else if bottom > top {
                    // Cut at the top: draw it whole off-screen, copy the rows that show.
                    var scratch = CellBuffer(width: fieldW, height: rows)
                    area.render(into: &scratch, x: 0, y: 0, width: fieldW, height: rows, focused: isFocus, role: role)
                    for yy in top..<bottom {
                        for xx in 0..<min(fieldW, buf.width - fieldX) { buf[fieldX + xx, yy] = scratch[xx, yy - y] }
                    }
                    if isFocus, let c = scratch.cursor, c.y + y >= top { buf.cursor = (fieldX + c.x, y + c.y) }
                }
                fields[i].area = area
                if !f.note.isEmpty, top == y, fieldX + fieldW + 1 < rect.maxX {
                    buf.put(f.note, x: fieldX + fieldW + 1, y: y, role: .muted, maxX: rect.maxX)
                }
            default:
                let noteW = f.note.isEmpty ? 0 : TextWidth.width(of: f.note) + 1
                fields[i].input.render(into: &buf, x: fieldX, y: y, width: fieldW - noteW, focused: isFocus, role: role)
                if noteW > 0 { buf.put(f.note, x: fieldX + fieldW - noteW + 1, y: y, role: .muted) }
            }
            for (j, l) in message.enumerated() where y + rows + j < rect.maxY && y + rows + j >= rect.y {
                var text = j == 0 ? l : "  " + l
                // The frame's last row and more of the message below it: say so, never stop mid-sentence.
                if y + rows + j == rect.maxY - 1, j < message.count - 1 {
                    text = TextWidth.truncate(text + " …", to: rect.maxX - fieldX)
                }
                buf.put(text, x: fieldX, y: y + rows + j, role: f.messageRole, maxX: rect.maxX)
            }
        }
        Self.scrollMarkers(into: &buf, rect, above: scroll > 0, below: scroll + rect.height < total)
    }

    /// "↑ more" / "↓ more" on the frame around a list or form that does not fit (every form
    /// and boxed table sits in a box: the markers take border cells, never content).
    static func scrollMarkers(into buf: inout CellBuffer, _ rect: Rect, above: Bool, below: Bool) {
        let x = rect.maxX - 8
        guard x > rect.x else { return }
        if above, rect.y > 0 { buf.put(" ↑ more ", x: x, y: rect.y - 1, role: .muted) }
        if below, rect.maxY < buf.height { buf.put(" ↓ more ", x: x, y: rect.maxY, role: .muted) }
    }
}
