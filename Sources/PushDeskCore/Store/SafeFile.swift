import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening files inside a store that others can write to (a shared folder, a clone): a
/// planted symbolic link must never make PushDesk write through it (truncating its target),
/// and a planted FIFO or device must never block a read. Every directory below the store's
/// root is opened with `O_NOFOLLOW`, every file with `O_NOFOLLOW | O_NONBLOCK`, and its type
/// is checked with `fstat` on the descriptor actually opened (no gap between check and use).
public enum SafeFile {
    /// A file PushDesk refuses to open: a link, a special file, or a path that cannot be opened.
    public struct Refusal: Error, CustomStringConvertible, Equatable, Sendable {
        /// The path as given (store-relative where the caller gave one).
        public var path: String
        public var message: String
        /// True when the file is of a type PushDesk never reads or writes (link, FIFO,
        /// device, socket, directory) rather than an ordinary I/O failure.
        public var isWrongType: Bool
        /// The `errno` of an I/O failure (0 for a wrong type).
        public var code: Int32 = 0
        /// True when the file is longer than the reader's `maxBytes` (a caller's own size rule applies).
        public var isTooLarge = false
        public var description: String { isWrongType ? "\(path) \(message)" : "\(path): \(message)" }
    }

    /// "a FIFO (named pipe)", "a directory", …: what a `st_mode` is, for messages.
    public static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// What is at a path without following a link; nil when nothing is there.
    public static func lstatMode(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode : nil
    }

    /// Opens `relative` (a directory below `root`, `""` for the root itself) component by
    /// component, never following a link below the root; creates missing ones with `mode`
    /// (less the umask) when `create`. The root itself is the operator's own path and may be
    /// a link. Returns a descriptor of the directory.
    public static func openDirectory(root: String, relative: String, create: Bool, mode: mode_t = 0o777) throws
        -> Int32
    {
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT && create {
            // A new store (`init`, the default store): its root is the operator's own path.
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw failure(root, "cannot open the store") }
        var walked = ""
        for part in relative.split(separator: "/") where part != "." {
            let name = String(part)
            walked += walked.isEmpty ? name : "/" + name
            var next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && create {
                if mkdirat(fd, name, mode) != 0 && errno != EEXIST {
                    let e = failure(walked, "cannot create the directory")
                    close(fd)
                    throw e
                }
                next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let code = errno
                var st = stat()
                let isThere = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
                close(fd)
                if isThere && (st.st_mode & S_IFMT) != S_IFDIR {
                    throw wrongType(walked, st.st_mode, expected: "a directory")
                }
                errno = code
                throw failure(walked, "cannot open the directory")
            }
            close(fd)
            fd = next
        }
        return fd
    }

    /// Opens a regular file in an open directory without following a link and without
    /// blocking on a FIFO; anything but a regular file is refused after `fstat`. `flags` are
    /// the access mode and `O_CREAT`/`O_EXCL`/`O_TRUNC` as needed. nil when the file does not
    /// exist and `O_CREAT` is not asked. The descriptor is blocking again on return.
    public static func openRegular(in dir: Int32, _ name: String, flags: Int32, mode: mode_t = 0o644, shownAs: String)
        throws -> Int32?
    {
        // O_TRUNC is applied after the type check: truncating happens only to a regular file.
        let fd = openat(dir, name, (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, mode)
        guard fd >= 0 else {
            let code = errno
            var st = stat()
            if fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) != S_IFREG {
                throw wrongType(shownAs, st.st_mode)
            }
            if code == ENOENT && flags & O_CREAT == 0 { return nil }
            errno = code
            throw failure(shownAs, "cannot open")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = failure(shownAs, "cannot open")
            close(fd)
            throw e
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw wrongType(shownAs, st.st_mode)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if flags & O_TRUNC != 0 && ftruncate(fd, 0) != 0 {
            let e = failure(shownAs, "cannot empty")
            close(fd)
            throw e
        }
        return fd
    }

    /// Opens a file by path for reading without blocking on a FIFO and refuses anything but
    /// a regular file. Links are followed only when `followLinks` (a path the operator typed).
    /// nil when it does not exist.
    public static func openForReading(_ path: String, followLinks: Bool, shownAs: String) throws -> Int32? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            let code = errno
            if !followLinks, let m = lstatMode(path), (m & S_IFMT) == S_IFLNK { throw wrongType(shownAs, m) }
            if code == ENOENT { return nil }
            errno = code
            throw failure(shownAs, "cannot read")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            let mode = st.st_mode
            close(fd)
            throw wrongType(shownAs, mode)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// A file the operator named (a credential): links followed, but never a FIFO, device
    /// or directory read (`/dev/urandom` would never end, a FIFO would block). nil when it
    /// does not exist; a wrong type says what it is.
    public static func readFile(_ path: String, maxBytes: Int, shownAs: String) throws -> Data? {
        do {
            guard let fd = try openForReading(path, followLinks: true, shownAs: shownAs) else { return nil }
            defer { close(fd) }
            return Data(try readAll(fd, maxBytes: maxBytes, shownAs: shownAs))
        } catch var r as Refusal where r.isWrongType {
            r.message = String(r.message.prefix { $0 != ";" })
            throw r
        }
    }

    /// Reads a whole open file (at most `maxBytes`; more is an error).
    public static func readAll(_ fd: Int32, maxBytes: Int, shownAs: String) throws -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buf, buf.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(shownAs, "cannot read")
            }
            if n == 0 { return out }
            out += buf[0..<n]
            if out.count > maxBytes {
                throw Refusal(
                    path: shownAs, message: "is more than \(maxBytes) bytes", isWrongType: false, isTooLarge: true)
            }
        }
    }

    /// The names in a directory (not `.` and `..`), in the order the file system gives them;
    /// throws with errno's text when it cannot be read. `readdir` directly: Foundation's
    /// listing resolved generic types at run time, a tenth of the console's store reading.
    public static func entryNames(_ path: String) throws -> [String] {
        func failed() -> Refusal {
            Refusal(path: path, message: String(cString: strerror(errno)), isWrongType: false, code: errno)
        }
        guard let dir = opendir(path) else { throw failed() }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw failed() }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// A refusal when `mode` is a FIFO, device, socket or directory; nil for a regular file
    /// or a link (whose target the caller judges).
    public static func specialFile(_ mode: mode_t, shownAs: String) -> Refusal? {
        let type = mode & S_IFMT
        return type == S_IFREG || type == S_IFLNK ? nil : wrongType(shownAs, mode)
    }

    static func wrongType(_ path: String, _ mode: mode_t, expected: String = "a regular file") -> Refusal {
        let what = kind(mode)
        let advice =
            (mode & S_IFMT) == S_IFLNK
            ? "PushDesk does not follow links inside a store; replace it with \(expected)"
            : "PushDesk reads and writes only \(expected == "a directory" ? "directories" : "regular files") here; remove it"
        return Refusal(path: path, message: "is \(what), not \(expected); \(advice)", isWrongType: true)
    }

    static func failure(_ path: String, _ what: String) -> Refusal {
        Refusal(path: path, message: "\(what): \(String(cString: strerror(errno)))", isWrongType: false, code: errno)
    }
}
