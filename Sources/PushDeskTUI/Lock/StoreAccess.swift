import Foundation
import PushDeskCore

/// Whether this console may write the store: it holds the store's lock (`StoreLock`) for
/// its whole life, or another operator does and this console is read-only. Every write the
/// console makes (saves, deletes, secrets) asks `checkWritable()` first.
public final class StoreAccess: @unchecked Sendable {
    public enum State {
        /// This console edits; `lock` is nil only where no lock is used (screen tests).
        case editing(StoreLock?)
        /// Another process holds the lock (`holder` nil when its file names nobody), or the
        /// lock could not be taken at all (`problem`).
        case readOnly(holder: LockHolder?, problem: String?)
    }

    public private(set) var state: State
    let storeRoot: URL?
    let program: String
    /// Said once at start: a holder that ended without releasing, whose lock was free.
    public private(set) var note: String?

    public init(state: State, storeRoot: URL? = nil, program: String = "console") {
        self.state = state
        self.storeRoot = storeRoot
        self.program = program
    }

    /// No lock at all: what screen tests use.
    public static func unlocked() -> StoreAccess { StoreAccess(state: .editing(nil)) }

    /// Tries to take the store's lock; read-only when another console (or command) holds it.
    public static func open(storeRoot: URL, program: String = "console") -> StoreAccess {
        let a = deferred(storeRoot: storeRoot, program: program)
        a.takeDeferredLock()
        return a
    }

    /// The console's start: the lock is asked for just after the first frame (its services
    /// need none; taking it was a tenth of the frame's time), before any key is read. Until
    /// then the console counts as holding it, and `checkWritable` takes it first.
    public static func deferred(storeRoot: URL, program: String = "console") -> StoreAccess {
        let a = StoreAccess(state: .editing(nil), storeRoot: storeRoot, program: program)
        a.lockPending = true
        return a
    }

    /// True until the deferred lock has been asked for.
    private var lockPending = false

    /// Asks for the lock `deferred` left for later (once); read-only when another holds it.
    public func takeDeferredLock() {
        guard lockPending, let root = storeRoot else { return }
        lockPending = false
        if let problem = attempt({ try StoreLock.acquire(storeRoot: root, holder: .current(program: program)) }) {
            state = .readOnly(holder: nil, problem: problem)
        }
    }

    public var isReadOnly: Bool { if case .readOnly = state { true } else { false } }

    /// The banner of a read-only console.
    public var banner: String? {
        guard case .readOnly(let holder, let problem) = state else { return nil }
        if let problem { return "Read-only, the store cannot be locked: \(problem)" }
        guard let h = holder else {
            return "Read-only: another process holds the store's lock · Ctrl-X takes it when free"
        }
        // Who and since when first: at 80 columns the tail may be cut.
        let who =
            "\(Escape.inline(h.user, limit: 24))@\(Escape.inline(h.host, limit: 24)) pid \(h.pid)"
            + (h.program == "console" ? "" : " (\(Escape.inline(h.program, limit: 20)))")
        if h.processIsGone { return "Read-only: held by \(who), process gone · Ctrl-X takes over" }
        return "Read-only: held by \(who) since \(Self.shortTime(h.since)) · Ctrl-X takes it when free"
    }

    /// `10:02:03` today, `2026-05-01 10:02` another day.
    static func shortTime(_ d: Date) -> String {
        let full = LockHolder.localTime(d)
        return Calendar.current.isDateInToday(d) ? String(full.suffix(8)) : String(full.prefix(16))
    }

    /// What the operator is told when an edit is refused.
    public var refusal: String {
        guard case .readOnly(let holder, _) = state else { return "" }
        let who =
            holder.map { "\(Escape.inline($0.user))@\(Escape.inline($0.host)) (pid \($0.pid))" } ?? "another process"
        return "Read-only: \(who) holds the store; nothing is changed here. Ctrl-X takes over once it has ended."
    }

    public func checkWritable() throws {
        takeDeferredLock()
        if isReadOnly { throw TerminalError(message: refusal) }
    }

    public enum TakeOver {
        /// This console now holds the lock.
        case acquired
        /// The holder is alive (or on another machine): nothing changed.
        case stillHeld(LockHolder?)
        /// The lock is held but its holder's process is gone: needs the operator's yes.
        case needsConfirmation(LockHolder)
        case failed(String)
    }

    /// Ctrl-X in a read-only console: takes the lock when it is free, or asks before taking
    /// over from a holder whose process is gone (`force` after the operator's yes).
    public func takeOver(force: Bool = false) -> TakeOver {
        guard let root = storeRoot, isReadOnly else { return .acquired }
        let holder = LockHolder.current(program: program)
        if let problem = attempt({
            force
                ? try StoreLock.takeOver(storeRoot: root, holder: holder)
                : try StoreLock.acquire(storeRoot: root, holder: holder)
        }) {
            return .failed(problem)
        }
        switch state {
        case .editing: return .acquired
        case .readOnly(let holder, _):
            if !force, let holder, holder.processIsGone { return .needsConfirmation(holder) }
            return .stillHeld(holder)
        }
    }

    /// Applies the outcome of taking the lock; returns the error, leaving the state as it was.
    private func attempt(_ take: () throws -> StoreLock.Outcome) -> String? {
        do {
            switch try take() {
            case .acquired(let lock, let previous):
                state = .editing(lock)
                note = previous.map {
                    "The last console on this store (\($0.summary)) ended without quitting; its lock was released."
                }
            case .heldBy(let holder):
                state = .readOnly(holder: holder, problem: nil)
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Lets go of the lock (at exit; the kernel would release it anyway).
    public func release() {
        if case .editing(let lock?) = state { lock.release() }
    }
}

extension StoreAccess {
    /// Removes temp files of saves killed mid-write (only while holding the lock, so no other
    /// PushDesk process can be saving). Returns what was removed.
    public func cleanStaleTempFiles() -> [String] {
        guard case .editing(.some) = state, let root = storeRoot else { return [] }
        return StaleTempFiles.clean(storeRoot: root)
    }
}
