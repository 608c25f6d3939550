import XCTest

@testable import PushDeskTUI

/// The console test driver: tests say what they touch, as an operator thinks of it — an
/// action of the key registry, a field by its name — and the driver presses the keys that
/// get there. Keys come from the registry (the first key bound to the action in the
/// contexts in force), so a test never hard-codes a count of Tab presses, and every loop is
/// bounded by the number of tabs or fields there are.
extension ConsoleApp {
    /// Presses the first key the registry binds to `action` where the focus is now.
    func press(_ action: Action, file: StaticString = #filePath, line: UInt = #line) {
        guard
            let key = KeyRegistry.bindings(in: policy.activeContexts).first(where: { $0.action == action })?.keys.first
        else {
            return XCTFail("no key for \(action) in \(policy.activeContexts.map(\.rawValue))", file: file, line: line)
        }
        handle(key)
    }

    /// Types text, one key per character.
    func type(_ text: String) { for c in text { handle(.char(c)) } }

    /// Moves the focus to a field, pressing the registry's next-tab and next-field keys:
    /// `"content.body"` (a composer tab, then a field id), `"credentials.passwordRef"` (an
    /// app editor tab), `"label"` (a field of the form in view), `"apps"` (the service
    /// editor's apps table), `"table"` (an app editor tab's table), `"devices"` (a profile's
    /// test devices), `"field:firstName"` (a profile's recipient field).
    func focus(field path: String, file: StaticString = #filePath, line: UInt = #line) {
        var id = path
        if let dot = path.firstIndex(of: ".") {
            let tab = String(path[..<dot])
            id = String(path[path.index(after: dot)...])
            for _ in 0..<8 where focusTab != tab { press(.nextTab, file: file, line: line) }
            guard focusTab == tab else {
                return XCTFail("no tab \(tab) (at \(focusTab ?? "none"))", file: file, line: line)
            }
        }
        for _ in 0..<(focusFieldCount + 2) where focusedField != id { press(.nextField, file: file, line: line) }
        XCTAssertEqual(focusedField, id, "focus(field: \(path))", file: file, line: line)
    }

    /// Shows the tab named `tab` (a composer's or an app editor's, by its case name:
    /// `"ios"`, `"variables"`, `"credentials"`, `"params"`), pressing the registry's
    /// next-tab key; bounded by the number of tabs there are.
    func show(tab: String, file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<8 where focusTab != tab { press(.nextTab, file: file, line: line) }
        // The tabs may not wrap round: back the other way.
        for _ in 0..<8 where focusTab != tab { press(.prevTab, file: file, line: line) }
        XCTAssertEqual(focusTab, tab, "show(tab: \(tab))", file: file, line: line)
    }

    /// The tab of the view in front, by its case name (the view says: `ConsoleScreen.focus`).
    var focusTab: String? { top.focus.tab }

    /// The id of the focused field (or `apps` / `table` / `devices` / `preview` for the part
    /// that has focus instead).
    var focusedField: String? { top.focus.field }

    private var focusFieldCount: Int { top.focus.stops }
}
