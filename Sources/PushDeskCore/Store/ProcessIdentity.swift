import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user, host and liveness of processes, for lock holders, recovery files and temp files.
public enum ProcessIdentity {
    /// Looked up once per process. /etc/passwd first: the user database's lookup (`getpwuid`)
    /// reads /etc/nsswitch.conf and tries nscd's socket twice before it reads the same file,
    /// which was a visible part of the console's start (docs/PERFORMANCE.md). A user the file
    /// does not name (LDAP, systemd's dynamic users) is asked of the database.
    public static let user: String = {
        let uid = geteuid()
        if let text = try? String(contentsOfFile: "/etc/passwd", encoding: .utf8),
            let name = passwdName(uid: uid, in: text)
        {
            return name
        }
        if let pw = getpwuid(uid), let name = pw.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "uid\(uid)"
    }()

    /// The name of `uid` in passwd(5) text (`name:password:uid:gid:…`); nil when no line has it.
    static func passwdName(uid: uid_t, in text: String) -> String? {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            if fields.count > 2, !fields[0].isEmpty, UInt32(fields[2]) == uid { return String(fields[0]) }
        }
        return nil
    }

    /// `gethostname`, not a DNS lookup (which can hang on a server with a broken resolver).
    public static let host: String = {
        var buf = [CChar](repeating: 0, count: 256)
        guard gethostname(&buf, buf.count - 1) == 0 else { return "localhost" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Whether a process with this pid exists on this machine (EPERM: it exists, not ours).
    public static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
