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
        if let bytes = passwdBytes(), let name = passwdName(uid: uid, in: bytes) { return name }
        if let pw = getpwuid(uid), let name = pw.pointee.pw_name { return String(cString: name) }
        return ProcessEnvironment.read()["USER"] ?? "uid\(uid)"
    }()

    /// /etc/passwd's bytes, in one buffer of the size `fstat` gives: `Data`'s generic
    /// iteration cost the look-up a quarter of a million instructions at every start.
    private static func passwdBytes() -> [UInt8]? {
        let fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= 0, st.st_size < 1 << 24 else { return nil }
        let size = Int(st.st_size)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buf, count in
            count = 0
            while count < size {
                let n = read(fd, buf.baseAddress! + count, size - count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                count += n
            }
        }
        return bytes
    }

    /// The name of `uid` in passwd(5) lines (`name:password:uid:gid:…`); nil when no line has it.
    /// Bytes, not characters: the file is read at every start.
    static func passwdName(uid: uid_t, in bytes: [UInt8]) -> String? {
        let want = Array(String(uid).utf8)
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let f = line.split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
            if f.count > 2, !f[0].isEmpty, f[2].elementsEqual(want) { return String(decoding: f[0], as: UTF8.self) }
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
