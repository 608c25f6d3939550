import Foundation
import PushDeskCore

/// The deliveries of one service (or, with `a`, of the whole store): each row shows the
/// types, the largest payload across the target apps (the core's preview, no profile) and
/// the worst finding (what `pushdesk validate` reports). Enter opens the composer.
final class DeliveriesListScreen: RecordListScreen {
    static let recordKind = RecordKind.delivery
    /// The service the list was opened for; nil = the whole store.
    let service: String?
    private(set) var showAll: Bool
    var view = TableView(columns: [])
    private(set) var shown: [Delivery] = []

    init(service: String?, app: AppContext) {
        self.service = service
        showAll = service == nil
        refresh(app)
    }

    var title: String { showAll ? "All deliveries" : "Deliveries of \(service ?? "")" }
    var listContext: KeyContext? { .deliveriesList }

    /// What every row looks up, built once per refresh: services by name (open drafts in
    /// place of their saved copies) and findings by file. Per row, these had been a search of
    /// the services and a filter of every finding: 5,000 rows took 125 ms to open.
    struct Lookup {
        var services: [String: Service]
        var findings: [String: [Finding]]

        init(app: AppContext) {
            services = Dictionary(
                Drafts.substituting(app.services, app.sessions(of: Service.self)).map { ($0.name, $0) },
                uniquingKeysWith: { first, _ in first })
            findings = Dictionary(grouping: app.findings, by: \.file)
        }
    }

    /// The row of a delivery: name, label, service, types, largest payload, worst finding.
    static func row(_ d: Delivery, _ lookup: Lookup) -> (cells: [String], role: Role?) {
        let types = "\(d.ios.effectiveType.rawValue) · \(d.android.effectiveType == .notification ? "notif." : "data")"
        var size = "—"
        var role: Role?
        if let s = lookup.services[d.service], let big = PreviewEngine.largestPayload(delivery: d, service: s) {
            size = "\(big.bytes) / \(big.limit)"
            if big.bytes > big.limit { role = .findingError }
        }
        let fs = lookup.findings[Delivery.path(d.name)] ?? []
        var worst = "ok"
        if let top = fs.sorted(by: { $0.severity > $1.severity }).first {
            worst = "\(top.severity.rawValue) \(top.rule)" + (fs.count > 1 ? " +\(fs.count - 1)" : "")
            role = role ?? ServicesListScreen.role(fs)
        }
        return ([d.name, d.label, d.service, types, size, worst], role)
    }

    func refresh(_ app: AppContext) {
        let keep = selected?.name
        shown = app.deliveries.filter { showAll || $0.service == service }
        table.columns =
            [.init("Name", width: 18), .init("Label")] + (showAll ? [.init("Service", width: 12)] : [])
            + [.init("iOS · Android", width: 14), .init("Largest", width: 11), .init("Worst finding")]
            + (app.git != nil ? [.init("Git", width: 10)] : [])
        let lookup = Lookup(app: app)
        let rows = shown.map { Self.row($0, lookup) }
        table.setRows(
            zip(shown, rows).map { d, r in
                (showAll ? r.cells : r.cells.enumerated().filter { $0.offset != 2 }.map(\.element))
                    + (app.git != nil ? [app.gitState(Delivery.path(d.name))?.rawValue ?? ""] : [])
            },
            roles: rows.map(\.role))
        table.emptyText = showAll ? "No delivery yet." : "No delivery for \(service ?? "") yet: press n to compose one."
        if let keep, let i = shown.firstIndex(where: { $0.name == keep }) { table.select(row: i) }
    }

    var selected: Delivery? { table.selectedRow.flatMap { shown.indices.contains($0) ? shown[$0] : nil } }

    /// A composer on `d`, reusing a session already open on it (so no edit is lost).
    static func compose(_ d: Delivery, app: AppContext) -> Effect {
        let session =
            app.sessions(of: Delivery.self).first { $0.original?.name == d.name }
            ?? DeliverySession(original: d, draft: d)
        return .push(ComposerScreen(session: session, app: app))
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.handle(action) { return Effect.none }
        switch action {
        case .open:
            guard let d = selected else { return Effect.none }
            return Self.compose(d, app: app)
        case .commit, .sync, .resolve, .history:
            return app.gitListAction(action, path: selected.map { Delivery.path($0.name) })
        case .new:
            guard let svc = (showAll ? selected?.service : service) ?? app.services.first?.name else {
                return .say("Create a service first: a delivery goes to the apps of a service.")
            }
            return .push(
                ComposerScreen(
                    session: DeliverySession(original: nil, draft: Delivery(name: "", service: svc)), app: app))
        case .duplicate:
            guard let d = selected else { return Effect.none }
            var copy = d
            copy.name = Drafts.uniqueName(d.name + "-copy", taken: app.deliveries.map(\.name))
            copy.label = d.label.isEmpty ? "" : d.label + " (copy)"
            // Tracking ids belong to one sending; the copy starts without them.
            copy.tracking = nil
            return .all([
                .push(ComposerScreen(session: DeliverySession(original: nil, draft: copy), app: app)),
                .say("Duplicate of \(d.name) (without its tracking ids): check the name, then Ctrl-S."),
            ])
        case .sends:
            guard let d = selected else { return Effect.none }
            return .push(SendsScreen(delivery: d.name, app: app))
        case .allServices:
            guard service != nil else { return .say("This is every delivery of the store.") }
            showAll.toggle()
            refresh(app)
            return Effect.none
        default: return nil
        }
    }

    func danger(_ action: Action, app: AppContext) -> Danger? {
        guard action == .delete, let d = selected else { return nil }
        return deleting(
            d.name, "Delete delivery", "Delete '\(d.name)' (\(Delivery.path(d.name)))?\nThis removes the file.")
    }

    func update(_ rect: Rect, app: AppContext) {
        // A delivery saved or deleted elsewhere changes the count. Counted in place: filtering
        // copied every delivery on each frame (7 ms per key with 5,000 of them).
        let count = showAll ? app.deliveries.count : app.deliveries.reduce(0) { $0 + ($1.service == service ? 1 : 0) }
        if table.rows.count != count { refresh(app) }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        v.render(into: &buf, rect, focused: true)
    }
}
