import Foundation
import NIOCore
import NIOHTTP1

/// Counts the bytes of each request's line and headers (everything up to the blank line).
/// Past `maxHeadBytes` — the URL included, which the HTTP decoder's own header limits do not
/// count — it answers 431 and closes: nothing more reaches the HTTP decoder, what still
/// arrives is dropped while the client reads the answer.
final class HeadLimit: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer
    weak var server: ListenServer?
    private var inHead = true
    private var count = 0
    /// How much of "\r\n\r\n" was seen last.
    private var matched = 0
    /// The head was too large: the 431 is written, and every byte after it dropped.
    private var refused = false
    private var discarded = 0

    init(server: ListenServer) { self.server = server }

    /// The request was read whole: the next bytes start a new head.
    func nextRequest() {
        inHead = true
        count = 0
        matched = 0
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused {
            discarded += unwrapInboundIn(data).readableBytes
            if discarded > ListenServer.maxDiscardBytes { context.close(promise: nil) }
            return
        }
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
                refuse(context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// 431, written below the HTTP codec (the request never reached it whole), then the
    /// connection lingers for the client to read it.
    private func refuse(_ context: ChannelHandlerContext) {
        refused = true
        server?.countDrop()
        let text = "Request Header Fields Too Large"
        let answer =
            "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
            + "content-length: \(text.utf8.count)\r\nconnection: close\r\n\r\n\(text)"
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer))).whenComplete { _ in
            loopBound.value.eventLoop.scheduleTask(in: ListenServer.lingerTime) { loopBound.value.close(promise: nil) }
        }
    }
}

