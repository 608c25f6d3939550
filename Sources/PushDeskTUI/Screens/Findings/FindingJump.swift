import PushDeskCore

/// Opens the record a finding is about and focuses its field: a service (and, for an app
/// field, that app's editor, tab and row), a delivery in the composer, or a profile (and, for a
/// test device's field, that device's editor). A view already
/// open on the record is reused through its session, so no unsaved edit is lost; the views
/// that showed it before leave the stack (`Effect.jump`).
enum FindingJump {
    static func open(_ f: Finding, app: AppContext) -> Effect {
        if let name = recordName(f.file, folder: "services/") { return openService(name, f, app: app) }
        if let name = recordName(f.file, folder: "deliveries/") { return openDelivery(name, f, app: app) }
        if let name = recordName(f.file, folder: "profiles/") { return openProfile(name, f, app: app) }
        return .say("This finding is about no service, delivery or profile file.")
    }

    private static func recordName(_ file: String, folder: String) -> String? {
        guard file.hasPrefix(folder), file.hasSuffix(".xml") else { return nil }
        return String(file.dropFirst(folder.count).dropLast(4))
    }

    private static func openService(_ name: String, _ f: Finding, app: AppContext) -> Effect {
        let session =
            app.sessions(of: Service.self).first { $0.draft.name == name }
            ?? app.services.first { $0.name == name }.map { ServiceSession(original: $0, draft: $0) }
        guard let session else { return .say("Service '\(name)' is not in the store.") }
        let target = FieldPath(f.field)
        let editor = ServiceEditorScreen(session: session)
        if let idx = target.appIndex, session.draft.apps.indices.contains(idx) {
            editor.selectApp(idx)
            let appEditor = AppEditorScreen(session: session, index: idx, secretExists: app.secretExists)
            appEditor.focus(field: target.field)
            return .jump([editor, appEditor])
        }
        editor.focus(field: target.field)
        return .jump([editor])
    }

    private static func openDelivery(_ name: String, _ f: Finding, app: AppContext) -> Effect {
        let session =
            app.sessions(of: Delivery.self).first { $0.draft.name == name || $0.original?.name == name }
            ?? app.deliveries.first { $0.name == name }.map { DeliverySession(original: $0, draft: $0) }
        guard let session else { return .say("Delivery '\(name)' is not in the store.") }
        let composer = ComposerScreen(session: session, app: app)
        if !f.field.isEmpty, !composer.focus(field: f.field, app: app) {
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
        let target = FieldPath(f.field)
        guard f.field.hasPrefix("subscriptions["), let row = target.row,
            session.draft.subscriptions.indices.contains(row)
        else {
            editor.focus(field: target.leaf)
            return .jump([editor])
        }
        editor.selectDevice(row)
        let device = DeviceEditorScreen(session: session, index: row)
        device.form.focus(id: target.leaf)
        return .jump([editor, device])
    }
}
