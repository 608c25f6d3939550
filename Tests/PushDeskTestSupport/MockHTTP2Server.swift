import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A loopback HTTP/2-over-TLS server for the send tests: 127.0.0.1 only, ALPN h2, its own
/// test CA, client certificates optional or required. It records every request (headers,
/// body, which connection) and answers through `respond`; a nil answer is no answer at all.
/// It stops by itself after `lifetime` seconds, so no test can leave it running.
public final class MockHTTP2Server: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
        public var connection: Int
        public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)] = []
        public var body: String = ""
        public init(status: Int, headers: [(String, String)] = [], body: String = "") {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    private let lock = NSLock()
    private var _requests: [Request] = []
    private var _connections = 0
    private let channel: Channel
    public let port: Int
    private let respond: @Sendable (Request) -> Response?

    public var requests: [Request] { lock.withLock { _requests } }
    public var connections: Int { lock.withLock { _connections } }
    public var baseURL: String { "https://127.0.0.1:\(port)" }

    public init(
        identity: TestPKI.Identity, clientCA: NIOSSLCertificate? = nil, lifetime: TimeInterval = 60,
        respond: @escaping @Sendable (Request) -> Response?
    ) throws {
        self.respond = respond
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.key))
        tls.applicationProtocols = ["h2"]
        if let clientCA {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates([clientCA])
        }
        let context = try NIOSSLContext(configuration: tls)
        let box = Box()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                let n = box.server!.lock.withLock {
                    box.server!._connections += 1
                    return box.server!._connections
                }
                do {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                } catch {
                    return child.eventLoop.makeFailedFuture(error)
                }
                return child.configureHTTP2Pipeline(mode: .server) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandlers([
                            HTTP2FramePayloadToHTTP1ServerCodec(), StreamHandler(server: box.server!, connection: n),
                        ])
                    }
                }.map { _ in () }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress!.port!
        box.server = self
        channel.eventLoop.scheduleTask(in: .seconds(Int64(lifetime))) { [channel] in channel.close(promise: nil) }
    }

    public func stop() {
        try? channel.close().wait()
    }

    fileprivate func handle(_ r: Request) -> Response? {
        lock.withLock { _requests.append(r) }
        return respond(r)
    }

    private final class Box: @unchecked Sendable { var server: MockHTTP2Server? }
}

private final class StreamHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let server: MockHTTP2Server
    let connection: Int
    var head: HTTPRequestHead?
    var body: [UInt8] = []

    init(server: MockHTTP2Server, connection: Int) {
        self.server = server
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body(var b): body += b.readBytes(length: b.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let request = MockHTTP2Server.Request(
                method: head.method.rawValue, path: head.uri,
                headers: head.headers.map { ($0.name.lowercased(), $0.value) }, body: body, connection: connection)
            guard let response = server.handle(request) else { return }  // no answer
            var h = HTTPHeaders(response.headers)
            h.add(name: "content-length", value: String(response.body.utf8.count))
            context.write(
                wrapOutboundOut(
                    .head(HTTPResponseHead(version: .http2, status: .init(statusCode: response.status), headers: h))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
