import Foundation
import PushDeskCore

/// The one place where what a view, a dialog or a job answered happens. The app moves the
/// views, the dialog and the jobs; what changes the state or touches the store is carried
/// out by `AppState.carryOut` (App/StoreActions.swift), which answers in turn with an
/// effect (what to say, the dialog to open) that is applied next.
extension ConsoleApp {
    func apply(_ effect: Effect) {
        switch effect {
        case .none: break
        case .push(let s): push(s)
        case .pop: if let gone = stack.removeTop() { leave([gone]) }
        case .replace(let s):
            if let gone = stack.removeTop() { left(gone) }
            push(s)
        case .jump(let screens):
            // The findings view jumped from and older views of the same draft leave, so Esc
            // goes back to where the operator came from, not through stale views.
            if top is FindingsScreen, let gone = stack.removeTop() { left(gone) }
            if let sess = screens.first?.session { stack.remove(viewsOf: sess).forEach(left) }
            screens.forEach(push)
        case .close(let session): leave(stack.remove(viewsOf: session))
        case .ask(let q): question = q
        case .showHelp: help.visible = true
        case .quit: apply(UnsavedChanges.ask(stack.dirtySessions, then: .leave))
        case .offerPendingRecovery:
            // Recovered drafts need the loaded store (their baselines), and a dialog goes first.
            if question == nil, !state.loading, !state.restPending { apply(offers.pending(state)) }
        case .offerNextRecovery: apply(offers.next())
        case .handOverRecovery(let path): state.handOver(recoveryEntries(), removing: path)
        case .run(let job): run(job)
        case .cancel(let job): job.cancel()
        case .loaded(let loaded, let offerRecovery):
            state.take(loaded)
            appearAll()
            if offerRecovery { apply(.offerPendingRecovery) }
        case .gitRead(let status):
            let offer = state.gitRead(status, quiet: question == nil && foregroundJob == nil)
            appearAll()
            apply(offer)
        case .gitFinished(let outcome):
            if case .conflicts = outcome { state.rebaseOffered = true }
            if !state.loading { state.reload(stack) }
            appearAll()
        case .all(let effects): effects.forEach(apply)
        case .say, .loadRest, .save, .saveAll, .delete, .reloadDraft, .saveCopy, .writeFile, .readFile, .storeSecret,
            .addDevice,
            .removeRecoveryFile, .takeLock, .setTheme, .redraw, .printOnExit, .leave:
            apply(state.carryOut(effect, stack))
            if case .delete = effect { top.willAppear(app: context) }
        }
    }

    func push(_ s: ConsoleScreen) {
        state.opening(s)
        stack.append(s)
        s.jobsOnOpen.forEach(run)
        state.recheck(stack)
    }

    /// Views left the stack: their jobs stop; the rules run again with the drafts open now,
    /// and the view on top shows it.
    func leave(_ gone: [ConsoleScreen]) {
        gone.forEach(left)
        state.recheck(stack)
        top.willAppear(app: context)
    }

    /// The state changed under every view (a load, git): each shows it.
    func appearAll() { for s in stack { s.willAppear(app: context) } }

    /// A view left the stack: its jobs stop, and nothing of them arrives any more.
    func left(_ screen: ConsoleScreen) { jobs.cancel(ownedBy: screen) }

    /// `.run(job)`: a foreground job's progress takes the status line at once.
    func run(_ job: Job) {
        if job.kind == .foreground { (foregroundJob, state.message) = (job, job.statusLine) }
        jobs.start(job)
    }
}
