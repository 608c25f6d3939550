import PushDeskCore

/// Opens the record a finding is about and focuses its field: a service (and, for an app
/// field, that app's editor, tab and row) or a delivery in the composer. A view already
/// open on the record is reused through its session, so no unsaved edit is lost.
enum FindingJump {
    static func open(_ f: Finding, app: ConsoleApp) {
        if let name = recordName(f.file, folder: "services/") {
            openService(name, f, app: app)
        } else if let name = recordName(f.file, folder: "deliveries/") {
            openDelivery(name, f, app: app)
        } else {
            app.message = "This finding is about no service or delivery file."
        }
    }

    private static func recordName(_ file: String, folder: String) -> String? {
        guard file.hasPrefix(folder), file.hasSuffix(".xml") else { return nil }
        return String(file.dropFirst(folder.count).dropLast(4))
    }

    private static func openService(_ name: String, _ f: Finding, app: ConsoleApp) {
        let session =
            app.sessions(of: Service.self).first { $0.draft.name == name }
            ?? app.services.first { $0.name == name }.map { ServiceSession(original: $0, draft: $0) }
        guard let session else {
            app.message = "Service '\(name)' is not in the store."
            return
        }
        let target = FieldPath(f.field)
        let editor = ServiceEditorScreen(session: session)
        app.push(editor)
        if let idx = target.appIndex, session.draft.apps.indices.contains(idx) {
            editor.selectApp(idx)
            let appEditor = AppEditorScreen(session: session, index: idx)
            appEditor.focus(field: target.field)
            app.push(appEditor)
        } else {
            editor.focus(field: target.field)
        }
    }

    private static func openDelivery(_ name: String, _ f: Finding, app: ConsoleApp) {
        let session =
            app.sessions(of: Delivery.self).first { $0.draft.name == name || $0.original?.name == name }
            ?? app.deliveries.first { $0.name == name }.map { DeliverySession(original: $0, draft: $0) }
        guard let session else {
            app.message = "Delivery '\(name)' is not in the store."
            return
        }
        let composer = ComposerScreen(session: session, app: app)
        app.push(composer)
        if !f.field.isEmpty, !composer.focus(field: f.field, app: app) {
            app.message = "\(f.field) is not a field of the composer; the finding: \(f.message)"
        }
    }
}
