import Foundation
import PushDeskCore

/// The console's side of reliability: recovery offers waiting for an answer. (The save
/// conflict being resolved travels in the answers of its dialogs, `AppReply.conflict`.)
struct ReliabilityState {
    /// Recovery files to offer, first one shown.
    var offers: [RecoveryStore.Found] = []
}

/// The answers of the console's own dialogs (ConsoleApp is their asker).
enum AppReply {
    case cancelled
    /// Unsaved changes: save these sessions (none: discard), then go on with the effect.
    case unsaved(save: [any DraftSession], then: Effect)
    case theme(String)
    case offer(OfferAnswer)
    case discardRecovery(confirmed: Bool)
    case conflict(ConflictAnswer, Conflict)
    /// The name to save a conflicting draft under (nil: cancelled).
    case copyName(String?, Conflict)
    case takeOver

    enum OfferAnswer { case restore, diff, discard, later }
    enum ConflictAnswer { case reload, saveAsCopy, diff, cancel }
    /// The draft whose save found its file changed on disk, and how.
    struct Conflict {
        var session: any DraftSession
        var conflict: StoreConflict
    }
}

extension ConsoleApp: Asking {
    func answer(_ reply: AppReply, app: AppContext) -> Effect {
        switch reply {
        case .cancelled: break
        case .unsaved(let sessions, let then):
            for s in sessions where s.isDirty { if !save(s) { return .none } }
            return then
        case .theme(let name):
            themeName = name
            pendingTheme = name
            message = "Theme: \(name)"
        case .offer(let a): answerOffer(a)
        case .discardRecovery(let confirmed): confirmDiscard(confirmed)
        case .conflict(let a, let c): answerConflict(a, c)
        case .copyName(let name, let c): saveConflictCopy(name, c)
        case .takeOver: finishTakeOver(access.takeOver(force: true))
        }
        return .none
    }
}

extension ConsoleApp {
    /// Every open draft with unsaved changes, in the order they were opened.
    public var unsavedDrafts: [RecoverableDraft] {
        var seen: [RecoverableDraft] = []
        for d in stack.compactMap(\.recoverable) where d.isDirty && !seen.contains(where: { $0 === d }) {
            seen.append(d)
        }
        return seen
    }

    /// What the recovery file holds right now.
    public func recoveryEntries() -> [RecoveryEntry] { unsavedDrafts.map { $0.recoveryEntry() } }

    /// The baseline of a session opened from the last load: the file as it was read.
    func baseline(for session: any DraftSession) -> RecordBaseline {
        guard let name = session.originalName else { return .absent }
        return store.baseline(session.recordKind.path(name))
    }
}
