import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The user, host and liveness of processes, for lock holders, recovery files and temp files.
public enum ProcessIdentity {
    /// Looked up once per process (a user database lookup reads /etc/nsswitch.conf and
    /// /etc/passwd; the console's start needs the name twice).
    public static let user: String = {
        if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "uid\(geteuid())"
    }()

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
