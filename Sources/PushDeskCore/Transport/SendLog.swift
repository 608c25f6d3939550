import Foundation

/// `STORE/.pushdesk/sent.jsonl` (docs/SENDING.md): one JSON line per target that made a request.
/// Mode 0600, never followed through a symbolic link, never a secret, a provider or access
/// token, or the payload; the token shortened.
public enum SendLog {
    public static let relativePath = ".pushdesk/sent.jsonl"
    public static let keys = [
        "time", "user", "delivery", "app", "profile", "token", "locale", "messageId", "channel", "outcome", "status",
        "reason",
        "apnsId",
        "apnsUniqueId", "messageName", "bytes", "attempts", "dryRun",
    ]

    public static func line(_ r: SendResult, delivery: String, dryRun: Bool, user: String, time: Date) -> String {
        func s(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        let v = JSONValue.object([
            ("time", .string(ISOTime.string(time))), ("user", .string(user)), ("delivery", .string(delivery)),
            ("app", .string(r.app)), ("profile", s(r.profile)),
            ("token", r.channel == nil ? .string(Subscription.shortened(r.token)) : .null),
            ("locale", s(r.locale)), ("messageId", .string(r.messageId)), ("channel", s(r.channel)),
            ("outcome", .string(r.outcome.rawValue)), ("status", r.status.map(JSONValue.int) ?? .null),
            ("reason", s(r.reason)), ("apnsId", s(r.apnsId)), ("apnsUniqueId", s(r.apnsUniqueId)),
            ("messageName", s(r.messageName)), ("bytes", .int(r.bytes)), ("attempts", .int(r.attempts)),
            ("dryRun", .bool(dryRun)),
        ])
        return v.compact + "\n"
    }

    /// `user@host` of this process.
    public static var userAtHost: String { ProcessIdentity.user + "@" + ProcessIdentity.host }

    /// Appends the lines of a send's results that made a request, in one write.
    public static func append(_ report: SendReport, storeRoot: URL, time: Date = Date()) throws {
        let user = userAtHost
        let text = report.results.filter(\.madeRequest).map {
            line($0, delivery: report.delivery, dryRun: report.dryRun, user: user, time: time)
        }.joined()
        guard !text.isEmpty else { return }
        try append(Array(text.utf8), storeRoot: storeRoot)
    }

    /// Appends to `.pushdesk/<file>` (the send log, or `listen`'s log) in one write.
    static func append(_ bytes: [UInt8], storeRoot: URL, file: String = "sent.jsonl") throws {
        let fd = try openForAppend(storeRoot: storeRoot, file: file)
        defer { close(fd) }
        try writeAll(bytes, to: fd, file: file)
    }

    /// `.pushdesk/<file>` opened for appending: the directory and the file each opened without
    /// following a symbolic link, a regular file, mode 0600. The caller closes it.
    static func openForAppend(storeRoot: URL, file: String) throws -> Int32 {
        let relativePath = ".pushdesk/" + file
        let dir = storeRoot.appendingPathComponent(".pushdesk").path
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw StoreError(file: ".pushdesk", "cannot create: \(String(cString: strerror(errno)))", kind: .io)
        }
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dfd >= 0 else {
            throw StoreError(
                file: ".pushdesk", "cannot open (a symbolic link is refused): \(String(cString: strerror(errno)))",
                kind: .io)
        }
        defer { close(dfd) }
        let fd = openat(dfd, file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError(
                file: relativePath, "cannot open (a symbolic link is refused): \(String(cString: strerror(errno)))",
                kind: .io)
        }
        var st = stat()
        if fstat(fd, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
            close(fd)
            throw StoreError(file: relativePath, "is not a regular file", kind: .io)
        }
        if st.st_mode & 0o077 != 0 { fchmod(fd, 0o600) }
        return fd
    }

    /// One write of `bytes` to an append descriptor (one line or a send's lines, never split).
    static func writeAll(_ bytes: [UInt8], to fd: Int32, file: String) throws {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw StoreError(file: ".pushdesk/" + file, "cannot write: \(String(cString: strerror(errno)))", kind: .io)
        }
    }

    /// The log's entries for one delivery, newest first (the console's Sends view).
    public static func entries(storeRoot: URL, delivery: String) -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: storeRoot.appendingPathComponent(relativePath).path)
        else { return [] }
        return data.split(separator: 0x0A).compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0))) as? [String: Any]
        }.filter { $0["delivery"] as? String == delivery }.reversed()
    }
}
