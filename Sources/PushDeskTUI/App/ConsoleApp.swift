import Foundation
import PushDeskCore

/// The console: its state (`AppState`), the stack of views (`ScreenStack`), the open dialog,
/// and the one place where they change, `apply(_:)` (App/ApplyEffects.swift). Input enters by
/// `handle(_:)` (App/KeyDispatch.swift), which asks the top view what a key means; what the
/// view answers is an `Effect` that `apply` carries out. `render(width:height:)` draws it
/// (App/AppDrawing.swift). Screens see it only through the read-only `AppContext`. The
/// terminal layer feeds keys and job events in and copies frames and `Outputs` out, so all
/// of this runs in tests as it does live.
public final class ConsoleApp {
    public static let minWidth = 60
    public static let minHeight = 16
    public typealias Outputs = ConsoleOutputs

    let state: AppState
    var stack = ScreenStack()
    /// The open dialog and where its answer goes.
    var question: Question?
    var help = HelpState()
    /// Recovery offers waiting for an answer (Recovery/RecoveryOffers.swift).
    let offers = RecoveryOffers()
    /// Work off the input loop (App/Job.swift): the queue its jobs post into.
    public let jobs = JobQueue()
    /// The work the operator waits for (a commit, a sync): its progress is the status line,
    /// keys wait and Esc stops it; nil when none.
    public internal(set) var foregroundJob: Job?

    /// `loadNow: false` starts from names only and loads in the background (`startLoading`);
    /// `servicesFirst` loads the services alone, the rest after the first frame (`.loadRest`).
    /// `recovery` writes the open drafts to the recovery file (nil in screen tests).
    public init(
        store: some ConsoleStorage, themeName: String = "default", availableThemes: [String] = ["default"],
        access: StoreAccess = .unlocked(), loadNow: Bool = true, servicesFirst: Bool = false,
        recovery: RecoveryKeeper? = nil, environment: [String: String] = ProcessEnvironment.read()
    ) {
        state = AppState(store: store, access: access, themeName: themeName, availableThemes: availableThemes)
        (state.recovery, state.environment) = (recovery, environment)
        state.start(loadNow: loadNow, servicesFirst: servicesFirst, stack)
        stack.append(ServicesListScreen(app: context))
        settle()
    }

    // What the tests read.
    public var findings: [Finding] { state.findings }
    public var loading: Bool { state.loading }
    public var git: GitStatus? { state.git }
    public var message: String? { state.message }
    public var dialog: Dialog? { question?.dialog }
    public var helpVisible: Bool { help.visible }
    public var quitRequested: Bool { state.outputs.quit }
    var top: ConsoleScreen { stack.top }
    /// What the screens are given of the app.
    var context: AppContext { AppContext(self) }

    /// An effect from outside the views (the runner's start notes and recovery offers, a
    /// recovery file that could not be written), applied as a key's would be.
    func perform(_ effect: Effect) {
        apply(effect)
        settle()
    }

    /// The terminal's size and whether it draws UTF-8 borders: the views are laid out for it.
    public func resize(width: Int, height: Int, asciiOnly: Bool? = nil) {
        (state.viewWidth, state.viewHeight) = (width, height)
        if let asciiOnly { state.asciiOnly = asciiOnly }
        settle()
    }

    /// What the terminal layer must do after a key (taken once; a quit stays).
    public func takeOutputs() -> Outputs {
        defer { (state.outputs.fullRedraw, state.outputs.theme) = (false, nil) }
        return state.outputs
    }

    /// The terminal layer could not load the theme the operator picked: the default is used.
    public func themeFailed(_ why: String) {
        state.themeName = "default"
        perform(.say(why))
    }

    /// Every open draft with unsaved changes, and what the recovery file holds right now.
    public var unsavedDrafts: [RecoverableDraft] { stack.unsavedDrafts }
    public func recoveryEntries() -> [RecoveryEntry] { unsavedDrafts.map { $0.recoveryEntry() } }

    /// Starts the lazy start's load, or reads git when the files changed, off the input loop.
    public func startLoading() { run(state.loadJob()) }
    public func readGitStatusIfWanted() { state.gitStatusJob().map(run) }

    /// Hands what jobs posted since the last call to their receivers and applies the effects
    /// they answer with, then lays the views out; false when nothing had arrived (the run
    /// loop calls it each time it wakes).
    @discardableResult
    public func takeJobEvents() -> Bool {
        let taken = jobs.take()
        guard !taken.isEmpty else { return false }
        for (job, event) in taken {
            if case .result = event, job === foregroundJob { (foregroundJob, state.message) = (nil, nil) }
            apply(job.receive(event, context))
        }
        if let job = foregroundJob { state.message = job.statusLine }
        settle()
        return true
    }
}
