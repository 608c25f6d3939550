import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listener on 127.0.0.1 that speaks no TLS: each connection is closed at once (a TLS
/// handshake then fails) or held open without a byte (a handshake waits). Enough for the
/// console's connection-check steps; the full APNs/FCM conversations are the loopback mocks'
/// (Tests/PushDeskTestSupport, used by SendToMockTests). Bounded: at most `limit` connections, closed on `stop`.
final class LoopbackListener: @unchecked Sendable {
    enum Mode { case closeAtOnce, hold }
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var held: [Int32] = []
    private(set) var accepted = 0

    init(_ mode: Mode, limit: Int = 8) throws {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard sock >= 0, bound == 0, listen(sock, 8) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        fd = sock
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sock, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        let fd = fd
        Thread.detachNewThread { [self] in
            for _ in 0..<limit {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                lock.lock()
                accepted += 1
                if mode == .hold { held.append(c) } else { close(c) }
                lock.unlock()
            }
        }
    }

    var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted
    }

    private var stopped = false

    /// Closes the listener and every held connection (once).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        for c in held { close(c) }
        held = []
    }

    deinit { stop() }
}

/// Screen lines with what varies between runs folded: times in ms, the listener's port, the
/// sender's user@host, and the padding those change.
func normalized(_ lines: [String]) -> [String] {
    lines.map {
        $0.replacingOccurrences(of: "\\s+\\d+ ms", with: " N ms", options: .regularExpression)
            .replacingOccurrences(of: "127\\.0\\.0\\.1:\\d+", with: "127.0.0.1:PORT", options: .regularExpression)
            .replacingOccurrences(of: "Sent by +[^ │]+", with: "Sent by USER@HOST", options: .regularExpression)
            .replacingOccurrences(of: " +│$", with: " │", options: .regularExpression)
    }
}
