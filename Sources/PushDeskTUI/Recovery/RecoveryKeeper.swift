import Foundation
import PushDeskCore

/// Keeps this console's recovery file in step with its unsaved drafts: written every
/// `interval` of unsaved work (so a SIGKILL loses at most that much), at once on SIGHUP and
/// SIGTERM, and deleted as soon as nothing is unsaved (saved, discarded, undone, quit).
public final class RecoveryKeeper {
    public static let defaultInterval: TimeInterval = 30
    public let store: RecoveryStore
    /// Store-relative path of this console's file (`.pushdesk/recovery/USER@HOST.PID.xml`).
    public private(set) lazy var path = RecoveryStore.relativePath(user: user, host: host, pid: pid)
    public let interval: TimeInterval
    /// The user and host as given, else this process's, looked up (once, by ProcessIdentity)
    /// when first needed: not before the console's first frame.
    private let givenUser: String?, givenHost: String?
    let pid: Int32
    var user: String { givenUser ?? ProcessIdentity.user }
    var host: String { givenHost ?? ProcessIdentity.host }
    /// When the drafts first became unsaved (nil when nothing is unsaved).
    private var dirtySince: Date?
    private var lastWrite: Date?
    /// What the file on disk holds (nil: no file of ours).
    private(set) var written: [RecoveryEntry]?
    /// The last failure, said once in the status line.
    public private(set) var lastError: String?

    public init(
        storeRoot: URL, interval: TimeInterval = defaultInterval,
        user: String? = nil, host: String? = nil, pid: Int32 = getpid()
    ) {
        store = RecoveryStore(storeRoot: storeRoot)
        self.interval = interval
        givenUser = user
        givenHost = host
        self.pid = pid
    }

    /// PUSHDESK_RECOVERY_INTERVAL: seconds (decimals allowed, at least 0.05); else 30.
    public static func interval(from env: [String: String]) -> TimeInterval {
        guard let v = env["PUSHDESK_RECOVERY_INTERVAL"].flatMap(Double.init), v.isFinite, v >= 0.05 else {
            return defaultInterval
        }
        return v
    }

    /// Called after every key and on idle ticks with the drafts as they are now.
    public func tick(_ entries: [RecoveryEntry], now: Date = Date()) {
        tick(unsaved: !entries.isEmpty, entries: { entries }, now: now)
    }

    /// The same, with the drafts encoded only when the file is due: the run loop calls this
    /// after every key, and encoding a large service on each would cost more than the key.
    public func tick(unsaved: Bool, entries: () -> [RecoveryEntry], now: Date = Date()) {
        guard unsaved else {
            dirtySince = nil
            if written != nil { clear() }
            return
        }
        if dirtySince == nil { dirtySince = now }
        let since = max(lastWrite ?? .distantPast, dirtySince!)
        guard now.timeIntervalSince(since) >= interval else { return }
        let entries = entries()
        if entries != written {
            writeNow(entries, reason: .periodic, now: now)
        }
    }

    /// Writes the file now (a hang-up, SIGTERM, a restore). True when written.
    @discardableResult
    public func writeNow(_ entries: [RecoveryEntry], reason: RecoveryFile.Reason, now: Date = Date()) -> Bool {
        guard !entries.isEmpty else {
            clear()
            return true
        }
        let file = RecoveryFile(user: user, host: host, pid: pid, written: now, reason: reason, entries: entries)
        do {
            try store.write(file, to: path)
            written = entries
            lastWrite = now
            lastError = nil
            return true
        } catch {
            lastError = "Recovery file not written: \(error)"
            return false
        }
    }

    /// Nothing is unsaved any more: the file goes.
    public func clear() {
        do {
            try store.remove(path)
            written = nil
            lastWrite = nil
        } catch { lastError = "\(error)" }
    }

    /// Recovery files of this user's earlier consoles on this store, to offer back.
    public func pending() -> [RecoveryStore.Found] { store.pending(user: user, excluding: path) }

    /// Takes the error to show, once.
    public func takeError() -> String? {
        defer { lastError = nil }
        return lastError
    }
}
