import Foundation
import PushDeskCore

/// Input: a key goes to the running foreground job, the help overlay, the dialog, or through
/// the key registry (`KeyPolicy`: its refusals first) to the top view; what answers is applied.
extension ConsoleApp {
    var policy: KeyPolicy { KeyPolicy(access: state.access, loading: state.loading, git: state.git, top: top) }

    /// The one entry point for input. Every state change happens here; then the views are
    /// laid out for the next frame.
    public func handle(_ key: Key) {
        dispatch(key)
        settle()
    }

    func dispatch(_ key: Key) {
        if key == .resize || key == .ignored { return }
        // While git works, keys redraw and the registry's stop key asks it to stop after the current step.
        if let job = foregroundJob {
            if KeyRegistry.action(for: key, in: [.foregroundJob]) == .back { job.cancel() }
            state.message = job.statusLine
            return
        }
        state.message = nil
        if help.visible { return help.handle(key) }
        if var q = question {
            let r = q.dialog.handle(key, listing: AppContext.pathEntries(in:))
            question = r == nil ? q : nil
            if let r {
                apply(q.answer(r, context))
                state.recheck(stack)
            }
            return
        }
        defer { state.recheckIfEdited(stack) }
        let policy = policy
        if let why = policy.refusal(for: key) {
            state.message = why
            return
        }
        let s = top
        switch key {
        case .wheelUp: return apply(s.handle(.up, app: context) ?? .none)
        case .wheelDown: return apply(s.handle(.down, app: context) ?? .none)
        case .click(let x, let y): return apply(s.click(x: x, y: y, app: context) ?? .none)
        default: break
        }
        if s.textFocused, KeyPolicy.isText(key), s.handleText(key, app: context) { return }
        if let b = KeyRegistry.binding(for: key, in: policy.activeContexts) {
            // Editing keys go to the focused field, whose one line editor acts on them.
            if b.context == .textField {
                _ = s.handleText(key, app: context)
                return
            }
            apply(
                s.respond(to: b, app: context)
                    ?? GlobalKeys.effect(b.action, stack: stack, state: state, app: context))
        } else if !s.handleUnbound(key, app: context), s.textFocused {
            _ = s.handleText(key, app: context)
        }
    }
}
