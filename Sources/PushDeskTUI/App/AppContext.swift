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

    var services: [Service] { app.services }
    var loadErrors: [String] { app.loadErrors }
    var deliveries: [Delivery] { app.deliveries }
    var profiles: [Profile] { app.profiles }
    /// Every finding of the store, open drafts in place of their saved copies.
    var findings: [Finding] { app.findings }
    /// True until a lazy start's background load arrives.
    var loading: Bool { app.loading }
    /// The store's git state; nil outside a work tree or until it is read.
    var git: GitStatus? { app.git }
    /// The store's root folder.
    var storeRoot: String { app.store.root }
    var storeURL: URL { app.storeURL }
    /// The time previews are made at (a fixed one in tests).
    var clock: @Sendable () -> Date { app.clock }
    /// The environment jobs read their transport settings from.
    var environment: [String: String] { app.environment }
    var isReadOnly: Bool { app.access.isReadOnly }
    var dialog: Dialog? { app.dialog }
    var viewWidth: Int { app.viewWidth }
    var viewHeight: Int { app.viewHeight }

    /// True when `secrets/NAME` (or the environment variable) holds the secret.
    func secretExists(_ reference: String) -> Bool { app.store.secretExists(reference) }
    /// The refusal of an action reached another way than its key (a click opens a row).
    func refusal(for action: Action) -> Effect? { app.refusal(for: action) }
    /// The service as the console sees it now: an open draft of it, else the saved one.
    func currentService(named name: String) -> Service? { app.currentService(named: name) }
    /// The open sessions editing records of one kind, each once.
    func sessions<R>(of kind: R.Type) -> [EditSession<R>] { app.sessions(of: kind) }
    /// Findings of one service file.
    func findings(forService name: String) -> [Finding] { app.findings(forService: name) }
    /// The git state word of a record file in the lists.
    func gitState(_ path: String) -> GitStatus.FileState? { app.gitState(path) }
    /// The git keys of the lists, as effects.
    func gitListAction(_ action: Action, path: String?) -> Effect? { app.gitListAction(action, path: path) }
    /// What a sync's outcome says and opens.
    func syncAnswer(_ outcome: GitOutcome) -> Effect { app.syncAnswer(outcome) }
    /// The job that finishes the rebase a sync left.
    func finishRebaseJob() -> Job { app.finishRebaseJob() }
}

extension ConsoleApp {
    /// What the screens are given of the app.
    var context: AppContext { AppContext(self) }
}
