import Foundation
import PushDeskCore

/// What a screen is given of the app: reads only — the store's records and findings, the
/// git state, the clock, the transport environment, the lock, the view size — and the
/// questions whose answer is an `Effect`. It holds the app privately (no other file can
/// reach it), and has no setter: a screen changes the app only by returning an effect,
/// which `ConsoleApp.apply` carries out. The compiler checks it (`AppContextTests`).
struct AppContext {
    private let app: ConsoleApp

    init(_ app: ConsoleApp) { self.app = app }

    private var state: AppState { app.state }
    var services: [Service] { state.services }
    var loadErrors: [String] { state.loadErrors }
    var deliveries: [Delivery] { state.deliveries }
    var profiles: [Profile] { state.profiles }
    /// Every finding of the store, open drafts in place of their saved copies.
    var findings: [Finding] { state.findings }
    /// True until a lazy start's background load arrives.
    var loading: Bool { state.loading }
    /// The store's git state; nil outside a work tree or until it is read.
    var git: GitStatus? { state.git }
    /// The store's root folder.
    var storeRoot: String { state.store.root }
    var storeURL: URL { state.storeURL }
    /// The time previews are made at (a fixed one in tests).
    var clock: @Sendable () -> Date { state.clock }
    /// The environment jobs read their transport settings from.
    var environment: [String: String] { state.environment }
    var isReadOnly: Bool { state.access.isReadOnly }
    var dialog: Dialog? { app.dialog }
    var viewWidth: Int { state.viewWidth }
    var viewHeight: Int { state.viewHeight }
    /// True when a draft open in some view has unsaved changes.
    var hasUnsavedDrafts: Bool { !app.stack.dirtySessions.isEmpty }

    /// True when `secrets/NAME` (or the environment variable) holds the secret.
    func secretExists(_ reference: String) -> Bool { state.store.secretExists(reference) }
    /// A store file's text as it is on disk now (nil when it is not there).
    func readText(_ path: String) -> String? { state.store.readText(path) }
    /// The folder a path the operator types is relative to (the console's working directory).
    var workingDirectory: String { FileManager.default.currentDirectoryPath }
    /// A path the operator typed, absolute or relative to `workingDirectory`.
    func fileURL(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: workingDirectory + "/"))
    }
    /// True when something is at a path the operator typed (a copy-out asks before replacing it).
    func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: fileURL(path).path) }
    /// The entries of a folder the operator typed, for a path dialog's Tab completion.
    static func pathEntries(in folder: String) -> [PathEntry] { PathEntry.list(in: folder) }
    /// A saved record as it is on disk now (nil when it is gone or unreadable).
    func loadCurrent<R: EditableRecord>(_ type: R.Type, _ name: String) -> R? {
        try? state.store.loadCurrent(type, name).0
    }
    /// The names of the saved records of a kind.
    func savedNames(_ kind: RecordKind) -> [String] { state.savedNames(kind) }
    /// The refusal of an action reached another way than its key (a click opens a row).
    func refusal(for action: Action) -> Effect? { app.policy.refusal(for: action) }
    /// The service as the console sees it now: an open draft of it, else the saved one.
    func currentService(named name: String) -> Service? {
        sessions(of: Service.self).first { $0.draft.name == name }?.draft ?? services.first { $0.name == name }
    }
    /// The open sessions editing records of one kind, each once.
    func sessions<R>(of kind: R.Type) -> [EditSession<R>] { app.stack.sessions(of: kind) }
    /// Findings of one service file.
    func findings(forService name: String) -> [Finding] { findings.filter { $0.file == Service.path(name) } }
}

/// A folder's entry, for a path dialog's completion.
public struct PathEntry: Sendable {
    public var name: String
    public var isDirectory: Bool

    /// One listing of a folder the operator typed, on the Tab key only (nothing when it
    /// cannot be read): the one read of the disk a dialog makes, given to it by the app.
    public static func list(in folder: String) -> [PathEntry] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { name in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: (folder as NSString).appendingPathComponent(name), isDirectory: &isDirectory)
            return PathEntry(name: name, isDirectory: exists && isDirectory.boolValue)
        }
    }
}
