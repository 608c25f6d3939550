import Foundation
import PushDeskCore

/// The stack of views: the top one answers keys; the sessions open in it are the drafts.
/// A value: the app pushes and pops it when it applies an effect (App/ApplyEffects.swift).
struct ScreenStack: RandomAccessCollection {
    private(set) var screens: [ConsoleScreen] = []

    var startIndex: Int { screens.startIndex }
    var endIndex: Int { screens.endIndex }
    subscript(i: Int) -> ConsoleScreen { screens[i] }

    var top: ConsoleScreen { screens[screens.count - 1] }

    mutating func append(_ s: ConsoleScreen) { screens.append(s) }
    /// Removes the top view (never the last one) and returns it.
    mutating func removeTop() -> ConsoleScreen? { screens.count > 1 ? screens.removeLast() : nil }

    /// Removes every view of a session, returning them (the list under everything stays).
    mutating func remove(viewsOf session: AnyObject) -> [ConsoleScreen] {
        let gone = screens.dropFirst().filter { $0.session === session }
        screens = [screens[0]] + screens.dropFirst().filter { $0.session !== session }
        return Array(gone)
    }

    /// The open sessions editing records of one kind, each once (views may share one).
    func sessions<R>(of: R.Type) -> [EditSession<R>] {
        var out: [EditSession<R>] = []
        for case let s as EditSession<R> in screens.compactMap(\.session) where !out.contains(where: { $0 === s }) {
            out.append(s)
        }
        return out
    }

    /// Edit sessions with unsaved changes (one per open editor or composer).
    var dirtySessions: [any DraftSession] {
        var seen: [any DraftSession] = []
        for s in screens.compactMap(\.session) where s.isDirty && !seen.contains(where: { $0 === s }) {
            seen.append(s)
        }
        return seen
    }

    /// Every open draft with unsaved changes, in the order they were opened.
    var unsavedDrafts: [RecoverableDraft] {
        var seen: [RecoverableDraft] = []
        for d in screens.compactMap(\.recoverable) where d.isDirty && !seen.contains(where: { $0 === d }) {
            seen.append(d)
        }
        return seen
    }

    /// The session of the top view when no view below shows it: leaving that view leaves it.
    var sessionLeftByPop: (any DraftSession)? {
        guard count > 1, let sess = top.session, dropLast().allSatisfy({ $0.session !== sess }) else { return nil }
        return sess
    }
}
