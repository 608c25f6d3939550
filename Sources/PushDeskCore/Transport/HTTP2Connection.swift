import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS

/// One answer: status, headers (lower-case names) and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}

/// One HTTP/2 connection over TLS (ALPN `h2`), built step by step — dns, tcp, (proxy CONNECT),
/// tls — so a failure names its step (docs/SENDING.md) and the connect + handshake share one 10 s
/// deadline (docs/SENDING.md). HTTP/2 starts only once the server has agreed to `h2`: a server that
/// does not gets nothing after the handshake, not even the connection preface. Requests are
/// multiplexed as streams; callers block on `request`, so the command line and the console's
/// worker thread use it alike; a `TransportCancellation` ends any of those waits at once and
/// closes the channel. Nothing here ever logs a header.
public final class HTTP2Connection: @unchecked Sendable {
    public let host: String
    public let port: Int
    /// How long each step took, for `credentials check --online`.
    public private(set) var stepMillis: [TransportError.Step: Int] = [:]
    public private(set) var resolved: [SocketAddress] = []
    let channel: Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
    private let responseTimeout: TimeInterval
    private let cancellation: TransportCancellation?
    /// The cancel action that closes this connection's channel.
    private var closeOnCancel: Int?

    static var group: EventLoopGroup { MultiThreadedEventLoopGroup.singleton }

    private init(
        host: String, port: Int, channel: Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer,
        responseTimeout: TimeInterval,
        steps: [TransportError.Step: Int], resolved: [SocketAddress], cancellation: TransportCancellation?
    ) {
        self.host = host
        self.port = port
        self.channel = channel
        self.multiplexer = multiplexer
        self.responseTimeout = responseTimeout
        self.stepMillis = steps
        self.resolved = resolved
        self.cancellation = cancellation
        closeOnCancel = cancellation?.onCancel { [channel] in channel.close(promise: nil) }
    }

    public var isOpen: Bool { channel.isActive }

    public func close() {
        cancellation?.remove(closeOnCancel)
        channel.close(promise: nil)
    }

    /// Waits for `future`, or until `cancellation` fires (then `onCancel` runs, e.g. closing
    /// the channel, and the cancelled error of `step` is thrown whatever the future says).
    static func wait<T: Sendable>(
        _ future: EventLoopFuture<T>, _ cancellation: TransportCancellation?, _ step: TransportError.Step,
        _ what: String, onCancel: @escaping @Sendable () -> Void = {}
    ) throws -> T {
        guard let cancellation else { return try future.wait() }
        let promise = future.eventLoop.makePromise(of: T.self)
        future.cascade(to: promise)
        let id = cancellation.onCancel {
            onCancel()
            promise.fail(TransportError.cancelled(step, what))
        }
        defer { cancellation.remove(id) }
        do {
            return try promise.futureResult.wait()
        } catch {
            if cancellation.isCancelled { throw TransportError.cancelled(step, what) }
            throw error
        }
    }

    /// Resolves, connects, speaks CONNECT to the proxy when one is set for `host`, and
    /// shakes hands. `onStep` is called as each step succeeds (the check reports them live).
    public static func connect(
        host: String, port: Int, tls: TLSConfiguration, settings: TransportSettings,
        cancellation: TransportCancellation? = nil, onStep: (TransportError.Step, Int) -> Void = { _, _ in }
    ) throws -> HTTP2Connection {
        try cancellation?.check(.dns, "resolving \(Escape.inline(host))")
        var steps: [TransportError.Step: Int] = [:]
        let proxy = settings.proxy(for: host)
        let dialHost = proxy?.host ?? host
        let dialPort = proxy?.port ?? port

        var clock = Date()
        func lap(_ step: TransportError.Step) {
            let ms = Int(Date().timeIntervalSince(clock) * 1000)
            steps[step] = ms
            onStep(step, ms)
            clock = Date()
        }

        let addresses = try resolve(dialHost, dialPort, forProxy: proxy != nil)
        try cancellation?.check(.dns, "resolving \(Escape.inline(host))")
        lap(.dns)

        let deadline = NIODeadline.now() + .nanoseconds(Int64(settings.connectTimeout * 1e9))
        let channel = try openTCP(
            addresses, host: dialHost, port: dialPort, deadline: deadline, viaProxy: proxy != nil,
            cancellation: cancellation)
        var ok = false
        defer { if !ok { channel.close(promise: nil) } }
        if let proxy {
            try proxyConnect(
                channel, proxy: proxy, host: host, port: port, deadline: deadline, cancellation: cancellation)
        }
        lap(.tcp)

        let multiplexer = try handshake(
            channel, host: host, port: port, tls: tls, deadline: deadline, cancellation: cancellation)
        lap(.tls)
        ok = true
        return HTTP2Connection(
            host: host, port: port, channel: channel, multiplexer: multiplexer,
            responseTimeout: settings.responseTimeout, steps: steps, resolved: addresses, cancellation: cancellation)
    }

