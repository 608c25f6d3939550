import Foundation

/// A modal dialog: confirm / message (buttons), text input, file path (with Tab
/// completion) and choice list. Who opened it gets the `Result` back, read as its own
/// reply type (`Ask`, Screens/Effect.swift): a dialog has no id.
public struct Dialog: Sendable {
    public enum Kind: Equatable, Sendable {
        case buttons
        case textInput
        /// File path; completion is relative to `base` unless the path is absolute.
        case filePath(base: String)
        case choices([String])
    }
    public enum Result: Equatable, Sendable {
        case button(Int)
        case text(String)
        case choice(Int)
        case cancelled
    }

    public var title: String
    public var message: String
    public var kind: Kind
    public var buttons: [String]
    public var focusedButton = 0
    public var input = TextField()
    public var choice = 0
    /// Completion candidates shown under a file path input.
    public private(set) var candidates: [String] = []

    public static func confirm(
        title: String, message: String, buttons: [String] = ["Yes", "No"], focus: Int = 1
    ) -> Dialog {
        var d = Dialog(title: title, message: message, kind: .buttons, buttons: buttons)
        d.focusedButton = focus
        return d
    }
    public static func message(title: String, message: String) -> Dialog {
        Dialog(title: title, message: message, kind: .buttons, buttons: ["OK"])
    }
    public static func textInput(title: String, message: String, value: String = "") -> Dialog {
        var d = Dialog(title: title, message: message, kind: .textInput, buttons: [])
        d.input = TextField(value)
        return d
    }
    /// A text input whose value is shown as bullets (passwords, server keys).
    public static func secretInput(title: String, message: String) -> Dialog {
        var d = Dialog(title: title, message: message, kind: .textInput, buttons: [])
        d.input = TextField("", masked: true)
        return d
    }
    public static func filePath(title: String, message: String, value: String, base: String) -> Dialog {
        var d = Dialog(title: title, message: message, kind: .filePath(base: base), buttons: [])
        d.input = TextField(value)
        return d
    }
    public static func choices(title: String, options: [String], selected: Int) -> Dialog {
        var d = Dialog(title: title, message: "", kind: .choices(options), buttons: [])
        d.choice = max(0, selected)
        return d
    }

    /// The status bar's hints while the dialog has focus (the form behind it has none): the
    /// registry's dialog keys that act on this kind, Enter named for what it does here.
    public var hints: [(key: String, label: String)] {
        let acts: [Action]
        var enter = "OK"
        switch kind {
        case .buttons:
            acts = buttons.count > 1 ? [.open, .nextField, .back] : [.open]
            if buttons.indices.contains(focusedButton) { enter = buttons[focusedButton] }
        case .textInput: acts = [.open, .back]
        case .filePath: acts = [.open, .pick, .back]
        case .choices:
            acts = [.open, .back]
            enter = "choose"
        }
        let dialogKeys = KeyRegistry.bindings(in: contexts)
        return acts.compactMap { a in
            dialogKeys.first { $0.action == a && $0.hint != nil }.map { b in
                (key: b.keys[0].label, label: a == .open ? enter : b.hint ?? "")
            }
        }
    }

    /// The key contexts of this kind of dialog in the registry, most specific first.
    var contexts: [KeyContext] {
        switch kind {
        case .buttons: [.dialogButtons, .dialog]
        case .textInput, .filePath: [.dialog]
        case .choices: [.dialogChoices, .dialog]
        }
    }

    /// Handles a key through the registry's dialog bindings (a button's first letter
    /// included); returns a result when the dialog is done. A text or path takes every other
    /// key as editing. A path's Tab completion lists folders through `listing` (the app's
    /// `AppContext.pathEntries`): the widget itself reads nothing.
    public mutating func handle(
        _ key: Key, listing: (String) -> [PathEntry] = PathEntry.list(in:)
    ) -> Result? {
        let action = KeyRegistry.binding(for: key, in: contexts)?.action
        if action == nil, let i = KeyRegistry.firstLetter(key, of: buttons, in: contexts) { return .button(i) }
        switch (kind, action) {
        case (_, .back?): return .cancelled
        case (.buttons, .open?): return .button(focusedButton)
        case (.textInput, .open?), (.filePath, .open?): return .text(input.text)
        case (.choices, .open?): return .choice(choice)
        case (.buttons, .nextField?): focusedButton = (focusedButton + 1) % buttons.count
        case (.buttons, .prevField?): focusedButton = (focusedButton + buttons.count - 1) % buttons.count
        case (.buttons, _): break
        case (.filePath(let base), .pick?): complete(base: base, listing: listing)
        case (.textInput, .pick?): break
        case (.textInput, _), (.filePath, _):
            input.handle(key)
            candidates = []
        case (.choices, .up?): choice = max(0, choice - 1)
        case (.choices(let opts), .down?): choice = min(opts.count - 1, choice + 1)
        case (.choices, _): break
        }
        return nil
    }

