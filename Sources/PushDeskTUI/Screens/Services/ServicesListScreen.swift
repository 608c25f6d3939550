import PushDeskCore

/// The first screen: every service of the store with its app and findings counts.
final class ServicesListScreen: RecordListScreen {
    static let recordKind = RecordKind.service
    var view = TableView(columns: [
        .init("Name", width: 22), .init("Label"), .init("Apps", width: 5), .init("Findings", width: 16),
    ])

    init(app: AppContext) {
        table.emptyText = "No service yet: press n to create one."
        refresh(app)
    }

    var title: String { "Services" }
    var listContext: KeyContext? { .servicesList }

    func refresh(_ app: AppContext) {
        let keep = selectedName(app)
        // In a git work tree, a column says what `git status` says of each record file.
        let inGit = app.git != nil
        table.columns =
            [.init("Name", width: 22), .init("Label"), .init("Apps", width: 5), .init("Findings", width: 16)]
            + (inGit ? [.init("Git", width: 10)] : [])
        // While a large store loads, rows are names only: the rest says so instead of "0" or "ok".
        if app.loading {
            table.setRows(
                app.services.map { [$0.name, "…", "…", "loading…"] + (inGit ? [""] : []) },
                roles: app.services.map { _ in .muted })
        } else {
            // Findings grouped by file once: filtering them once per service was quadratic
            // (20,000 services: minutes on the input loop, quit and hang-up unanswered).
            let byFile = Dictionary(grouping: app.findings, by: \.file)
            let mine = app.services.map { byFile[Service.path($0.name)] ?? [] }
            table.setRows(
                zip(app.services, mine).map { s, f in
                    [s.name, s.label, String(s.apps.count), Self.summary(f)]
                        + (inGit ? [app.gitState(Service.path(s.name))?.rawValue ?? ""] : [])
                },
                roles: mine.map(Self.role))
        }
        if let keep, let i = app.services.firstIndex(where: { $0.name == keep }) { table.select(row: i) }
    }

    func selectedName(_ app: AppContext) -> String? {
        table.selectedRow.flatMap { app.services.indices.contains($0) ? app.services[$0].name : nil }
    }

    static func summary(_ f: [Finding]) -> String {
        let e = f.filter { $0.severity == .error }.count
        let w = f.filter { $0.severity == .warning }.count
        if e == 0 && w == 0 { return f.isEmpty ? "ok" : "\(f.count) info" }
        return [e > 0 ? "\(e) error\(e == 1 ? "" : "s")" : nil, w > 0 ? "\(w) warning\(w == 1 ? "" : "s")" : nil]
            .compactMap { $0 }.joined(separator: ", ")
    }
    static func role(_ f: [Finding]) -> Role? {
        switch f.worst {
        case .error: .findingError
        case .warning: .findingWarning
        default: nil
        }
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.handle(action) { return Effect.none }
        if let refusal = app.refusal(for: action) { return refusal }
        let sel = table.selectedRow.flatMap { app.services.indices.contains($0) ? app.services[$0] : nil }
        switch action {
        case .open:
            guard let sel else { return Effect.none }
            return .push(ServiceEditorScreen(session: EditSession(original: sel, draft: sel)))
        case .new:
            return .push(ServiceEditorScreen(session: EditSession(original: nil, draft: Service(name: "", label: ""))))
        case .duplicate:
            guard let sel else { return Effect.none }
            var copy = sel
            copy.name = Drafts.uniqueName(sel.name + "-copy", taken: app.services.map(\.name))
            copy.label = sel.label + " (copy)"
            // Integration keys are unique in the store: the copy gets its own.
            for i in copy.apps.indices { copy.apps[i].integrationKey += "-copy" }
            return .all([
                .push(ServiceEditorScreen(session: EditSession(original: nil, draft: copy))),
                .say("Duplicate of \(sel.name): check the name and keys, then Ctrl-S."),
            ])
        case .commit, .sync, .resolve, .history:
            return app.gitListAction(action, path: sel.map { Service.path($0.name) })
        case .deliveries:
            return .push(DeliveriesListScreen(service: sel?.name, app: app))
        case .testDevices:
            return .push(ProfilesListScreen(app: app))
        case .listen:
            return .push(ListenScreen(storeURL: app.storeURL, environment: app.environment))
        default: return nil
        }
    }

    func danger(_ action: Action, app: AppContext) -> Danger? {
        guard action == .delete,
            let sel = table.selectedRow.flatMap({ app.services.indices.contains($0) ? app.services[$0] : nil })
        else { return nil }
        return deleting(
            sel.name, "Delete service", "Delete '\(sel.name)' (\(Service.path(sel.name)))?\nThis removes the file.")
    }

    /// Findings counts change as drafts are edited elsewhere; keep the rows current.
    func update(_ rect: Rect, app: AppContext) {
        if table.rows.count != app.services.count { refresh(app) }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        var area = rect
        if !app.loadErrors.isEmpty {
            let n = min(app.loadErrors.count, 3)
            let (top, rest) = area.splitTop(n + 1)
            for (i, e) in app.loadErrors.prefix(n).enumerated() {
                buf.put(e, x: top.x + 1, y: top.y + i, role: .findingError, maxX: top.maxX)
            }
            area = rest
        }
        v.render(into: &buf, area.inset(0), focused: true)
    }
}