/// One connection's requests: gathers the body, keeps the connection's deadlines (10 s to
/// read a request, 10 s while the socket takes no more of the answers, a short linger after a
/// refusal),
/// refuses what RFC 9112 and the limits refuse as soon as the head says so, hands each whole
/// request to the server's checks and writes the answer. It reads no more while answers wait
/// for the socket: a client that does not read its answers cannot make the server queue more.
final class RequestHandler: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    weak var server: ListenServer?
    let queue: DispatchQueue
    let limit: HeadLimit
    let handle: @Sendable (ListenHTTPRequest) -> ListenHTTPResponse
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodySize = 0
    /// The content-length announced.
    private var declared = 0
    /// The current request was answered before it was read whole (413 from its declared
    /// length, 400 for its head): its remaining parts are dropped.
    private var answeredEarly = false
    /// The current request's end has been read.
    private var requestEnded = true
    /// Requests read whole whose answer is not written yet.
    private var answering = 0
    /// The deadlines; the connection is closed when the earliest passes. Reading: the next
    /// request (or the rest of this one), from the connection's start or the last answer.
    private var readBy: NIODeadline?
    /// Writing: set when the answers waiting for the socket pass the channel's high-water
    /// mark (the client stopped reading), cleared when it takes them again. Watching
    /// writability rather than each answer's write costs nothing per request.
    private var writeBy: NIODeadline?
    /// After a refusal written before its request ended: closed then, or when it ends.
    private var lingerUntil: NIODeadline?
    /// One timer per connection, at the earliest deadline; moving a deadline later only
    /// changes the field, the timer checks it again when it fires.
    private var timer: Scheduled<Void>?
    private var timerAt: NIODeadline?
    /// A read the channel asked for while the socket would take nothing more.
    private var heldRead = false
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
        if context.channel.isActive { startReading(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startReading(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        readBy = nil
        writeBy = nil
        lingerUntil = nil
        context.fireChannelInactive()
    }

    private func startReading(_ context: ChannelHandlerContext) {
        readBy = .now() + ListenServer.readTimeout
        reschedule(context)
    }

    private var earliest: NIODeadline? {
        func min(_ a: NIODeadline?, _ b: NIODeadline?) -> NIODeadline? {
            guard let a else { return b }
            guard let b else { return a }
            return a < b ? a : b
        }
        return min(min(readBy, writeBy), lingerUntil)
    }

    private func reschedule(_ context: ChannelHandlerContext) {
        guard let when = earliest else { return }
        if let at = timerAt, at <= when, timer != nil { return }
        timer?.cancel()
        timerAt = when
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: when) {
            let (handler, context) = loopBound.value
            handler.fire(context)
        }
    }

    private func fire(_ context: ChannelHandlerContext) {
        timer = nil
        timerAt = nil
        guard let when = earliest, context.channel.isActive else { return }
        if when <= .now() {
            if when != lingerUntil { server?.countDrop() }
            context.close(promise: nil)
        } else {
            reschedule(context)
        }
    }

    // MARK: Reading

    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            context.read()
        } else {
            heldRead = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            writeBy = nil
            if heldRead {
                heldRead = false
                context.read()
            }
        } else {
            writeBy = .now() + ListenServer.writeTimeout
            reschedule(context)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
            bodySize = 0
            answeredEarly = false
            requestEnded = false
            if readBy == nil { startReading(context) }  // a pipelined request, read while answering
            declared = h.headers.first(name: "content-length").flatMap(Int.init) ?? 0
            if let refusal = Self.refusal(h) {
                answerEarly(context) {
                    $0.respond(ListenHTTPResponse(status: 400, body: refusal), keepAlive: false, context: $1)
                }
            } else if declared > ListenServer.maxBodyBytes {
                // Answered from the declared length, nothing of the body read (an
                // `Expect: 100-continue` client gets this instead of the 100).
                let request = request(h, context: context, oversized: declared)
                answerEarly(context) { $0.answer(request, keepAlive: false, context: $1) }
            } else if h.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                let interim = HTTPResponseHead(version: h.version, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
        case .body(let b):
            guard !answeredEarly else { return }
            bodySize += b.readableBytes
            if bodySize > ListenServer.maxBodyBytes, let head {
                // A body with no length, or longer than it said: refused as it passes the limit.
                body = []
                let request = request(head, context: context, oversized: bodySize)
                answerEarly(context) { $0.answer(request, keepAlive: false, context: $1) }
            } else {
                body += b.readableBytesView
            }
        case .end:
            requestEnded = true
            limit.nextRequest()
            guard let head else { return }
            self.head = nil
            if answeredEarly {
                if lingerUntil != nil { context.close(promise: nil) }
                return
            }
            readBy = nil
            answering += 1
            answer(request(head, context: context, oversized: nil), keepAlive: head.isKeepAlive, context: context)
        }
    }

    /// What RFC 9112 refuses in a head with 400 (the decoder refuses the rest: both
    /// Content-Length and Transfer-Encoding, two different lengths).
    static func refusal(_ head: HTTPRequestHead) -> String? {
        let hosts = head.headers[canonicalForm: "host"].count
        if head.version == .http1_1 && hosts == 0 { return "Bad Request: an HTTP/1.1 request needs a Host header" }
        if hosts > 1 { return "Bad Request: more than one Host header" }
        return nil
    }

    private func request(_ head: HTTPRequestHead, context: ChannelHandlerContext, oversized: Int?)
        -> ListenHTTPRequest
    {
        if remote == nil { remote = context.channel.remoteAddress.map(Self.describe) ?? "-" }
        let request = ListenHTTPRequest(
            method: head.method.rawValue, uri: head.uri,
            headers: head.headers.map { ($0.name.lowercased(), $0.value) }, body: oversized == nil ? body : [],
            remote: remote ?? "-", oversizedBody: oversized)
        body = []
        return request
    }

    /// Answers before the request was read whole: the rest of it is dropped, and the
    /// connection closes once the answer is out and the request ended (or lingered enough).
    private func answerEarly(_ context: ChannelHandlerContext, _ how: (RequestHandler, ChannelHandlerContext) -> Void) {
        answeredEarly = true
        readBy = nil
        answering += 1
        how(self, context)
    }

    // MARK: Answering

    /// The server's checks: on the loop when `quick` answers, else on the worker queue.
    private func answer(_ request: ListenHTTPRequest, keepAlive: Bool, context: ChannelHandlerContext) {
        let keepAlive = keepAlive && request.oversizedBody == nil
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

    private func respond(_ response: ListenHTTPResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        answering -= 1
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
            // The next request's 10 s start now (one pipelined behind this one may already
            // have been read, and be answered, while the write above ran).
            if answering == 0 && head == nil { startReading(context) }
            return
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            let (handler, context) = loopBound.value
            handler.closeAfterAnswer(context)
        }
    }

    /// The socket took an answer that closes the connection: close at once when its
    /// request was read whole, after a linger when the client may still be sending it.
    private func closeAfterAnswer(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if requestEnded {
            context.close(promise: nil)
        } else {
            lingerUntil = .now() + ListenServer.lingerTime
            reschedule(context)
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