    /// Tab completion of a file path: a single match is completed (with `/` for a
    /// directory), several complete their common prefix and are listed.
    mutating func complete(base: String, listing: (String) -> [PathEntry]) {
        let text = input.text
        let dirPart: String
        let prefix: String
        if let slash = text.lastIndex(of: "/") {
            dirPart = String(text[...slash])
            prefix = String(text[text.index(after: slash)...])
        } else {
            dirPart = ""
            prefix = text
        }
        let dirPath =
            dirPart.hasPrefix("/")
            ? dirPart : (base as NSString).appendingPathComponent(dirPart.isEmpty ? "." : dirPart)
        let listed = listing(dirPath).filter {
            $0.name.hasPrefix(prefix) && ($0.name.first != "." || prefix.hasPrefix("."))
        }
        let entries = listed.map(\.name).sorted()
        guard !entries.isEmpty else {
            candidates = ["(no match)"]
            return
        }
        let folders = Set(listed.filter(\.isDirectory).map(\.name))
        func isDir(_ e: String) -> Bool { folders.contains(e) }
        if entries.count == 1 {
            input = TextField(dirPart + entries[0] + (isDir(entries[0]) ? "/" : ""))
            candidates = []
        } else {
            var common = entries[0]
            for e in entries.dropFirst() { while !e.hasPrefix(common) { common.removeLast() } }
            input = TextField(dirPart + common)
            candidates = entries.map { $0 + (isDir($0) ? "/" : "") }
        }
    }

    public mutating func render(into buf: inout CellBuffer, in area: Rect) {
        // Long lines wrap to the width the dialog can take.
        let maxText = max(20, area.width - 10)
        let msgLines =
            message.isEmpty
            ? []
            : message.split(separator: "\n", omittingEmptySubsequences: false)
                .flatMap { TextWidth.wrap(String($0), to: maxText) }
        var h = 4 + msgLines.count
        // A list is as wide as its longest option (the screen permitting): what tells options apart is often at their end.
        var optionsW = 0
        if case .choices(let o) = kind { optionsW = (o.map { TextWidth.width(of: $0) }.max() ?? 0) + 4 }
        let w = min(
            area.width - 4,
            max(
                44, (msgLines.map { TextWidth.width(of: $0) }.max() ?? 0) + 6, TextWidth.width(of: title) + 8, optionsW
            ))
        switch kind {
        case .textInput, .filePath: h += 1 + min(candidates.count, 6)
        case .choices(let o): h = min(area.height - 2, o.count + 2 + msgLines.count)
        case .buttons: break
        }
        let r = area.centered(width: max(20, w), height: h)
        buf.fill(r, role: .dialog)
        buf.box(r, role: .dialog, title: title, titleRole: .dialogTitle)
        var y = r.y + 1
        for l in msgLines {
            buf.put(l, x: r.x + 2, y: y, role: .dialog, maxX: r.maxX - 2)
            y += 1
        }
        switch kind {
        case .buttons:
            y += 1
            let labels = buttons.map { "[ \($0) ]" }
            var x = r.x + (r.width - labels.reduce(0) { $0 + TextWidth.width(of: $1) + 1 }) / 2
            for (i, l) in labels.enumerated() {
                x = buf.put(l, x: x, y: y, role: i == focusedButton ? .buttonFocus : .button) + 1
            }
        case .textInput, .filePath:
            y += 1
            input.render(into: &buf, x: r.x + 2, y: y, width: r.width - 4, focused: true, role: .formFieldFocus)
            for c in candidates.prefix(6) {
                y += 1
                buf.put(c, x: r.x + 2, y: y, role: .muted, maxX: r.maxX - 2)
            }
        case .choices(let opts):
            let rows = r.height - 2 - msgLines.count
            let top = max(0, min(choice - rows + 1, opts.count - rows))
            for (i, o) in opts.enumerated().dropFirst(max(0, top)).prefix(rows) {
                buf.putPadded(
                    " " + o, x: r.x + 1, y: y, columns: r.width - 2, role: i == choice ? .buttonFocus : .dialog)
                y += 1
            }
        }
    }
}
