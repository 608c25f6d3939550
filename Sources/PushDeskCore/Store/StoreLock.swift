import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who holds a store's lock: written into `.pushdesk/lock` so a second operator can be told.
public struct LockHolder: Equatable, Sendable {
    public var user: String
    public var host: String
    public var pid: Int32
    /// What holds it: `console`, or the command that is writing (`import-package`, …).
    public var program: String
    public var since: Date

    public init(user: String, host: String, pid: Int32, program: String, since: Date) {
        self.user = user
        self.host = host
        self.pid = pid
        self.program = program
        self.since = since
    }

    /// This process, now.
    public static func current(program: String, now: Date = Date()) -> LockHolder {
        LockHolder(user: ProcessIdentity.user, host: ProcessIdentity.host, pid: getpid(), program: program, since: now)
    }

    /// The lock file's text: a first line naming the format, then `key=value` lines.
    public var fileText: String {
        "pushdesk-lock 1\nuser=\(Self.clean(user))\nhost=\(Self.clean(host))\npid=\(pid)\nprogram=\(Self.clean(program))\nsince=\(Self.iso(since))\n"
    }

    /// Reads a lock file's text; nil when it is empty or not ours. The text is untrusted:
    /// values are cut to 100 characters and shown through `Escape.inline`.
    public static func parse(_ text: String) -> LockHolder? {
        var v: [String: String] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == "pushdesk-lock 1" else { return nil }
        for l in lines.dropFirst() {
            guard let eq = l.firstIndex(of: "=") else { continue }
            v[String(l[..<eq])] = String(l[l.index(after: eq)...].prefix(100))
        }
        guard let pid = v["pid"].flatMap({ Int32($0) }), let since = v["since"].flatMap(isoDate) else { return nil }
        return LockHolder(
            user: v["user"] ?? "?", host: v["host"] ?? "?", pid: pid, program: v["program"] ?? "?", since: since)
    }

    /// `alice@build-01 (pid 4242, console) since 2026-05-01 10:02:03`
    public var summary: String {
        "\(Escape.inline(user))@\(Escape.inline(host)) (pid \(pid), \(Escape.inline(program))) since \(Self.localTime(since))"
    }

    public var isOnThisHost: Bool { host == ProcessIdentity.host }

    /// True only when the holder ran on this machine and its process no longer exists.
    /// (A holder on another machine cannot be checked from here.)
    public var processIsGone: Bool { isOnThisHost && !ProcessIdentity.isAlive(pid) }

    /// The first 100 scalars that are neither controls nor `=`. A plain loop: the generic
    /// `String(_: some Sequence<Character>)` resolved its associated types at run time, a
    /// tenth of the lock's cost at the console's start.
    private static func clean(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var kept = 0
        for u in s.unicodeScalars where u.value >= 0x20 && u != "=" && u.value != 0x7F {
            guard kept < 100 else { break }
            out.append(u)
            kept += 1
        }
        return String(out)
    }

    /// ISO 8601 UTC (`2026-05-01T10:02:03Z`), the form of times in the lock and recovery files.
    static func iso(_ date: Date) -> String { ISOTime.string(date) }
    static func isoDate(_ text: String) -> Date? { ISOTime.date(text) }

    /// Local time for people: `2026-05-01 10:02:03`.
    public static func localTime(_ date: Date) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        f.locale = Locale(identifier: "en_US_POSIX")
        return f.string(from: date)
    }
}

/// The store's lock: `flock(2)` on `STORE/.pushdesk/lock`, held for as long as a console
/// edits the store (or a command writes to it). The kernel releases it when the process
/// ends, however it ends, so a crash never leaves the store locked. The file's content
/// names the holder for the operator who finds it taken.
public final class StoreLock: @unchecked Sendable {
    public static let relativePath = ".pushdesk/lock"

    public enum Outcome {
        /// Acquired. `previous` is the holder a process left in the file when it ended
        /// without releasing (crash, SIGKILL), for a message; nil after a clean release.
        case acquired(StoreLock, previous: LockHolder?)
        /// Another process holds it; nil when its file does not name it (being written, or not ours).
        case heldBy(LockHolder?)
    }

    public let holder: LockHolder
    private var fd: Int32

    private init(fd: Int32, holder: LockHolder) {
        self.fd = fd
        self.holder = holder
    }
    deinit { release() }

