import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// A loopback TLS server (127.0.0.1, its test CA) that speaks no HTTP: it agrees only to the
/// ALPN protocols it is given (none, or `http/1.1`), never writes, and records every byte a
/// client sends after the handshake — what a client that was refused `h2` must not send.
/// It stops by itself after `lifetime` seconds, so no test can leave it running.
public final class MockTLSRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var _handshakes = 0
    private var _open = 0
    private var _received: [UInt8] = []
    private var _agreed: [String?] = []
    private let channel: Channel
    public let port: Int

    public var baseURL: String { "https://127.0.0.1:\(port)" }
    /// TLS handshakes completed.
    public var handshakes: Int { condition.withLock { _handshakes } }
    /// The application bytes received after the handshake, on every connection.
    public var received: [UInt8] { condition.withLock { _received } }
    /// What ALPN agreed on each connection (nil: nothing).
    public var agreed: [String?] { condition.withLock { _agreed } }

    public init(identity: TestPKI.Identity, alpn: [String], lifetime: TimeInterval = 60) throws {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.key))
        tls.applicationProtocols = alpn
        let context = try NIOSSLContext(configuration: tls)
        let box = Box()
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try child.pipeline.syncOperations.addHandler(Recorder(server: box.server!))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress!.port!
        box.server = self
        channel.eventLoop.scheduleTask(in: .seconds(Int64(lifetime))) { [channel] in channel.close(promise: nil) }
    }

    public func stop() {
        try? channel.close().wait()
    }

    /// Waits until at least one client shook hands and every connection is closed (all a
    /// client wrote has then arrived); false after `timeout` seconds.
    public func waitUntilClientsLeft(timeout: TimeInterval) -> Bool {
        let deadline = Date() + timeout
        condition.lock()
        defer { condition.unlock() }
        while !(_handshakes > 0 && _open == 0) {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    fileprivate func update(_ change: (MockTLSRecorder) -> Void) {
        condition.withLock {
            change(self)
            condition.broadcast()
        }
    }

    private final class Box: @unchecked Sendable { var server: MockTLSRecorder? }

    private final class Recorder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let server: MockTLSRecorder
        private var counted = false
        init(server: MockTLSRecorder) { self.server = server }

        private func countOpen() {
            guard !counted else { return }
            counted = true
            server.update { $0._open += 1 }
        }
        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { countOpen() }
        }
        func channelActive(context: ChannelHandlerContext) {
            countOpen()
            context.fireChannelActive()
        }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let e = event as? TLSUserEvent, case .handshakeCompleted(let p) = e {
                server.update {
                    $0._handshakes += 1
                    $0._agreed.append(p)
                }
            }
            context.fireUserInboundEventTriggered(event)
        }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var b = unwrapInboundIn(data)
            let bytes = b.readBytes(length: b.readableBytes) ?? []
            server.update { $0._received += bytes }
        }
        func channelInactive(context: ChannelHandlerContext) {
            server.update { $0._open -= 1 }
            context.fireChannelInactive()
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) {
            context.close(promise: nil)
        }
    }
}
