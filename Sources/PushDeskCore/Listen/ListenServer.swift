import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One request as the listener received it (docs/LISTEN.md): every byte is untrusted.
public struct ListenHTTPRequest: Sendable {
    public var method: String
    /// The request target as sent (path and query).
    public var uri: String
    /// Names in lower case.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// `address:port` of the client.
    public var remote: String
    /// The body's size when it was over `ListenServer.maxBodyBytes` (then `body` is empty).
    public var oversizedBody: Int?

    public init(
        method: String, uri: String, headers: [(name: String, value: String)], body: [UInt8], remote: String,
        oversizedBody: Int? = nil
    ) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
        self.remote = remote
        self.oversizedBody = oversizedBody
    }

    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    /// The path without the query.
    public var path: String { uri.firstIndex(of: "?").map { String(uri[..<$0]) } ?? uri }
    public var query: String? { uri.firstIndex(of: "?").map { String(uri[uri.index(after: $0)...]) } }
}

public struct ListenHTTPResponse: Sendable {
    public var status: Int
    public var body: String
    public init(status: Int, body: String = "") {
        self.status = status
        self.body = body
    }
}

/// The HTTPS server of `pushdesk listen` (docs/LISTEN.md): HTTP/1.1 over TLS on swift-nio, with
/// the limits that keep a hostile client from costing more than its share — request line and
/// headers ≤ 16 KB, body ≤ 64 KB (413 beyond), 64 connections at once, 10 s to read a
/// request (the TLS handshake included). A request `quick` can answer is answered on the
/// event loop (checks, one log write: no thread hop); the others — store saves, which wait
/// for the lock and the disk — go to `handle` on worker threads off the loop.
public final class ListenServer: @unchecked Sendable {
    public static let maxHeadBytes = 16 * 1024
    public static let maxBodyBytes = 64 * 1024
    public static let maxConnections = 64
    public static let readTimeout: TimeAmount = .seconds(10)
    /// A body over the limit is read and dropped up to this much, so the client can read its
    /// 413 (a close mid-upload resets the connection); beyond, the connection is dropped.
    static let maxDiscardBytes = 4 * 1024 * 1024

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
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try identity.chainPEM.map {
                    .certificate(try NIOSSLCertificate(bytes: Array($0.utf8), format: .pem))
                },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.keyPEM.utf8), format: .pem)))
            tls.minimumTLSVersion = .tlsv12
            context = try NIOSSLContext(configuration: tls)
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

    /// Stops listening, closes every connection, waits for requests being handled.
    /// Requests being handled still get their answer: the queue is drained and each
    /// connection's loop runs what it was given before the connection is closed.
    public func stop() {
        try? channel.close().wait()
        queue.sync(flags: .barrier) {}
        let open = lock.withLock { Array(children.values) }
        for c in open {
            try? c.eventLoop.submit {}.wait()
            try? c.close().wait()
        }
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

/// Counts the bytes of each request's line and headers (everything up to the blank line) and
/// drops the connection past `maxHeadBytes` — the URL included, which the HTTP decoder's own
/// header limits do not count.
final class HeadLimit: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    weak var server: ListenServer?
    private var inHead = true
    private var count = 0
    /// How much of "\r\n\r\n" was seen last.
    private var matched = 0

    init(server: ListenServer) { self.server = server }

    /// The request was read whole: the next bytes start a new head.
    func nextRequest() {
        inHead = true
        count = 0
        matched = 0
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if inHead {
            let buffer = unwrapInboundIn(data)
            buffer.withUnsafeReadableBytes { bytes in
                for b in bytes where inHead {
                    count += 1
                    switch (matched, b) {
                    case (0, 0x0D), (2, 0x0D): matched += 1
                    case (1, 0x0A): matched = 2
                    case (3, 0x0A): inHead = false
                    case (_, 0x0D): matched = 1
                    default: matched = 0
                    }
                }
            }
            if count > ListenServer.maxHeadBytes {
                server?.countDrop()
                context.close(promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }
}

/// One connection's requests: gathers the body (dropping what is over the limit), arms the
/// read deadline, hands the whole request to the server's queue and writes the answer.
final class RequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    weak var server: ListenServer?
    let queue: DispatchQueue
    let limit: HeadLimit
    let handle: @Sendable (ListenHTTPRequest) -> ListenHTTPResponse
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodySize = 0
    /// The content-length announced (a body announced over the limit is dropped as it comes).
    private var declared = 0
    /// When the connection is dropped unless a whole request has been read (nil while a
    /// request is being answered). One timer per connection checks it: re-arming per request
    /// only moves this time, not a scheduled task.
    private var readBy: NIODeadline?
    private var timer: Scheduled<Void>?
    /// `address:port` of the client, formatted once per connection.
    private var remote: String?

    init(
        server: ListenServer, queue: DispatchQueue, limit: HeadLimit,
        handle: @escaping @Sendable (ListenHTTPRequest) -> ListenHTTPResponse
    ) {
        self.server = server
        self.queue = queue
        self.limit = limit
        self.handle = handle
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        readBy = nil
        context.fireChannelInactive()
    }

    /// 10 s to read the next request, from the connection's start or the last answer.
    private func arm(_ context: ChannelHandlerContext) {
        readBy = .now() + ListenServer.readTimeout
        if timer == nil { schedule(context, at: readBy!) }
    }

    /// The request was read whole: no deadline while it is answered.
    private func disarm() { readBy = nil }

    private func schedule(_ context: ChannelHandlerContext, at when: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: when) {
            let (handler, context) = loopBound.value
            handler.fire(context)
        }
    }

    private func fire(_ context: ChannelHandlerContext) {
        timer = nil
        guard let readBy, context.channel.isActive else { return }
        if readBy <= .now() {
            server?.countDrop()
            context.close(promise: nil)
        } else {
            schedule(context, at: readBy)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
            bodySize = 0
            declared = h.headers.first(name: "content-length").flatMap(Int.init) ?? 0
        case .body(let b):
            bodySize += b.readableBytes
            if bodySize <= ListenServer.maxBodyBytes && declared <= ListenServer.maxBodyBytes {
                body += b.readableBytesView
            } else {
                body = []
                if bodySize > ListenServer.maxDiscardBytes {
                    server?.countDrop()
                    context.close(promise: nil)
                }
            }
        case .end:
            disarm()
            limit.nextRequest()
            guard let head else { return }
            self.head = nil
            let size = max(bodySize, declared)
            let oversized = size > ListenServer.maxBodyBytes ? size : nil
            if remote == nil { remote = context.channel.remoteAddress.map(Self.describe) ?? "-" }
            let remote = self.remote ?? "-"
            let request = ListenHTTPRequest(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { ($0.name.lowercased(), $0.value) }, body: oversized == nil ? body : [],
                remote: remote, oversizedBody: oversized)
            body = []
            let keepAlive = head.isKeepAlive && oversized == nil
            if let quick = server?.quick, let response = quick(request) {
                respond(response, keepAlive: keepAlive, context: context)
                return
            }
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let handle = self.handle
            queue.async {
                let response = handle(request)
                loopBound.eventLoop.execute {
                    let (handler, context) = loopBound.value
                    handler.respond(response, keepAlive: keepAlive, context: context)
                }
            }
        }
    }

    private func respond(_ response: ListenHTTPResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "text/plain; charset=utf-8")
        headers.add(name: "content-length", value: String(response.body.utf8.count))
        if !keepAlive { headers.add(name: "connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: response.body)))), promise: nil)
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            arm(context)
        } else {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    static func describe(_ a: SocketAddress) -> String {
        let ip = a.ipAddress ?? "?"
        let port = a.port.map(String.init) ?? "?"
        if case .v6 = a { return "[\(ip)]:\(port)" }
        return "\(ip):\(port)"
    }
}