    /// Tries to take the lock without waiting. Neither `.pushdesk` nor the lock file is
    /// followed if it is a link (anyone who can write the store could otherwise make the
    /// lock truncate any file the operator can write), nor opened if it is not a regular file.
    public static func acquire(storeRoot: URL, holder: LockHolder) throws -> Outcome {
        let dir = try openDirectory(storeRoot)
        defer { close(dir) }
        // A take-over replaces the file; a lock on the replaced file would be a lock on
        // nothing, so the lock counts only if the path still names the file locked.
        for _ in 0..<10 {
            let fd = try openLockFile(in: dir, flags: O_RDWR | O_CREAT)!
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let busy = errno == EWOULDBLOCK
                let e = lockError("cannot lock \(relativePath)")
                let text = readAll(fd)
                close(fd)
                if busy { return .heldBy(LockHolder.parse(text)) }
                throw e
            }
            var mine = stat()
            var named = stat()
            guard fstat(fd, &mine) == 0, fstatat(dir, "lock", &named, AT_SYMLINK_NOFOLLOW) == 0,
                mine.st_ino == named.st_ino, mine.st_dev == named.st_dev
            else {
                close(fd)
                continue
            }
            let previous = LockHolder.parse(readAll(fd))
            let bytes = Array(holder.fileText.utf8)
            guard ftruncate(fd, 0) == 0, pwrite(fd, bytes, bytes.count, 0) == bytes.count else {
                let e = lockError("cannot write \(relativePath)")
                close(fd)
                throw e
            }
            // No fsync: the lock is the kernel's flock, gone with the process and never on
            // disk; the text only names the holder, and after a crash nobody holds it. (An
            // fsync here cost the console's start 0.4–12 ms on a busy disk.)
            return .acquired(StoreLock(fd: fd, holder: holder), previous: previous)
        }
        throw StoreError(
            file: relativePath, "the lock file keeps being replaced; is another console taking over?", kind: .io)
    }

    /// Takes the lock from a holder whose process is gone but whose lock is still held (its
    /// lock file survived it, e.g. inherited by a child): the file is replaced by a new one.
    /// Refused while the holder named in the file is alive or on another machine. The
    /// console asks the operator before calling this.
    public static func takeOver(storeRoot: URL, holder: LockHolder) throws -> Outcome {
        let dir = try openDirectory(storeRoot)
        defer { close(dir) }
        let fd = try openLockFile(in: dir, flags: O_RDONLY)
        let text = fd.map { readAll($0) } ?? ""
        if let fd { close(fd) }
        if let old = LockHolder.parse(text), !old.processIsGone {
            throw StoreError(
                file: relativePath,
                "not taken over: \(old.summary) is \(old.isOnThisHost ? "still running" : "on another machine, which cannot be checked from here")",
                kind: .io)
        }
        if unlinkat(dir, "lock", 0) != 0 && errno != ENOENT { throw lockError("cannot replace \(relativePath)") }
        return try acquire(storeRoot: storeRoot, holder: holder)
    }

    /// `.pushdesk/`, created if missing, never through a link.
    private static func openDirectory(_ storeRoot: URL) throws -> Int32 {
        // Mode 0777 less the umask: every operator who may edit the store must be able to lock it.
        do { return try SafeFile.openDirectory(root: storeRoot.path, relative: ".pushdesk", create: true) } catch let r
            as SafeFile.Refusal
        {
            throw StoreError(file: relativePath, r.description, kind: .io)
        }
    }

    private static func openLockFile(in dir: Int32, flags: Int32) throws -> Int32? {
        do {
            return try SafeFile.openRegular(in: dir, "lock", flags: flags, mode: 0o666, shownAs: relativePath)
        } catch let r as SafeFile.Refusal {
            throw StoreError(
                file: relativePath, line: r.isWrongType ? 1 : nil, column: r.isWrongType ? 1 : nil,
                "the lock file \(r.message)", kind: .io)
        }
    }

    /// Empties the file (a clean release names nobody) and unlocks. Safe to call twice.
    public func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        _ = flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    /// Runs `body` holding the lock (the CLI's writing commands); throws `StoreLocked`
    /// when another process holds it.
    public static func withLock<T>(storeRoot: URL, program: String, _ body: () throws -> T) throws -> T {
        switch try acquire(storeRoot: storeRoot, holder: .current(program: program)) {
        case .acquired(let lock, _):
            defer { lock.release() }
            return try body()
        case .heldBy(let h):
            throw StoreLocked(holder: h)
        }
    }

    static func readAll(_ fd: Int32) -> String {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = pread(fd, &buf, buf.count, 0)
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : ""
    }

    static func lockError(_ what: String) -> StoreError {
        StoreError(file: relativePath, "\(what): \(String(cString: strerror(errno)))", kind: .io)
    }
}

/// A write refused because another process holds the store's lock.
public struct StoreLocked: Error, CustomStringConvertible, Sendable {
    public var holder: LockHolder?
    public var description: String {
        let who = holder?.summary ?? "another process (its lock file names nobody yet)"
        return
            "\(StoreLock.relativePath): error: the store is locked by \(who); nothing was written. Retry when it has finished (a console: when it quits)"
    }
}
