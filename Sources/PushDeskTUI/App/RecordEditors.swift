import Foundation
import PushDeskCore

/// The console's one map from a record kind to its editor: the records of the kind as the
/// last load listed them, the view a draft of it opens in, how a finding's field is focused
/// there, and what its name field is called. Every place that opens a record from a file —
/// a finding, a recovered draft, a version from history, a resolved conflict — asks the
/// kind's row (`kind.editor`), so every kind opens from every place. A new kind of record is
/// a case of `RecordKind` (its store row) and one row here (`RecordEditorsTests` opens every
/// kind from each place).
struct RecordEditor {
    let kind: RecordKind
    /// What its name is called and where it is set, for the message that refuses a save
    /// without a valid one ("internal name", "Set Name").
    let nameLabel: String
    let nameField: String
    /// The names of the saved records of the kind, as the last load listed them.
    let savedNames: (AppState) -> [String]
    private let draft: (_ text: [UInt8], _ file: String, Original, RecordBaseline?, AppContext) throws -> ConsoleScreen
    private let jump: (_ name: String, Finding, AppContext) -> Effect

    /// What an editor opened on a file's text takes as the saved record (what its unsaved
    /// changes are counted against, and what a save replaces).
    enum Original {
        /// The text is the saved record (a resolved conflict, written as it shows).
        case itself
        /// The record of this name as the last load listed it (none when no record has it).
        case listed(String)
        /// The record of this name as it is on disk now (nil: a new record).
        case onDisk(String?)
    }

    /// One kind's row: its record type, where the last load keeps the records, the editor a
    /// session opens in and how that editor focuses a finding's field.
    init<R: EditableRecord, Screen: ConsoleScreen>(
        _: R.Type, listed: @escaping (AppState) -> [R], listedInContext: @escaping (AppContext) -> [R],
        nameLabel: String, nameField: String, open: @escaping (EditSession<R>, AppContext) -> Screen,
        focus: @escaping (Screen, EditSession<R>, Finding, AppContext) -> Effect
    ) {
        kind = R.kind
        self.nameLabel = nameLabel
        self.nameField = nameField
        savedNames = { listed($0).map(\.name) }
        draft = { text, file, original, baseline, app in
            let decoded = try R.decode(text, file: file)
            let saved: R? =
                switch original {
                case .itself: decoded
                case .listed(let name): listedInContext(app).first { $0.name == name }
                case .onDisk(let name): name.flatMap { app.loadCurrent(R.self, $0) }
                }
            return open(EditSession(original: saved, draft: decoded, baseline: baseline), app)
        }
        jump = { name, finding, app in
            // A view already open on the record is reused through its session: no edit is lost.
            let session =
                app.sessions(of: R.self).first { $0.draft.name == name || $0.original?.name == name }
                ?? listedInContext(app).first { $0.name == name }.map { EditSession(original: $0, draft: $0) }
            guard let session else { return .say("\(R.noun.capitalized) '\(name)' is not in the store.") }
            return focus(open(session, app), session, finding, app)
        }
    }

    /// An editor on a record file's text, as an unsaved draft over `original`; `file` names
    /// it in errors. Throws when the text is no record of this kind.
    func open(
        text: [UInt8], file: String, original: Original, baseline: RecordBaseline? = nil, app: AppContext
    ) throws -> ConsoleScreen {
        try draft(text, file, original, baseline, app)
    }

    /// The record's editor with the finding's field focused (`Effect.jump`).
    func open(_ name: String, at finding: Finding, app: AppContext) -> Effect { jump(name, finding, app) }
}

extension RecordKind {
    /// This kind's row of the console's record map.
    var editor: RecordEditor {
        switch self {
        case .service: RecordEditors.service
        case .delivery: RecordEditors.delivery
        case .profile: RecordEditors.profile
        }
    }
}

/// The rows of the record map, one per kind.
enum RecordEditors {
    static var service: RecordEditor {
        RecordEditor(
            Service.self, listed: \.services, listedInContext: \.services, nameLabel: "internal name",
            nameField: "Set Name",
            open: { session, _ in ServiceEditorScreen(session: session) },
            focus: { editor, session, f, app in
                // An app's field opens that app's editor over the service's, on its tab and row.
                if let idx = f.field.index(in: "apps"), session.draft.apps.indices.contains(idx) {
                    editor.selectApp(idx)
                    let appEditor = AppEditorScreen(session: session, index: idx, secretExists: app.secretExists)
                    appEditor.focus(field: f.field.inside("apps"))
                    return .jump([editor, appEditor])
                }
                editor.focus(field: f.field)
                return .jump([editor])
            })
    }

    static var delivery: RecordEditor {
        RecordEditor(
            Delivery.self, listed: \.deliveries, listedInContext: \.deliveries,
            nameLabel: "delivery name", nameField: "Set Name (Content tab)",
            open: { session, app in ComposerScreen(session: session, app: app) },
            focus: { composer, _, f, app in
                // A finding inside a JSON text puts the cursor on its line:column.
                if !f.field.isEmpty, !composer.focus(field: f.field, within: f.within, app: app) {
                    return .all([
                        .jump([composer]), .say("\(f.field) is not a field of the composer; the finding: \(f.message)"),
                    ])
                }
                return .jump([composer])
            })
    }

    static var profile: RecordEditor {
        RecordEditor(
            Profile.self, listed: \.profiles, listedInContext: \.profiles, nameLabel: "profile name",
            nameField: "Set Name",
            open: { session, _ in ProfileEditorScreen(session: session) },
            focus: { editor, session, f, _ in
                // A test device's field opens that device's editor over the profile's.
                guard let row = f.field.index(in: "subscriptions"), session.draft.subscriptions.indices.contains(row)
                else {
                    editor.focus(field: f.field.leaf)
                    return .jump([editor])
                }
                editor.selectDevice(row)
                let device = DeviceEditorScreen(session: session, index: row)
                device.form.focus(id: f.field.leaf)
                return .jump([editor, device])
            })
    }
}
