import PushDeskCore

/// Test devices (`t` on the services list): every profile of the store (docs/FORMATS.md) with
/// its recipient, its number of devices and its findings. Enter opens the profile editor.
final class ProfilesListScreen: RecordListScreen {
    static let recordKind = RecordKind.profile
    static let columns: [TableView.Column] = [
        .init("Profile", width: 16), .init("Recipient"), .init("Devices", width: 7), .init("Findings", width: 16),
    ]
    var view = TableView(columns: ProfilesListScreen.columns)

    init(app: AppContext) {
        table.emptyText = "No profile yet: press n to create one, then add test devices to it."
        refresh(app)
    }

    var title: String { "Test devices" }
    var listContext: KeyContext? { .profilesList }

    /// The recipient as a person reads it: the profile's first field values (names, e-mail).
    static func recipient(_ p: Profile) -> String {
        Escape.inline(p.fields.prefix(3).map(\.value).filter { !$0.isEmpty }.joined(separator: " "))
    }

    func refresh(_ app: AppContext) {
        let keep = table.selectedRow.flatMap { app.profiles.indices.contains($0) ? app.profiles[$0].name : nil }
        let byFile = Dictionary(grouping: app.findings, by: \.file)
        let mine = app.profiles.map { byFile[Profile.path($0.name)] ?? [] }
        table.setRows(
            zip(app.profiles, mine).map { p, f in
                [
                    Escape.inline(p.name), Self.recipient(p), String(p.subscriptions.count),
                    ServicesListScreen.summary(f),
                ]
            },
            roles: mine.map(ServicesListScreen.role))
        if let keep, let i = app.profiles.firstIndex(where: { $0.name == keep }) { table.select(row: i) }
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.handle(action) { return Effect.none }
        if let refusal = app.refusal(for: action) { return refusal }
        let sel = table.selectedRow.flatMap { app.profiles.indices.contains($0) ? app.profiles[$0] : nil }
        switch action {
        case .open:
            guard let sel else { return Effect.none }
            return .push(ProfileEditorScreen(session: EditSession(original: sel, draft: sel)))
        case .new:
            // The fields personalization uses most (docs/PAYLOADS.md); the operator fills or clears them.
            let draft = Profile(name: "", fields: [("firstName", ""), ("lastName", ""), ("email", "")])
            return .all([
                .push(ProfileEditorScreen(session: EditSession(original: nil, draft: draft))),
                .say("New profile: set its name, then add test devices (Tab to the devices, n)."),
            ])
        case .resolve, .history:
            return app.gitListAction(action, path: sel.map { Profile.path($0.name) })
        default: return nil
        }
    }

    func danger(_ action: Action, app: AppContext) -> Danger? {
        guard action == .delete,
            let sel = table.selectedRow.flatMap({ app.profiles.indices.contains($0) ? app.profiles[$0] : nil })
        else { return nil }
        let n = sel.subscriptions.count
        return deleting(
            sel.name, "Delete profile",
            "Delete '\(Escape.inline(sel.name))' (\(Profile.path(Escape.inline(sel.name)))) and its \(n) test device\(n == 1 ? "" : "s")?\nThis removes the file."
        )
    }

    func update(_ rect: Rect, app: AppContext) {
        if table.rows.count != app.profiles.count { refresh(app) }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        var (main, foot) = rect.splitBottom(1)
        // A profile file that does not load is no row: say so above the list (the load error).
        let errors = app.loadErrors.filter { $0.hasPrefix(Profile.folder + "/") }
        if !errors.isEmpty {
            let n = min(errors.count, 3)
            let (top, rest) = main.splitTop(n + 1)
            for (i, e) in errors.prefix(n).enumerated() {
                buf.put(e, x: top.x + 1, y: top.y + i, role: .findingError, maxX: top.maxX)
            }
            main = rest
        }
        v.render(into: &buf, main.inset(0), focused: true)
        buf.put(
            "Send test (Ctrl-G in the composer) sends to these profiles' devices.",
            x: foot.x + 1, y: foot.y, role: .muted, maxX: foot.maxX)
    }
}