    // MARK: steps

    static func resolve(_ host: String, _ port: Int, forProxy: Bool) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            let why = String(cString: gai_strerror(rc))
            throw TransportError(
                .dns,
                "\(forProxy ? "the proxy " : "")\(Escape.inline(host)) does not resolve (\(why)); check the name\(forProxy ? " in https_proxy" : ""), the DNS servers (/etc/resolv.conf), or set https_proxy if this machine reaches the internet through a proxy"
            )
        }
        defer { freeaddrinfo(list) }
        var out: [SocketAddress] = []
        var p: UnsafeMutablePointer<addrinfo>? = first
        while let a = p {
            if let sa = a.pointee.ai_addr {
                switch Int32(sa.pointee.sa_family) {
                case AF_INET:
                    sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        out.append(SocketAddress($0.pointee, host: host))
                    }
                case AF_INET6:
                    sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        out.append(SocketAddress($0.pointee, host: host))
                    }
                default: break
                }
            }
            p = a.pointee.ai_next
        }
        if out.isEmpty { throw TransportError(.dns, "\(Escape.inline(host)) resolves to no IPv4 or IPv6 address") }
        return out
    }

    private static func remaining(_ deadline: NIODeadline) -> TimeAmount {
        let r = deadline - NIODeadline.now()
        return r > .zero ? r : .milliseconds(1)
    }

    static func openTCP(
        _ addresses: [SocketAddress], host: String, port: Int, deadline: NIODeadline, viaProxy: Bool,
        cancellation: TransportCancellation? = nil
    ) throws -> Channel {
        var lastError: Error?
        for address in addresses {
            if NIODeadline.now() >= deadline { break }
            do {
                let future = ClientBootstrap(group: group)
                    .connectTimeout(remaining(deadline))
                    .channelOption(.socketOption(.so_reuseaddr), value: 1)
                    .connect(to: address)
                // A connect that completes after the cancel is closed at once.
                return try wait(future, cancellation, .tcp, "connecting to \(Escape.inline(host)):\(port)") {
                    future.whenSuccess { $0.close(promise: nil) }
                }
            } catch let e as TransportError where e.cancelled {
                throw e
            } catch {
                lastError = error
            }
        }
        let what = viaProxy ? "the proxy \(Escape.inline(host)):\(port)" : "\(Escape.inline(host)):\(port)"
        if let e = lastError as? ChannelError, case .connectTimeout = e {
            throw TransportError(
                .tcp,
                "\(what) did not answer within the 10 s connect time-out; a firewall may drop port \(port) — open it, or set https_proxy",
                timedOut: true)
        }
        if NIODeadline.now() >= deadline {
            throw TransportError(.tcp, "\(what) did not answer within the connect time-out", timedOut: true)
        }
        throw TransportError(
            .tcp,
            "cannot connect to \(what) (\(lastError.map(describe) ?? "no address")); check the firewall (outgoing port \(port)) or the proxy settings"
        )
    }

    /// A connect error as the system names it ("Connection refused"), not NIO's description
    /// of the call that saw it ("connection reset (error set): … (errno: 111)").
    static func describe(_ error: Error) -> String {
        if let e = error as? IOError { return String(cString: strerror(e.errnoCode)) }
        return "\(error)"
    }

    static func proxyConnect(
        _ channel: Channel, proxy: TransportSettings.Proxy, host: String, port: Int, deadline: NIODeadline,
        cancellation: TransportCancellation? = nil
    ) throws {
        let promise = channel.eventLoop.makePromise(of: Void.self)
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var request = "CONNECT \(authority) HTTP/1.1\r\nhost: \(authority)\r\n"
        if let c = proxy.credentials {
            request += "proxy-authorization: Basic \(Data(c.utf8).base64EncodedString())\r\n"
        }
        request += "\r\n"
        let handler = ProxyConnectHandler(promise: promise, proxy: proxy.shown)
        let timeout = channel.eventLoop.scheduleTask(deadline: deadline) {
            promise.fail(
                TransportError(.tcp, "the proxy \(proxy.shown) did not answer CONNECT in time", timedOut: true))
        }
        defer { timeout.cancel() }
        try channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(handler, name: "proxy-connect")
        }.wait()
        channel.writeAndFlush(ByteBuffer(string: request), promise: nil)
        let waiting = "waiting for the proxy \(proxy.shown)"
        try wait(promise.futureResult, cancellation, .tcp, waiting) {
            channel.close(promise: nil)
            promise.fail(TransportError.cancelled(.tcp, waiting))  // never left unfulfilled
        }
        _ = try? channel.pipeline.removeHandler(name: "proxy-connect").wait()
    }

    /// Shakes hands and, once the server has agreed to `h2` (ALPN), starts HTTP/2: the
    /// multiplexer of the connection. HTTP/2 is added to the pipeline in the handshake's own
    /// event, before any byte the server sends after it (its SETTINGS) is read. Without `h2`
    /// nothing is written — no connection preface — and the `tls` step fails naming ALPN.
    static func handshake(
        _ channel: Channel, host: String, port: Int, tls: TLSConfiguration, deadline: NIODeadline,
        cancellation: TransportCancellation? = nil
    ) throws -> NIOHTTP2Handler.StreamMultiplexer {
        let promise = channel.eventLoop.makePromise(of: NIOHTTP2Handler.StreamMultiplexer.self)
        let timeout = channel.eventLoop.scheduleTask(deadline: deadline) {
            promise.fail(
                TransportError(
                    .tls,
                    "the TLS handshake with \(Escape.inline(host)) did not finish within the 10 s connect time-out",
                    timedOut: true))
            channel.close(promise: nil)
        }
        defer { timeout.cancel() }
        do {
            let context = try NIOSSLContext(configuration: tls)
            let isIP = (try? SocketAddress(ipAddress: host, port: 0)) != nil
            let agreement = ALPNAgreement(promise: promise, host: host, port: port)
            try channel.eventLoop.submit {
                let ssl = try NIOSSLClientHandler(context: context, serverHostname: isIP ? nil : host)
                try channel.pipeline.syncOperations.addHandler(ssl)
                try channel.pipeline.syncOperations.addHandler(agreement, name: "alpn")
            }.wait()
        } catch {
            // A peer that closes at once fails the set-up: the promise must still be completed
            // (NIO traps on a promise dropped unfulfilled).
            promise.fail(error)
            if let e = error as? TransportError { throw e }
            throw TransportError(.tls, "cannot set up TLS: \(error)")
        }
        do {
            let shaking = "shaking hands with \(Escape.inline(host))"
            return try wait(promise.futureResult, cancellation, .tls, shaking) {
                channel.close(promise: nil)
                promise.fail(TransportError.cancelled(.tls, shaking))  // never left unfulfilled
            }
        } catch let e as TransportError {
            throw e
        } catch {
            throw TransportError(.tls, tlsMessage(error, host: host))
        }
    }

    static func tlsMessage(_ error: Error, host: String) -> String {
        // BoringSSL's text names source files of the build machine: say what failed instead.
        let text = "\(error)".replacingOccurrences(of: " at /[^\\])]*", with: "", options: .regularExpression)
        let what: String
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            what = "its chain does not end at a trusted CA (CERTIFICATE_VERIFY_FAILED)"
        } else if text.contains("failedToValidateHostname") {
            what = "it does not name \(Escape.inline(host)) (host name check failed)"
        } else if text.contains("handshakeFailed") {
            what = "chain or host name: \(Escape.inline(text, limit: 200))"
        } else {
            return "the TLS handshake with \(Escape.inline(host)) failed: \(Escape.inline(text, limit: 200))"
        }
        return
            "the certificate of \(Escape.inline(host)) was not accepted: \(what); a proxy or firewall that intercepts TLS needs its CA in PUSHDESK_CA_FILE, a test server its test CA"
    }

    // MARK: requests

    /// Sends one request on a new stream and waits for the whole answer (at most the response
    /// time-out). `headers` are sent as given, after `:method`, `:path`, `:authority`.
    public func request(
        method: String = "POST", path: String, headers: [(String, String)], body: [UInt8]
    ) throws -> HTTPResponse {
        try cancellation?.check(.auth, "about to send to \(Escape.inline(host)) (nothing was sent)")
        let loop = channel.eventLoop
        let promise = loop.makePromise(of: HTTPResponse.self)
        let host = self.host
        let responseTimeout = self.responseTimeout
        let timeout = loop.scheduleTask(in: .nanoseconds(Int64(responseTimeout * 1e9))) {
            promise.fail(
                TransportError(
                    .auth,
                    "no answer from \(Escape.inline(host)) within the \(Int(responseTimeout)) s response time-out",
                    timedOut: true))
        }
        defer { timeout.cancel() }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        let authority = port == 443 ? host : "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        head.headers.add(name: "host", value: authority)
        for (n, v) in headers { head.headers.add(name: n, value: v) }
        head.headers.add(name: "content-length", value: String(body.count))
        let requestHead = head
        let streamPromise = loop.makePromise(of: Channel.self)
        multiplexer.createStreamChannel(promise: streamPromise) { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandlers([
                    HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https), ResponseCollector(promise: promise),
                ])
            }
        }
        streamPromise.futureResult.whenComplete { result in
            switch result {
            case .success(let stream):
                stream.write(HTTPClientRequestPart.head(requestHead), promise: nil)
                stream.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
                stream.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                promise.futureResult.whenComplete { _ in stream.close(promise: nil) }
            case .failure(let error):
                promise.fail(TransportError(.auth, "cannot open a stream to \(Escape.inline(host)): \(error)"))
            }
        }
        do {
            let waiting = "waiting for the answer of \(Escape.inline(host)) (the request was sent)"
            return try Self.wait(promise.futureResult, cancellation, .auth, waiting) {
                promise.fail(TransportError.cancelled(.auth, waiting))  // never left unfulfilled
            }
        } catch let e as TransportError {
            throw e
        } catch {
            throw TransportError(
                .auth, "the connection to \(Escape.inline(host)) broke: \(Escape.inline("\(error)", limit: 200))")
        }
    }
}

