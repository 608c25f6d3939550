import PushDeskCore

/// The few lines at the bottom of an editor listing the findings of the record.
enum FindingsPane {
    static func render(into buf: inout CellBuffer, _ rect: Rect, findings: [Finding], what: String = "Rules") {
        guard !rect.isEmpty else { return }
        let e = findings.filter { $0.severity == .error }.count
        buf.put(
            findings.isEmpty
                ? "\(what): no finding."
                : "\(what): \(findings.count) finding\(findings.count == 1 ? "" : "s") (\(e) error\(e == 1 ? "" : "s")); Ctrl-F lists them all",
            x: rect.x + 1, y: rect.y, role: findings.isEmpty ? .muted : (e > 0 ? .findingError : .findingWarning))
        for (i, f) in findings.sorted(by: { $0.severity > $1.severity }).prefix(rect.height - 1).enumerated() {
            let role: Role =
                f.severity == .error ? .findingError : f.severity == .warning ? .findingWarning : .findingInfo
            // The rule id always shows (it is what RULES.md and `validate` name): the message
            // gives way first, shortened with "…".
            let id = " [\(f.rule)]"
            let text = "\(f.severity.rawValue) \(f.field.isEmpty ? "" : f.field + ": ")\(f.message)"
            let room = rect.width - 2 - TextWidth.width(of: id)
            buf.put(
                TextWidth.truncate(text, to: max(1, room)) + id, x: rect.x + 1, y: rect.y + 1 + i, role: role,
                maxX: rect.maxX)
        }
    }
}
