/// A column of labelled fields: text, secret (masked), path (text with completion),
/// choice and checkbox, each with an optional validation message under it.
public struct FormField: Sendable {
    public enum Kind: Equatable, Sendable {
        case text, secret, path
        case choice([String])
        case checkbox
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

    public init(id: String, label: String, kind: Kind = .text, value: String = "", checked: Bool = false, note: String = "") {
        self.id = id; self.label = label; self.kind = kind
        self.input = TextField(value, masked: kind == .secret)
        self.checked = checked; self.note = note
    }

    public var value: String {
        get { kind == .checkbox ? (checked ? "true" : "false") : input.text }
        set { if kind == .checkbox { checked = newValue == "true" } else { input.text = newValue } }
    }
    /// Fields that take typing. A `.secret` field never holds the secret: Enter opens a
    /// masked input and the field shows only whether one is set.
    public var isTextual: Bool { kind == .text || kind == .path }
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
        guard x >= lastRect.x, x < lastRect.maxX, let i = lastRows.first(where: { $0.value == y })?.key else { return false }
        focus = i
        return true
    }

    public enum Event: Equatable { case changed(String), moved, unhandled, pick(String) }

    public var focused: FormField? { fields.indices.contains(focus) ? fields[focus] : nil }
    public subscript(id: String) -> String {
        get { fields.first { $0.id == id }?.value ?? "" }
        set { if let i = fields.firstIndex(where: { $0.id == id }) { fields[i].value = newValue } }
    }
    public mutating func focus(id: String) { if let i = fields.firstIndex(where: { $0.id == id }) { focus = i } }
    public mutating func setMessage(_ id: String, _ m: String?, role: Role = .formError) {
        if let i = fields.firstIndex(where: { $0.id == id }) { fields[i].message = m; fields[i].messageRole = role }
    }
    public mutating func clearMessages() { for i in fields.indices { fields[i].message = nil } }

    /// Keys typed into the focused text field (printable text, paste, editing keys).
    public mutating func handleText(_ key: Key) -> Event {
        guard fields.indices.contains(focus), fields[focus].isTextual else { return .unhandled }
        let before = fields[focus].input.text
        guard fields[focus].input.handle(key) else { return .unhandled }
        return fields[focus].input.text != before ? .changed(fields[focus].id) : .moved
    }

    public mutating func handle(_ action: Action) -> Event {
        guard !fields.isEmpty else { return .unhandled }
        switch action {
        case .nextField: focus = (focus + 1) % fields.count; return .moved
        case .prevField: focus = (focus + fields.count - 1) % fields.count; return .moved
        case .toggle:
            switch fields[focus].kind {
            case .checkbox: fields[focus].checked.toggle(); return .changed(fields[focus].id)
            case .choice(let opts):
                let i = opts.firstIndex(of: fields[focus].input.text) ?? -1
                fields[focus].input.text = opts[(i + 1) % opts.count]; return .changed(fields[focus].id)
            default: return .unhandled
            }
        case .pick:
            switch fields[focus].kind {
            case .choice, .path, .secret: return .pick(fields[focus].id)
            case .checkbox: fields[focus].checked.toggle(); return .changed(fields[focus].id)
            default: focus = (focus + 1) % fields.count; return .moved
            }
        default: return .unhandled
        }
    }

    /// Rows each field takes: one, plus its message wrapped (at most 3 lines).
    private func height(_ f: FormField, width: Int) -> Int { 1 + messageLines(f, width: width).count }
    private func messageLines(_ f: FormField, width: Int) -> [String] {
        guard let m = f.message else { return [] }
        return TextWidth.wrap("↳ " + m, to: max(10, width), maxLines: 3)
    }
    /// Rows the whole form takes at this width (for layouts that size a box to it).
    public func height(width: Int) -> Int {
        let labelW = min(max(8, fields.map { TextWidth.width(of: $0.label) }.max() ?? 8), width / 3)
        return fields.reduce(0) { $0 + height($1, width: width - labelW - 2) }
    }

    public mutating func render(into buf: inout CellBuffer, _ rect: Rect, focused: Bool) {
        guard !rect.isEmpty else { return }
        let labelW = min(max(8, fields.map { TextWidth.width(of: $0.label) }.max() ?? 8), rect.width / 3)
        let fieldX = rect.x + labelW + 2
        // Fields stop growing at 72 columns so that notes and messages stay near the value.
        let fieldW = max(4, min(72, rect.maxX - fieldX - 1))
        // Scroll so that the focused field (and its message) is visible.
        let msgW = rect.maxX - fieldX
        let tops = fields.indices.map { i in fields[..<i].reduce(0) { $0 + height($1, width: msgW) } }
        if fields.indices.contains(focus) {
            let h = height(fields[focus], width: msgW)
            if tops[focus] < scroll { scroll = tops[focus] }
            if tops[focus] + h > scroll + rect.height { scroll = tops[focus] + h - rect.height }
        }
        lastRect = rect; lastRows = [:]
        for i in fields.indices {
            let y = rect.y + tops[i] - scroll
            if y >= rect.y, y < rect.maxY { lastRows[i] = y }
            guard y >= rect.y, y < rect.maxY else { continue }
            let isFocus = focused && i == focus
            let f = fields[i]
            buf.putPadded(f.label, x: rect.x, y: y, columns: labelW, role: isFocus ? .formFieldFocus : .formLabel)
            let role: Role = isFocus ? .formFieldFocus : .formField
            switch f.kind {
            case .checkbox:
                buf.put(f.checked ? "[x]" : "[ ]", x: fieldX, y: y, role: role)
                if isFocus { buf.cursor = (fieldX + 1, y) }
            case .secret:
                buf.putPadded(f.input.text, x: fieldX, y: y, columns: min(fieldW, 24), role: role)
                if !f.note.isEmpty { buf.put(f.note, x: fieldX + min(fieldW, 24) + 1, y: y, role: .muted, maxX: rect.maxX) }
            case .choice(let opts):
                let w = min(fieldW, (opts.map { TextWidth.width(of: $0) }.max() ?? 4) + 4)
                buf.putPadded("‹ " + f.input.text, x: fieldX, y: y, columns: w - 1, role: role)
                buf.put("›", x: fieldX + w - 1, y: y, role: role)
            default:
                let noteW = f.note.isEmpty ? 0 : TextWidth.width(of: f.note) + 1
                fields[i].input.render(into: &buf, x: fieldX, y: y, width: fieldW - noteW, focused: isFocus, role: role)
                if noteW > 0 { buf.put(f.note, x: fieldX + fieldW - noteW + 1, y: y, role: .muted) }
            }
            for (j, l) in messageLines(f, width: msgW).enumerated() where y + 1 + j < rect.maxY {
                buf.put(j == 0 ? l : "  " + l, x: fieldX, y: y + 1 + j, role: f.messageRole, maxX: rect.maxX)
            }
        }
    }
}
