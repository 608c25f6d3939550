import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so that it is always either the old or the new version, even if the
/// process dies or the disk fills mid-write: temp file in the same directory, write,
/// fsync, rename over the target, fsync the directory.
public enum AtomicFile {
    /// Test hook: called after the temp file is written and before it is renamed; a throw
    /// here simulates a failure at the worst moment.
    nonisolated(unsafe) public static var beforeRenameHook: (() throws -> Void)?

    public static func write(_ bytes: [UInt8], to url: URL, mode: mode_t = 0o644) throws {
        let dir = url.deletingLastPathComponent().path
        let tmp = dir + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw posixError("cannot create a temporary file in \(dir)") }
        var ok = false
        defer { if !ok { unlink(tmp) } }
        do {
            var written = 0
            try bytes.withUnsafeBytes { buf in
                while written < buf.count {
                    let n = Glibc.write(fd, buf.baseAddress! + written, buf.count - written)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw posixError("cannot write \(url.lastPathComponent)")
                    }
                    written += n
                }
            }
            guard fsync(fd) == 0 else { throw posixError("cannot flush \(url.lastPathComponent) to disk") }
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw posixError("cannot close \(url.lastPathComponent)") }
        try beforeRenameHook?()
        guard rename(tmp, url.path) == 0 else { throw posixError("cannot replace \(url.lastPathComponent)") }
        ok = true
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
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
