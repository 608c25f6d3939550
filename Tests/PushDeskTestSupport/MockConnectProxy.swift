import Foundation

/// A loopback HTTP CONNECT proxy for the tests: asks for basic authentication, records each
/// CONNECT line and `proxy-authorization`, then relays bytes both ways. Plain sockets and
/// threads; every wait is bounded by poll time-outs and the proxy closes itself after
/// `lifetime` seconds.
public final class MockConnectProxy: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var _connects: [(line: String, auth: String?)] = []
    private let expectedAuth: String
    private let deadline: Date

    public var connects: [(line: String, auth: String?)] { lock.withLock { _connects } }

    public init(user: String, password: String, lifetime: TimeInterval = 30) throws {
        expectedAuth = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        deadline = Date().addingTimeInterval(lifetime)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw NSError(domain: "proxy", code: 1) }
        withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &len) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: addr.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    public func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        defer { close(listener) }
        while Date() < deadline {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) > 0 else { continue }
            let c = accept(listener, nil, nil)
            if c < 0 { return }
            Thread.detachNewThread { [self] in serve(c) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]), head.count < 8192 {
            var p = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 5000) > 0, read(client, &byte, 1) == 1 else { return }
            head.append(byte)
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let auth = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }.map {
            String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces)
        }
        lock.withLock { _connects.append((lines[0], auth)) }
        func reply(_ s: String) { _ = Array(s.utf8).withUnsafeBytes { write(client, $0.baseAddress, $0.count) } }
        guard auth == expectedAuth else {
            return reply("HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm=\"t\"\r\n\r\n")
        }
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3, parts[0] == "CONNECT", let colon = parts[1].lastIndex(of: ":"),
            let targetPort = UInt16(parts[1][parts[1].index(after: colon)...])
        else { return reply("HTTP/1.1 400 Bad Request\r\n\r\n") }
        let target = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(target) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")  // loopback only, whatever was asked
        addr.sin_port = targetPort.bigEndian
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(target, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard ok == 0 else { return reply("HTTP/1.1 502 Bad Gateway\r\n\r\n") }
        reply("HTTP/1.1 200 Connection established\r\n\r\n")
        var buffer = [UInt8](repeating: 0, count: 16384)
        while Date() < deadline {
            var fds = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: target, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, 200) >= 0 else { return }
            for (from, to) in [(0, target), (1, client)] where fds[from].revents != 0 {
                let n = read(fds[from].fd, &buffer, buffer.count)
                if n <= 0 { return }
                guard buffer.withUnsafeBytes({ write(to, $0.baseAddress, n) }) == n else { return }
            }
        }
    }
}
