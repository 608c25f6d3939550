import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A TLS client for the listen tests: verifies the listener's certificate against the CA it
/// was told to trust (chain and host name, as a phone does), writes the exact bytes given —
/// an SDK's request, or hostile ones a byte at a time — and reads HTTP/1.1 answers.
public final class TLSTestClient: @unchecked Sendable {
    public struct Answer {
        public var status: Int
        public var headers: [String: String]
        public var body: String
    }
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public let channel: Channel
    private let state: State

    final class State: @unchecked Sendable {
        let condition = NSCondition()
        var buffer: [UInt8] = []
        var closed = false
        var error: Error?
    }

    /// `receiveBuffer`: the socket's SO_RCVBUF, for a client that means to stop reading
    /// (`pauseReading`) and fill the server's send buffer quickly.
    public init(
        port: Int, ca: URL, serverName: String = "localhost", host: String = "127.0.0.1", receiveBuffer: Int? = nil
    ) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(ca.path)
        tls.certificateVerification = .fullVerification
        let context = try NIOSSLContext(configuration: tls)
        let state = State()
        self.state = state
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let receiveBuffer { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: receiveBuffer) }
        channel =
            try bootstrap
            .connectTimeout(.seconds(10))
            .channelInitializer { ch in
                ch.eventLoop.makeCompletedFuture {
                    try ch.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: serverName))
                    try ch.pipeline.syncOperations.addHandler(Collector(state: state))
                }
            }
            .connect(host: host, port: port).wait()
    }

    public func write(_ bytes: [UInt8]) throws {
        try channel.writeAndFlush(ByteBuffer(bytes: bytes)).wait()
    }

    /// The next whole answer (status line, headers, content-length body); throws after
    /// `timeout` or when the connection closes first (a TLS failure says so).
    public func answer(timeout: TimeInterval = 20) throws -> Answer {
        let deadline = Date().addingTimeInterval(timeout)
        state.condition.lock()
        defer { state.condition.unlock() }
        while true {
            if let a = parse() { return a }
            if state.closed {
                throw Failure(description: "closed before an answer: \(state.error.map { "\($0)" } ?? "no error")")
            }
            if !state.condition.wait(until: deadline) { throw Failure(description: "no answer in \(timeout) s") }
        }
    }

    /// Sends a request and reads its answer.
    public func exchange(_ bytes: [UInt8]) throws -> Answer {
        try write(bytes)
        return try answer()
    }

    /// Whether the server closed the connection within `timeout`.
    public func waitClosed(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        state.condition.lock()
        defer { state.condition.unlock() }
        while !state.closed { if !state.condition.wait(until: deadline) { return state.closed } }
        return true
    }

    public func close() { channel.close(promise: nil) }

    /// Writes without waiting for the socket to take the bytes (a pipelining client that
    /// sends faster than it reads).
    public func send(_ bytes: [UInt8]) {
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
    }

    /// Stops reading from the socket: what the server sends stays in the kernel's buffers
    /// (a slow reader).
    public func pauseReading() throws {
        try channel.setOption(.autoRead, value: false).wait()
    }

    public func resumeReading() throws {
        try channel.setOption(.autoRead, value: true).wait()
        channel.read()
    }

    /// Every whole answer read so far, taken from the buffer.
    public func answersReceived() -> [Answer] {
        state.condition.lock()
        defer { state.condition.unlock() }
        var out: [Answer] = []
        while let a = parse() { out.append(a) }
        return out
    }

    private func parse() -> Answer? {
        let b = state.buffer
        guard let end = Self.find([13, 10, 13, 10], in: b) else { return nil }
        let head = String(decoding: b[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard b.count >= end + 4 + length else { return nil }
        state.buffer.removeFirst(end + 4 + length)
        return Answer(
            status: status, headers: headers, body: String(decoding: b[(end + 4)..<(end + 4 + length)], as: UTF8.self))
    }

    public static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count)
        where hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }

    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let state: State
        init(state: State) { self.state = state }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let b = unwrapInboundIn(data)
            state.condition.lock()
            state.buffer += b.readableBytesView
            state.condition.broadcast()
            state.condition.unlock()
        }
        func channelInactive(context: ChannelHandlerContext) {
            state.condition.lock()
            state.closed = true
            state.condition.broadcast()
            state.condition.unlock()
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) {
            state.condition.lock()
            state.error = error
            state.condition.unlock()
            context.close(promise: nil)
        }
    }
}
