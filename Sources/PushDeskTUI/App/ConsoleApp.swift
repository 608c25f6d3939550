import Foundation
import PushDeskCore

/// The console's state: the store's records and findings, the git state, the view size, the
/// status line. Its one entry point for input is `handle(_:)` (App/KeyDispatch.swift), which
/// asks the top view of the stack (App/ScreenStack.swift) what a key means; `apply(_:)`
/// (App/ApplyEffects.swift) carries out the `Effect` it answers with — the one place where
/// the app changes; `render(width:height:)` (App/AppDrawing.swift) draws it into a fresh cell
/// buffer. Screens see it only through `AppContext`. The terminal layer only feeds keys in
/// and copies buffers out, so all of this runs in tests as it does live.
public final class ConsoleApp {
    public static let minWidth = 60
    public static let minHeight = 16

    public let store: any ConsoleStorage
    public internal(set) var services: [Service] = []
    public internal(set) var loadErrors: [String] = []
    public internal(set) var deliveries: [Delivery] = []
    public internal(set) var profiles: [Profile] = []
    /// Every finding of the store, with the record being edited in place of its saved copy.
    public internal(set) var findings: [Finding] = []
    /// True from a lazy start until the background load arrives (StoreLoading.swift).
    public internal(set) var loading = false
    /// The store's git state (GitState.swift); nil outside a work tree or until it is read.
    public internal(set) var git: GitStatus?
    /// Set when the files changed (a load, save or delete): the run loop reads git again.
    public var gitStatusWanted = true
    /// The work the operator waits for (a commit, a sync): its progress is the status line,
    /// keys wait and Esc stops it; nil when none.
    public internal(set) var foregroundJob: Job?
    /// A git status read is running (one at a time).
    var gitStatusReading = false
    /// The interrupted-sync question is asked once per console (Later: at the next start).
    var rebaseOffered = false
    var stack: [ConsoleScreen] = []
    /// The open dialog and where its answer goes.
    var question: Question?
    /// The open dialog, if any.
    public var dialog: Dialog? { question?.dialog }
    public internal(set) var helpVisible = false
    var helpScroll = 0
    /// The size the console is drawn at (the terminal's, from `resize`). View state (scroll
    /// offsets, click areas) is laid out for it after every key, so drawing changes nothing.
    public private(set) var viewWidth = 80
    public private(set) var viewHeight = 24
    /// Borders in ASCII (a non-UTF-8 locale): set by the runner, so settled frames match.
    public internal(set) var asciiOnly = false { didSet { settledFrame = nil } }
    /// The frame `settle` drew at the view size, which `render` of that size returns: one
    /// drawing per key. Anything drawn that changes outside a key drops it.
    var settledFrame: CellBuffer?
    /// One-shot status message, cleared by the next key.
    public internal(set) var message: String? { didSet { settledFrame = nil } }
    public internal(set) var quitRequested = false
    /// Set when the operator asked for Ctrl-L (the terminal repaints everything once).
    public internal(set) var fullRedrawRequested = false
    public internal(set) var themeName: String { didSet { settledFrame = nil } }
    /// A theme the operator picked, for the terminal layer (`takeOutputs`).
    public internal(set) var pendingTheme: String?
    public var availableThemes: [String]
    /// Text the console prints to standard output once the terminal is restored (the
    /// composer's "copy out to stdout").
    public internal(set) var exitOutput: [String] = []
    /// Editing or read-only (another operator holds the store's lock).
    public let access: StoreAccess
    /// Writes the open drafts to the recovery file (set by the runner; nil in screen tests).
    public var recovery: RecoveryKeeper?
    /// Recovery offers waiting for an answer.
    var reliability = ReliabilityState()
    /// The service drafts' versions at the last check (`recheckIfEdited`).
    var checkedVersions: [Int] = []
    /// The time the composer's previews are made at (a fixed one in tests).
    public var clock: @Sendable () -> Date = { Date() }
    /// Work off the input loop (App/Job.swift): the queue its jobs post into.
    public let jobs = JobQueue()
    /// The environment jobs read their transport settings from (PUSHDESK_*_URL,
    /// PUSHDESK_CA_FILE, proxies: docs/SENDING.md); tests point it at a loopback server.
    public var environment: [String: String] = ProcessInfo.processInfo.environment

    /// `loadNow: false` starts from the store's index (names only) and waits for
    /// `finishLoading` (a large store: docs/PERFORMANCE.md).
    public init(
        store: some ConsoleStorage, themeName: String = "default", availableThemes: [String] = ["default"],
        access: StoreAccess = .unlocked(), loadNow: Bool = true
    ) {
        self.store = store
        self.access = access
        self.themeName = themeName
        self.availableThemes = availableThemes
        if loadNow { reload() } else { beginLoading() }
        stack = [ServicesListScreen(app: context)]
        settle()
    }

    /// The terminal's size changed (or is first known): lay the views out for it.
    public func resize(width: Int, height: Int) {
        viewWidth = width
        viewHeight = height
        settle()
    }

    /// The terminal's size and whether it draws UTF-8 borders (the runner, before a frame).
    public func resize(width: Int, height: Int, asciiOnly: Bool) {
        self.asciiOnly = asciiOnly
        resize(width: width, height: height)
    }

    /// What the terminal layer must do after a key: repaint everything (Ctrl-L), apply a
    /// theme the operator picked. Taken once: the runner reads outputs, it sets no flags.
    public struct Outputs: Equatable, Sendable {
        public var fullRedraw = false
        public var theme: String?
    }

    public func takeOutputs() -> Outputs {
        defer {
            fullRedrawRequested = false
            pendingTheme = nil
        }
        return Outputs(fullRedraw: fullRedrawRequested, theme: pendingTheme)
    }

    /// A message for the status line from outside the views (the runner's start notes, a
    /// recovery file that could not be written).
    public func say(_ text: String?) {
        message = text
        settle()
    }

    // MARK: store

    public func reload() {
        settledFrame = nil
        let r = store.load()
        services = r.services
        loadErrors = r.errors
        deliveries = store.deliveries()
        profiles = store.profiles()
        recheck()
        gitStatusWanted = true
    }

    /// The open sessions editing records of one kind, each once (views may share one).
    func sessions<R>(of: R.Type) -> [EditSession<R>] {
        var out: [EditSession<R>] = []
        for case let s as EditSession<R> in stack.compactMap(\.session) where !out.contains(where: { $0 === s }) {
            out.append(s)
        }
        return out
    }

    /// The service as the console sees it now: an open draft of it, else the saved one.
    func currentService(named name: String) -> Service? {
        sessions(of: Service.self).first { $0.draft.name == name }?.draft ?? services.first { $0.name == name }
    }

    /// Re-runs the core rules with every open draft in place of its saved record.
    func recheck() {
        findings = store.check(
            Drafts.substituting(services, sessions(of: Service.self)),
            Drafts.substituting(deliveries, sessions(of: Delivery.self)))
    }

    /// Findings of one service file.
    func findings(forService name: String) -> [Finding] {
        findings.filter { $0.file == ConsoleStore.servicePath(name) }
    }

    /// Called by the terminal layer when a theme could not be loaded.
    public func themeFailed(_ why: String) {
        themeName = "default"
        message = why
    }

    /// A message dialog from outside the views (the runner: a theme that was not used).
    public func inform(title: String, message: String) {
        show(title, message)
        settle()
    }

}
