import PushDeskCore

/// Every rule finding of the store (the same engine as `pushdesk validate`); Enter
/// opens the service or the delivery and focuses the field the finding is about.
final class FindingsScreen: StoreListScreen {
    var view = TableView(columns: [
        .init("Severity", width: 8), .init("Rule", width: 29), .init("Where", width: 26), .init("Message"),
    ])
    /// The findings in the order listed.
    private(set) var shown: [Finding] = []

    init(app: AppContext) {
        table.emptyText = "No findings: every service and delivery passes the rules."
        refresh(app)
    }

    var title: String { "Findings" }
    var listContext: KeyContext? { .findings }

    func refresh(_ app: AppContext) {
        shown = app.findings.sorted { ($0.severity, $1.file, $1.field) > ($1.severity, $0.file, $0.field) }
        table.setRows(
            shown.map { f in
                [f.severity.rawValue, f.rule, f.file + (f.field.isEmpty ? "" : " \(f.field)"), f.message]
            },
            roles: shown.map { f in
                switch f.severity {
                case .error: .findingError
                case .warning: .findingWarning
                case .info: .findingInfo
                }
            })
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.handle(action) { return Effect.none }
        guard action == .open else { return nil }
        guard let r = table.selectedRow else { return Effect.none }
        return FindingJump.open(shown[r], app: app)
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        let errs = app.findings.filter { $0.severity == .error }.count
        let warns = app.findings.filter { $0.severity == .warning }.count
        let (head, rest) = rect.splitTop(1)
        buf.put(
            " \(app.findings.count) finding\(app.findings.count == 1 ? "" : "s"): \(errs) error\(errs == 1 ? "" : "s"), \(warns) warning\(warns == 1 ? "" : "s")",
            x: head.x, y: head.y, role: errs > 0 ? .findingError : .muted)
        // The selected finding in full, wrapped, under the table (columns cut long text).
        let (list, detail) = rest.splitBottom(5)
        v.render(into: &buf, list, focused: true)
        buf.hline(x: detail.x, y: detail.y, width: detail.width, role: .border)
        if let r = v.selectedRow {
            let f = shown[r]
            let role: Role =
                f.severity == .error ? .findingError : f.severity == .warning ? .findingWarning : .findingInfo
            for (i, l) in TextWidth.wrap(f.formatted, to: detail.width - 2, maxLines: 4).enumerated() {
                buf.put(l, x: detail.x + 1, y: detail.y + 1 + i, role: role, maxX: detail.maxX)
            }
        }
    }
}
