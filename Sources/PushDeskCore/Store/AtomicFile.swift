import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so that it is always either the old or the new version, even if the
/// process dies or the disk fills mid-write: temp file in the same directory, write,
/// fsync, rename over the target, fsync the directory. Only a regular file (or nothing) is
/// ever replaced: renaming over a device node or a FIFO would swap the node for a file.
public enum AtomicFile {
    /// Test hook: called after the temp file is written and before it is renamed; a throw
    /// here simulates a failure at the worst moment.
    nonisolated(unsafe) public static var beforeRenameHook: (() throws -> Void)?

    /// A file inside a store (`relative` to `storeRoot`): no link below the root is followed,
    /// neither a directory on the way nor the file itself (SafeFile); missing directories
    /// are created with `directoryMode`.
    public static func write(
        _ bytes: [UInt8], storeRoot: URL, relative: String, mode: mode_t = 0o644, directoryMode: mode_t = 0o777
    ) throws {
        let parts = relative.split(separator: "/").map(String.init)
        guard let name = parts.last else { throw AtomicWriteError(message: "no file name in \(relative)") }
        let dfd: Int32
        do {
            dfd = try SafeFile.openDirectory(
                root: storeRoot.path, relative: parts.dropLast().joined(separator: "/"), create: true,
                mode: directoryMode)
        } catch let r as SafeFile.Refusal { throw AtomicWriteError(message: r.description) }
        defer { close(dfd) }
        try replace(bytes, in: dfd, name: name, mode: mode, shownAs: relative, replacingLinks: false)
    }

    /// A path the operator gave (`-o FILE`): a regular file or a new path is replaced
    /// atomically (a link there is replaced, as `mv` would); a character device or a FIFO
    /// (`/dev/null`, `/dev/stdout` in a pipe) is written to plainly; anything else is refused.
    public static func write(_ bytes: [UInt8], to url: URL, mode: mode_t = 0o644) throws {
        let path = url.path
        var st = stat()
        if stat(path, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFCHR, S_IFIFO: return try writeThrough(bytes, path: path, name: url.lastPathComponent)
            default:
                throw AtomicWriteError(
                    message:
                        "\(url.lastPathComponent) is \(SafeFile.kind(st.st_mode)), not a regular file; give a file path"
                )
            }
        }
        let dir = url.deletingLastPathComponent().path
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw posixError("cannot open the folder \(dir)") }
        defer { close(dfd) }
        try replace(
            bytes, in: dfd, name: url.lastPathComponent, mode: mode, shownAs: url.lastPathComponent,
            replacingLinks: true)
    }

    private static func replace(
        _ bytes: [UInt8], in dfd: Int32, name: String, mode: mode_t, shownAs: String, replacingLinks: Bool
    ) throws {
        var st = stat()
        if fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            let type = st.st_mode & S_IFMT
            guard type == S_IFREG || (replacingLinks && type == S_IFLNK) else {
                throw AtomicWriteError(message: SafeFile.wrongType(shownAs, st.st_mode).description)
            }
        }
        let tmp = "." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw posixError("cannot create a temporary file next to \(shownAs)") }
        var ok = false
        defer { if !ok { unlinkat(dfd, tmp, 0) } }
        do {
            try writeAll(bytes, to: fd, name: name)
            guard fsync(fd) == 0 else { throw posixError("cannot flush \(name) to disk") }
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw posixError("cannot close \(name)") }
        try beforeRenameHook?()
        guard renameat(dfd, tmp, dfd, name) == 0 else { throw posixError("cannot replace \(name)") }
        ok = true
        fsync(dfd)
    }

    private static func writeThrough(_ bytes: [UInt8], path: String, name: String) throws {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw posixError("cannot open \(name)") }
        defer { close(fd) }
        try writeAll(bytes, to: fd, name: name)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, name: String) throws {
        var written = 0
        try bytes.withUnsafeBytes { buf in
            while written < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + written, buf.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw posixError("cannot write \(name)")
                }
                written += n
            }
        }
    }

    static func posixError(_ what: String) -> AtomicWriteError {
        AtomicWriteError(message: "\(what): \(String(cString: strerror(errno)))")
    }
}

public struct AtomicWriteError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
