import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a record file was when it was read: size, modification time and SHA-256 of the
/// bytes. A save compares it with the file on disk first, so a change made meanwhile (a
/// hand edit, `git pull`, another machine) is never overwritten.
///
/// Two fingerprints *match* when size and content hash are equal. The modification time is
/// kept to tell the operator when the file changed; alone it decides nothing, because a
/// `touch` or a checkout of identical bytes loses nobody's work.
public struct FileFingerprint: Equatable, Sendable, CustomStringConvertible {
    public var size: Int
    /// Modification time (seconds since 1970, nanosecond precision where the file system has it).
    public var modified: Date
    /// Lower-case hex SHA-256 of the bytes.
    public var sha256: String

    public init(size: Int, modified: Date, sha256: String) {
        self.size = size
        self.modified = modified
        self.sha256 = sha256
    }

    public init(bytes: some DataProtocol, modified: Date) {
        size = bytes.count
        self.modified = modified
        sha256 = Self.hex(SHA256.hash(data: bytes))
    }

    /// Lower-case hex of a digest (a store has thousands of files: no formatter per byte).
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        var out: [UInt8] = []
        out.reserveCapacity(64)
        digits.withUTF8Buffer { d in
            for b in digest {
                out.append(d[Int(b >> 4)])
                out.append(d[Int(b & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Same bytes (size and hash); the modification time is not compared.
    public func matches(_ other: FileFingerprint) -> Bool { size == other.size && sha256 == other.sha256 }

    public var description: String { "\(size) bytes, sha256 \(sha256.prefix(12))…" }

    /// Reads a file and fingerprints exactly the bytes read: one descriptor, `fstat` for
    /// size and time, so the three always describe the same version. nil when it does not exist.
    public static func read(_ url: URL, maxBytes: Int = Int.max) throws -> (Data, FileFingerprint)? {
        guard let (data, mtime) = try readBytes(url, maxBytes: maxBytes) else { return nil }
        return (data, FileFingerprint(bytes: data, modified: mtime))
    }

    /// The bytes and modification time of a file, without hashing them (what `validate`
    /// needs: it saves nothing). nil when it does not exist.
    static func readBytes(_ url: URL, maxBytes: Int = Int.max) throws -> (Data, Date)? {
        try readBytes(path: url.path, maxBytes: maxBytes)
    }

    /// The same from a path (a store reads thousands of files: no URL for each).
    static func readBytes(path: String, maxBytes: Int = Int.max) throws -> (Data, Date)? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        // Non-blocking open and a type check on the descriptor: a FIFO never blocks a read.
        guard let fd = try SafeFile.openForReading(path, followLinks: true, shownAs: name) else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw AtomicFile.posixError("cannot read \(name)") }
        if Int(st.st_size) > maxBytes {
            throw AtomicWriteError(message: "\(name) is \(st.st_size) bytes, more than \(maxBytes)")
        }
        // One buffer of the announced size (+1 to see the end in one read), not zeroed, grown
        // only if the file grows while being read: read to the end, not just what fstat said.
        var capacity = Int(st.st_size) + 1
        guard var buffer = malloc(capacity) else { throw AtomicWriteError(message: "out of memory reading \(name)") }
        var got = 0
        do {
            while true {
                if got == capacity {
                    capacity *= 2
                    guard let grown = realloc(buffer, capacity) else {
                        throw AtomicWriteError(message: "out of memory reading \(name)")
                    }
                    buffer = grown
                }
                let n = Glibc.read(fd, buffer + got, capacity - got)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw AtomicFile.posixError("cannot read \(name)")
                }
                if n == 0 { break }
                got += n
                if got > maxBytes { throw AtomicWriteError(message: "\(name) is more than \(maxBytes) bytes") }
            }
        } catch {
            free(buffer)
            throw error
        }
        let data = got == 0 ? Data() : Data(bytesNoCopy: buffer, count: got, deallocator: .free)
        if got == 0 { free(buffer) }
        let mtime = Date(
            timeIntervalSince1970: TimeInterval(st.st_mtim.tv_sec) + TimeInterval(st.st_mtim.tv_nsec) / 1e9)
        return (data, mtime)
    }

    /// The fingerprint of the file as it is now; nil when it does not exist.
    public static func current(_ url: URL) throws -> FileFingerprint? {
        try read(url)?.1
    }
}

/// What a save expects to find on disk before it writes.
public enum RecordBaseline: Equatable, Sendable {
    /// A new record: the file must not exist yet.
    case absent
    /// A record read earlier: the file must still hold those bytes.
    case read(FileFingerprint)
}

/// A save or delete refused because the file changed on disk since it was read. Nothing
/// was written.
public struct StoreConflict: Error, CustomStringConvertible, Sendable {
    /// Store-relative path.
    public var file: String
    public var expected: RecordBaseline
    /// What is on disk now; nil when the file was deleted meanwhile.
    public var current: FileFingerprint?

    public var description: String {
        let what: String
        switch (expected, current) {
        case (.absent, .some): what = "was created on disk by someone else since this record was started"
        case (.read, nil): what = "was deleted on disk since it was read"
        default:
            let when = current.map { " (modified \(LockHolder.localTime($0.modified)))" } ?? ""
            what = "changed on disk since it was read\(when)"
        }
        return
            "\(file): error: \(what); nothing was written — reload it, save your version as a copy, or compare the two"
    }
}
