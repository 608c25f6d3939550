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
        guard let (kind, name) = RecordKind.record(file: f.file) else {
            return .say("This finding is about no service, delivery or profile file.")
        }
        return kind.editor.open(name, at: f, app: app)
    }
}
