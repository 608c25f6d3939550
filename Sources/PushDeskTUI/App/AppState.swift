import Foundation
import PushDeskCore

/// What the console knows: the store's records and findings, the git state, the theme, the
/// status line, the view size, and what the terminal layer must do after a key (`outputs`).
/// The app's `apply` changes it (through the store operations of App/StoreActions.swift);
/// screens read it through `AppContext`.
final class AppState {
    let store: any ConsoleStorage
    /// Editing or read-only (another operator holds the store's lock).
    let access: StoreAccess
    var services: [Service] = []
    var loadErrors: [String] = []
    var deliveries: [Delivery] = []
    var profiles: [Profile] = []
    /// Every finding of the store, with the records being edited in place of their saved copies.
    var findings: [Finding] = []
    /// True from a lazy start until the background load arrives (StoreLoading.swift).
    var loading = false
    /// A services-first start: deliveries and profiles are read just after the first frame.
    var restPending = false
    /// The store's git state (read off the loop by `gitStatusJob`); nil outside a work tree or
    /// until it is read.
    var git: GitStatus?
    /// Set when the files changed (a load, save or delete): git is read again.
    var gitStatusWanted = true
    /// A git status read is running (one at a time).
    var gitStatusReading = false
    /// The interrupted-sync question is asked once per console (Later: at the next start).
    var rebaseOffered = false
    var themeName: String { didSet { settledFrame = nil } }
    var availableThemes: [String]
    /// One-shot status message, cleared by the next key.
    var message: String? { didSet { settledFrame = nil } }
    /// The size the console is drawn at (the terminal's): view state is laid out for it.
    var viewWidth = 80
    var viewHeight = 24
    /// Borders in ASCII (a non-UTF-8 locale).
    var asciiOnly = false { didSet { settledFrame = nil } }
    /// The frame drawn after the last key at the view size: one drawing per key.
    var settledFrame: CellBuffer?
    /// What the terminal layer must do next (taken once by the runner).
    var outputs = ConsoleOutputs()
    /// Writes the open drafts to the recovery file (set by the runner; nil in screen tests).
    var recovery: RecoveryKeeper?
    /// The service drafts' versions at the last check (`recheckIfEdited`).
    var checkedVersions: [Int] = []
    /// The time the composer's previews are made at (a fixed one in tests).
    var clock: @Sendable () -> Date = { Date() }
    /// The environment jobs read their transport settings from (PUSHDESK_*_URL,
    /// PUSHDESK_CA_FILE, proxies: docs/SENDING.md); tests point it at a loopback server.
    var environment: [String: String] = [:]

    init(store: any ConsoleStorage, access: StoreAccess, themeName: String, availableThemes: [String]) {
        self.store = store
        self.access = access
        self.themeName = themeName
        self.availableThemes = availableThemes
    }

    /// The root of the store as a URL (git runs there).
    var storeURL: URL { URL(fileURLWithPath: store.root) }

    /// Reads the whole store again and re-runs the rules with the open drafts.
    func reload(_ stack: ScreenStack) {
        settledFrame = nil
        let r = store.load()
        restPending = false
        services = r.services
        loadErrors = r.errors
        deliveries = store.deliveries()
        profiles = store.profiles()
        recheck(stack)
        gitStatusWanted = true
    }

    /// Re-runs the core rules with every open draft in place of its saved record.
    func recheck(_ stack: ScreenStack) {
        findings = store.check(
            Drafts.substituting(services, stack.sessions(of: Service.self)),
            Drafts.substituting(deliveries, stack.sessions(of: Delivery.self)))
    }

    /// The first load: everything, the services alone (`restPending`), or names only.
    func start(loadNow: Bool, servicesFirst: Bool, _ stack: ScreenStack) {
        if !loadNow {
            beginLoading()
        } else if servicesFirst {
            take(store.loadServices())
            restPending = true
        } else {
            reload(stack)
        }
    }

    /// The lazy start: one placeholder row per service file, marked as loading.
    func beginLoading() {
        services = store.index().map { Service(name: $0, label: "") }
        (loadErrors, deliveries, profiles, findings) = ([], [], [], [])
        loading = true
    }

    /// The background load arrived: the real records and findings replace the placeholders
    /// (no draft can exist yet: nothing opens while loading).
    func take(_ loaded: LoadedStore) {
        (loading, restPending) = (false, false)
        services = loaded.services
        loadErrors = loaded.errors
        deliveries = loaded.deliveries
        profiles = loaded.profiles
        findings = loaded.findings
    }

    /// The lazy start's load: every file read and checked off the input loop; recovered
    /// drafts (which need the loaded store) are offered when it arrives.
    func loadJob() -> Job {
        let store = self.store
        return .make(
            .background, work: { _ in store.loadEverything() },
            onResult: { l, _ in .loaded(l, offerRecovery: true) })
    }

    /// A read of git's state when the files changed; one at a time: a change during a read
    /// is read again once it is in.
    func gitStatusJob() -> Job? {
        guard gitStatusWanted, !gitStatusReading else { return nil }
        (gitStatusWanted, gitStatusReading) = (false, true)
        let root = storeURL
        return .make(.background, work: { _ in GitStatus.read(store: root) }, onResult: { s, _ in .gitRead(s) })
    }

    /// Git's state was read: an interrupted sync (a rebase half-way that a hang-up or a
    /// conflict left) is offered once, when nothing else is asked or running.
    func gitRead(_ status: GitStatus?, quiet: Bool) -> Effect {
        (git, gitStatusReading) = (status, false)
        guard status?.rebasing == true, !rebaseOffered, quiet else { return .none }
        rebaseOffered = true
        return GitOffer.ask()
    }

    /// Live rules: re-run them when an open service draft changed since the last check. A
    /// composer previews its own delivery on each edit through the payload engine; the
    /// store-wide check sees the delivery draft when a view opens or closes, or on save —
    /// so typing in a body never re-validates the whole store.
    func recheckIfEdited(_ stack: ScreenStack) {
        let v = stack.compactMap { ($0.session as? ServiceSession)?.version }
        guard v != checkedVersions else { return }
        checkedVersions = v
        recheck(stack)
    }

    /// A view opens: the editor's baseline is the file as last loaded (where `original`
    /// came from), and a read-only console's drafts do not change.
    func opening(_ s: ConsoleScreen) {
        guard let sess = s.session else { return }
        if sess.baseline == nil { sess.baseline = baseline(for: sess) }
        sess.readOnly = access.isReadOnly
    }

    /// The names of the saved records of a kind.
    func savedNames(_ kind: RecordKind) -> [String] { kind.editor.savedNames(self) }

    /// The baseline of a session opened from the last load: the file as it was read.
    func baseline(for session: any DraftSession) -> RecordBaseline {
        guard let name = session.originalName else { return .absent }
        return store.baseline(session.recordKind.path(name))
    }
}

/// What the terminal layer must do after a key: repaint everything (Ctrl-L), apply a theme
/// the operator picked, quit. Taken once: the runner reads outputs, it sets no flags.
public struct ConsoleOutputs: Equatable, Sendable {
    public var fullRedraw = false
    public var theme: String?
    /// The operator quit (unsaved changes were asked about): the loop ends.
    public var quit = false
    /// Text printed on standard output once the terminal is restored (the composer's copy
    /// out to stdout).
    public var exitOutput: [String] = []
    public init() {}
}