/// Reads the proxy's answer to CONNECT up to the blank line; 200 lets TLS start.
private final class ProxyConnectHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let promise: EventLoopPromise<Void>
    let proxy: String
    var buffer: [UInt8] = []

    init(promise: EventLoopPromise<Void>, proxy: String) {
        self.promise = promise
        self.proxy = proxy
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var b = unwrapInboundIn(data)
        buffer += b.readBytes(length: b.readableBytes) ?? []
        guard let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if buffer.count > 16384 { promise.fail(TransportError(.tcp, "the proxy \(proxy) sent an endless answer")) }
            return
        }
        let statusLine = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        let code = parts.count > 1 ? Int(parts[1]) : nil
        switch code {
        case 200: promise.succeed(())
        case 407:
            promise.fail(
                TransportError(
                    .tcp,
                    "the proxy \(proxy) wants authentication (407); put user:password in https_proxy (http://user:password@host:port)"
                ))
        default:
            promise.fail(
                TransportError(
                    .tcp, "the proxy \(proxy) refused CONNECT: \(Escape.inline(String(statusLine), limit: 120))"))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(TransportError(.tcp, "the proxy \(proxy) closed the connection during CONNECT"))
    }
}

/// Completes when the TLS handshake does: with `h2` agreed, it adds HTTP/2 behind itself at
/// once and gives its multiplexer; otherwise it fails naming ALPN and closes the channel, so
/// nothing is written after the handshake.
private final class ALPNAgreement: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let promise: EventLoopPromise<NIOHTTP2Handler.StreamMultiplexer>
    let host: String
    let port: Int

    init(promise: EventLoopPromise<NIOHTTP2Handler.StreamMultiplexer>, host: String, port: Int) {
        self.promise = promise
        self.host = host
        self.port = port
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let e = event as? TLSUserEvent, case .handshakeCompleted(let agreed) = e else {
            return context.fireUserInboundEventTriggered(event)
        }
        guard agreed == "h2" else {
            promise.fail(
                TransportError(
                    .tls,
                    "\(Escape.inline(host)):\(port) did not agree to HTTP/2 (ALPN h2; it chose \(agreed.map { Escape.inline($0) } ?? "no protocol")), so nothing was sent; is this the APNs/FCM endpoint, or a proxy that intercepts TLS?"
                ))
            context.close(promise: nil)
            return
        }
        do {
            let multiplexer = try context.pipeline.syncOperations.configureHTTP2Pipeline(
                mode: .client, connectionConfiguration: .init(), streamConfiguration: .init()
            ) { stream in
                // A client is never sent a stream (no server push): one that comes is closed.
                stream.close()
            }
            promise.succeed(multiplexer)
        } catch {
            promise.fail(error)
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        promise.fail(error)
        context.fireErrorCaught(error)
    }
    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(TransportError(.tls, "the server closed the connection during the TLS handshake"))
        context.fireChannelInactive()
    }
}

/// Collects one response on a stream.
private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    let promise: EventLoopPromise<HTTPResponse>
    var response = HTTPResponse(status: 0, headers: [], body: [])
    /// Longest body kept: APNs and FCM errors are small JSON documents.
    static let maxBody = 64 * 1024

    init(promise: EventLoopPromise<HTTPResponse>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            response.status = Int(h.status.code)
            response.headers = h.headers.map { ($0.name.lowercased(), $0.value) }
        case .body(var b):
            if response.body.count < Self.maxBody {
                response.body += b.readBytes(length: min(b.readableBytes, Self.maxBody - response.body.count)) ?? []
            }
        case .end:
            promise.succeed(response)
        }
    }
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        promise.fail(error)
        context.close(promise: nil)
    }
    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(TransportError(.auth, "the server reset the request without an answer"))
    }
}
