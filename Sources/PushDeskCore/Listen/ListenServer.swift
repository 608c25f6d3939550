import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The HTTPS server of `pushdesk listen` (docs/LISTEN.md): HTTP/1.1 over TLS on swift-nio, with
/// the limits that keep a hostile client from costing more than its share — request line and
/// headers ≤ 16 KB (431), body ≤ 64 KB (413 as soon as the declared length says so), 64
/// connections at once, 10 s to read a request (the TLS handshake included) and 10 s to
/// write an answer. A request `quick` can answer is answered on the event loop (checks, one
/// log write: no thread hop); the others — store saves, which wait for the lock and the
/// disk — go to `handle` on worker threads off the loop. The connections' side is in
/// ListenConnection.swift, the TLS settings in ListenTLS.swift.
public final class ListenServer: @unchecked Sendable {
    public static let maxHeadBytes = 16 * 1024
    public static let maxBodyBytes = 64 * 1024
    public static let maxConnections = 64
    public static let readTimeout: TimeAmount = .seconds(10)
    public static let writeTimeout: TimeAmount = .seconds(10)
    /// After a refusal answered before the request was read whole (413, 431, 400), the
    /// connection stays readable this long — what arrives is dropped — so the client reads
    /// the answer instead of a reset; it is closed sooner when the request ends or when
    /// `maxDiscardBytes` more arrived.
    static let lingerTime: TimeAmount = .seconds(2)
    static let maxDiscardBytes = 4 * 1024 * 1024
    /// `stop` waits this long for the connections to close before the event loop is shut
    /// down under whatever is left (docs/LISTEN.md: stopped within 1 s).
    static let stopGrace: TimeAmount = .milliseconds(600)
    static let sendBufferBytes = 64 * 1024

    public let port: Int
    public let host: String
    /// Answers on the event loop when it can (nil: hand the request to `handle` off the loop).
    let quick: (@Sendable (ListenHTTPRequest) -> ListenHTTPResponse?)?
    let group: MultiThreadedEventLoopGroup
    let channel: Channel
    let queue = DispatchQueue(label: "pushdesk.listen.requests", attributes: .concurrent)
    private let lock = NSLock()
    private var open = 0
    private var children: [ObjectIdentifier: Channel] = [:]
    private var _dropped = 0

    /// Connections closed by a limit (too many, head too large, too slow).
    public var dropped: Int { lock.withLock { _dropped } }

    /// Binds `host:port` (0: any free port) serving `identity`. Throws
    /// `ListenCertificates.Failure` when the certificate cannot be served, else the bind's
    /// error when it cannot listen.
    public convenience init(
        host: String, port: Int, identity: ListenIdentity,
        quick: (@Sendable (ListenHTTPRequest) -> ListenHTTPResponse?)? = nil,
        handle: @escaping @Sendable (ListenHTTPRequest) -> ListenHTTPResponse
    ) throws {
        let context: NIOSSLContext
        do {
            context = try ListenTLS.serverContext(
                chain: try identity.chainPEM.map { try NIOSSLCertificate(bytes: Array($0.utf8), format: .pem) },
                key: try NIOSSLPrivateKey(bytes: Array(identity.keyPEM.utf8), format: .pem))
        } catch {
            throw ListenCertificates.Failure(description: "the certificate cannot be served: \(error)")
        }
        try self.init(host: host, port: port, tls: context, quick: quick, handle: handle)
    }

    /// Binds `host:port` (0: any free port). Throws when it cannot listen.
    public init(
        host: String, port: Int, tls: NIOSSLContext,
        quick: (@Sendable (ListenHTTPRequest) -> ListenHTTPResponse?)? = nil,
        handle: @escaping @Sendable (ListenHTTPRequest) -> ListenHTTPResponse
    ) throws {
        self.quick = quick
        // One event loop: a test build's phones are a handful of connections, a quick answer
        // costs tens of microseconds, and every answer ends in the one log and output (the
        // service's serial commit). A second loop only contended for that and for the cores
        // the client runs on; store saves still go to the worker queue.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = Box()
        let queue = self.queue
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Answers are under 1 KB: a send buffer this size never slows one, and a client
            // that stops reading parks no more than this in the kernel before the write
            // deadline closes it (Linux's autotuning would let it grow to megabytes).
            .childChannelOption(.socketOption(.so_sndbuf), value: Self.sendBufferBytes)
            .childChannelInitializer { child in
                guard let server = box.server, server.admit(child) else {
                    box.server?.countDrop()
                    return child.close()
                }
                return child.eventLoop.makeCompletedFuture {
                    let guardHandler = HeadLimit(server: server)
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    try child.pipeline.syncOperations.addHandler(guardHandler)
                    // The answers' headers are the server's own (no request text in them):
                    // NIO's outbound header check would only cost time on every answer.
                    try child.pipeline.syncOperations.configureHTTPServerPipeline(
                        withPipeliningAssistance: true, withErrorHandling: true, withOutboundHeaderValidation: false)
                    try child.pipeline.syncOperations.addHandler(
                        RequestHandler(server: server, queue: queue, limit: guardHandler, handle: handle))
                }
            }
        do {
            channel = try bootstrap.bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.group = group
        self.host = host
        self.port = channel.localAddress?.port ?? port
        box.server = self
    }

    /// Stops listening and closes every connection at once, whatever it is doing (idle
    /// keep-alive, half a request, a TLS handshake, a slow reader), within about
    /// `stopGrace`. Requests being handled still get their answer: the queue is drained
    /// and the loop runs the writes it was given before the connections are closed.
    public func stop() {
        try? channel.close().wait()
        queue.sync(flags: .barrier) {}
        let open = lock.withLock { Array(children.values) }
        // All closes at once: each TLS close waits up to ListenTLS.shutdownTimeout for the
        // client's close_notify, and one after another they added up to seconds.
        let closed = open.map { c in c.eventLoop.submit {}.flatMap { c.close() } }
        let done = DispatchSemaphore(value: 0)
        EventLoopFuture.andAllComplete(closed, on: group.next()).whenComplete { _ in done.signal() }
        _ = done.wait(timeout: .now() + .nanoseconds(Int(Self.stopGrace.nanoseconds)))
        try? group.syncShutdownGracefully()
    }

    func admit(_ child: Channel) -> Bool {
        let id = ObjectIdentifier(child)
        let ok = lock.withLock {
            guard open < Self.maxConnections else { return false }
            open += 1
            children[id] = child
            return true
        }
        if ok {
            child.closeFuture.whenComplete { [weak self] _ in
                self?.lock.withLock {
                    self?.open -= 1
                    self?.children[id] = nil
                }
            }
        }
        return ok
    }

    func countDrop() { lock.withLock { _dropped += 1 } }

    private final class Box: @unchecked Sendable { var server: ListenServer? }
}
