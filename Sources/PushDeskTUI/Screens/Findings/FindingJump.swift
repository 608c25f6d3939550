import PushDeskCore

/// Opens the record a finding is about and focuses its field: a service (and, for an app
/// field, that app's editor, tab and row), a delivery in the composer (a finding inside a
/// JSON text, such as `liveactivity.json`, with the cursor on its line:column of the
/// editor), or a profile (and, for a
/// test device's field, that device's editor). A view already
/// open on the record is reused through its session, so no unsaved edit is lost; the views
/// that showed it before leave the stack (`Effect.jump`).
enum FindingJump {
    static func open(_ f: Finding, app: AppContext) -> Effect {
        switch RecordKind.record(file: f.file) {
        case (.service, let name)?: openService(name, f, app: app)
        case (.delivery, let name)?: openDelivery(name, f, app: app)
        case (.profile, let name)?: openProfile(name, f, app: app)
        case nil: .say("This finding is about no service, delivery or profile file.")
        }
    }

    private static func openService(_ name: String, _ f: Finding, app: AppContext) -> Effect {
        let session =
            app.sessions(of: Service.self).first { $0.draft.name == name }
            ?? app.services.first { $0.name == name }.map { ServiceSession(original: $0, draft: $0) }
        guard let session else { return .say("Service '\(name)' is not in the store.") }
        let editor = ServiceEditorScreen(session: session)
        if let idx = f.field.index(in: "apps"), session.draft.apps.indices.contains(idx) {
            editor.selectApp(idx)
            let appEditor = AppEditorScreen(session: session, index: idx, secretExists: app.secretExists)
            appEditor.focus(field: f.field.inside("apps"))
            return .jump([editor, appEditor])
        }
        editor.focus(field: f.field)
        return .jump([editor])
    }

    private static func openDelivery(_ name: String, _ f: Finding, app: AppContext) -> Effect {
        let session =
            app.sessions(of: Delivery.self).first { $0.draft.name == name || $0.original?.name == name }
            ?? app.deliveries.first { $0.name == name }.map { DeliverySession(original: $0, draft: $0) }
        guard let session else { return .say("Delivery '\(name)' is not in the store.") }
        let composer = ComposerScreen(session: session, app: app)
        if !f.field.isEmpty, !composer.focus(field: f.field, within: f.within, app: app) {
            return .all([
                .jump([composer]), .say("\(f.field) is not a field of the composer; the finding: \(f.message)"),
            ])
        }
        return .jump([composer])
    }

    private static func openProfile(_ name: String, _ f: Finding, app: AppContext) -> Effect {
        let session =
            app.sessions(of: Profile.self).first { $0.draft.name == name || $0.original?.name == name }
            ?? app.profiles.first { $0.name == name }.map { EditSession(original: $0, draft: $0) }
        guard let session else { return .say("Profile '\(name)' is not in the store.") }
        let editor = ProfileEditorScreen(session: session)
        guard let row = f.field.index(in: "subscriptions"), session.draft.subscriptions.indices.contains(row) else {
            editor.focus(field: f.field.leaf)
            return .jump([editor])
        }
        editor.selectDevice(row)
        let device = DeviceEditorScreen(session: session, index: row)
        device.form.focus(id: f.field.leaf)
        return .jump([editor, device])
    }
}
