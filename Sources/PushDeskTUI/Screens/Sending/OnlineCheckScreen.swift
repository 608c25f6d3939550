import Foundation
import PushDeskCore

/// Check online (docs/SENDING.md) for one app, from its editor's Credentials tab: dns → tcp → tls →
/// auth, each step shown as it finishes, a failed step with what to do. The check runs on
/// a view `Job`; Esc cancels it — its connection closed, its
/// thread done at once — and closes the view. The network
/// stack is first touched here, never by the first frame.
final class OnlineCheckScreen: StatefulScreen {
    enum Event: Sendable {
        case step(OnlineStep)
        /// The transport settings could not be read (a bad PUSHDESK_* variable).
        case failed(String)
        case done
    }
    let appLabel: String
    let appKey: String
    private(set) var steps: [OnlineStep] = []
    private(set) var failure: String?
    private(set) var finished = false
    /// The check, run by the app when the view opens; cancelled when the view leaves the stack.
    private(set) var job: Job!
    var jobsOnOpen: [Job] { [job] }

    struct View {}
    var view = View()

    /// Starts the check at once. `offlineFinding` is the first credential error of the
    /// offline checks (the auth step names it when the credential cannot be used).
    init(
        app: MobileApp, label: String, offlineFinding: Finding?, storeRoot: URL, environment: [String: String]
    ) {
        appLabel = label
        appKey = app.integrationKey
        job = .make(
            .view, owner: self,
            work: { (mailbox: JobContext<Event>) in
                let session: PushSession
                do {
                    session = try PushSession(
                        storeRoot: storeRoot, environment: environment, cancellation: mailbox.cancellation)
                } catch {
                    mailbox.post(.failed("\(error)"))
                    mailbox.post(.done)
                    return
                }
                defer { session.close() }
                _ = session.check(app, offlineFinding: offlineFinding) { step in mailbox.post(.step(step)) }
                mailbox.post(.done)
            },
            onEvent: { [weak self] e, _ in
                self?.receive(e)
                return .none
            },
            onResult: { _, _ in .none })
    }

    var title: String { "Check online › \(appLabel)" }
    var contexts: [KeyContext] { [] }
    var textFocused: Bool { false }
    func handleText(_ key: Key, app: AppContext) -> Bool { false }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        guard action == .back else { return nil }
        if finished { return .pop }
        return .all([.cancel(job), .pop, .say("Check online cancelled: nothing more is shown of it.")])
    }

    /// What the check reported, on the run loop.
    private func receive(_ e: Event) {
        switch e {
        case .step(let s): steps.append(s)
        case .failed(let why): failure = why
        case .done: finished = true
        }
    }

    /// The result as lines (role, text): one per step (wrapped), a failed step's message wrapped under it.
    func lines(width: Int) -> [(Role, String)] {
        var out: [(Role, String)] = TextWidth.wrap(
            "Checking \(Escape.inline(appKey)) step by step: dns → tcp → tls → auth, stopping at the first failure.",
            to: width - 2
        ).map { (.muted, $0) }
        out.append((.normal, ""))
        for s in steps {
            let head =
                "\(s.step.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(s.ok ? "ok    " : "FAILED") \(String(s.ms).leftPadded(5)) ms  "
            let role: Role = s.ok ? .findingInfo : .findingError
            let detail = TextWidth.wrap(Escape.inline(s.detail, limit: 200), to: max(10, width - 2 - head.count))
            for (i, l) in detail.enumerated() {
                out.append((role, (i == 0 ? head : String(repeating: " ", count: head.count)) + l))
            }
            if let m = s.message, !s.ok {
                for l in TextWidth.wrap("What to do: " + Escape.inline(m, limit: 600) + " [\(s.rule)]", to: width - 8) {
                    out.append((.findingError, "        " + l))
                }
            }
        }
        if let failure {
            for l in TextWidth.wrap("Not checked: " + Escape.inline(failure, limit: 400), to: width - 2) {
                out.append((.findingError, l))
            }
        }
        out.append((.normal, ""))
        if !finished {
            out.append((.muted, "Checking… (Esc cancels)"))
        } else if failure == nil, !steps.isEmpty, steps.allSatisfy(\.ok) {
            out.append((.findingInfo, "Every step passed: the service accepted this credential. Esc closes."))
        } else {
            let at = steps.first { !$0.ok }.map { " at \($0.step.rawValue)" } ?? ""
            out.append((.findingError, "Stopped\(at). Fix it and run Check online again. Esc closes."))
        }
        return out
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        buf.box(rect, role: .borderFocus, title: "Check online: \(appLabel)")
        let inner = rect.inset(1)
        for (i, (role, text)) in lines(width: inner.width).prefix(inner.height).enumerated() {
            buf.put(" " + text, x: inner.x, y: inner.y + i, role: role, maxX: inner.maxX)
        }
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
