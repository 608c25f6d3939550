import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import XCTest

/// A TLS client for the listen tests: verifies the listener's certificate against the CA it
/// was told to trust (chain and host name, as a phone does), writes the exact bytes given —
/// an SDK's request, or hostile ones a byte at a time — and reads HTTP/1.1 answers.
final class TLSTestClient: @unchecked Sendable {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
    }
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let channel: Channel
    private let state: State

    final class State: @unchecked Sendable {
        let condition = NSCondition()
        var buffer: [UInt8] = []
        var closed = false
        var error: Error?
    }

    init(port: Int, ca: URL, serverName: String = "localhost", host: String = "127.0.0.1") throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(ca.path)
        tls.certificateVerification = .fullVerification
        let context = try NIOSSLContext(configuration: tls)
        let state = State()
        self.state = state
        channel = try ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
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

    func write(_ bytes: [UInt8]) throws {
        try channel.writeAndFlush(ByteBuffer(bytes: bytes)).wait()
    }

    /// The next whole answer (status line, headers, content-length body); throws after
    /// `timeout` or when the connection closes first (a TLS failure says so).
    func answer(timeout: TimeInterval = 20) throws -> Answer {
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
    func exchange(_ bytes: [UInt8]) throws -> Answer {
        try write(bytes)
        return try answer()
    }

    /// Whether the server closed the connection within `timeout`.
    func waitClosed(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        state.condition.lock()
        defer { state.condition.unlock() }
        while !state.closed { if !state.condition.wait(until: deadline) { return state.closed } }
        return true
    }

    func close() { channel.close(promise: nil) }

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

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
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

/// `pushdesk listen` run as an operator runs it, with a deadline: started on a free port
/// (`--port 0`), its address read from what it prints, its lines read as they come; it
/// stops by itself (`--count`/`--for`), else the deadline kills it and the test fails.
final class ListenProcess: @unchecked Sendable {
    let process = Process()
    private(set) var port = 0
    let store: URL
    private let out = Pipe()
    private let err = Pipe()
    private let condition = NSCondition()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var killer: DispatchWorkItem?

    init(store: URL, _ arguments: [String], deadline: TimeInterval = 60) throws {
        let binary = packageRoot.appendingPathComponent(".build/debug/pushdesk")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip(
                "the pushdesk binary is not built at \(binary.path); run `swift build` first (make test does)")
        }
        self.store = store
        process.executableURL = binary
        process.arguments = ["listen", "--store", store.path, "--port", "0"] + arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] h in
            guard let self else { return }
            let d = h.availableData
            self.condition.lock()
            self.stdoutData += d
            self.condition.broadcast()
            self.condition.unlock()
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] h in
            guard let self else { return }
            let d = h.availableData
            self.condition.lock()
            self.stderrData += d
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
        let p = process
        let kill = DispatchWorkItem { if p.isRunning { p.terminate() } }
        killer = kill
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: kill)
        // The address line: `pushdesk listen: https://127.0.0.1:PORT/`.
        var found: Int?
        let until = Date().addingTimeInterval(30)
        condition.lock()
        while found == nil {
            let text = String(decoding: stderrData, as: UTF8.self)
            if let r = text.range(of: #"https://[^ ]*:([0-9]+)/"#, options: .regularExpression) {
                found = Int(text[r].split(separator: ":").last!.dropLast())
                break
            }
            if !process.isRunning && stderrData.isEmpty == false { break }
            if !condition.wait(until: until) { break }
        }
        condition.unlock()
        guard let found else {
            process.terminate()
            throw TLSTestClient.Failure(
                description: "listen did not start: \(String(decoding: stderrData, as: UTF8.self))")
        }
        port = found
    }

    var caFile: URL { store.appendingPathComponent(".pushdesk/listen/ca.pem") }

    func client(serverName: String = "localhost") throws -> TLSTestClient {
        try TLSTestClient(port: port, ca: caFile, serverName: serverName)
    }

    /// Standard output's lines so far.
    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: stdoutData, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: stderrData, as: UTF8.self)
    }

    /// Waits until at least `n` lines were printed.
    func waitForLines(_ n: Int, timeout: TimeInterval = 20) -> [String] {
        let until = Date().addingTimeInterval(timeout)
        condition.lock()
        while String(decoding: stdoutData, as: UTF8.self).split(separator: "\n").count < n {
            if !condition.wait(until: until) { break }
        }
        condition.unlock()
        return lines
    }

    /// Waits for the exit (the deadline still applies) and returns its status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        killer?.cancel()
        // What is left in the pipes (the child has closed its ends).
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        condition.lock()
        stdoutData += out.fileHandleForReading.readDataToEndOfFile()
        stderrData += err.fileHandleForReading.readDataToEndOfFile()
        condition.unlock()
        return process.terminationStatus
    }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }
}

/// The lines of the store's `listen.jsonl`, parsed.
func listenLog(_ store: URL) throws -> [[String: Any]] {
    let text = try String(contentsOf: store.appendingPathComponent(".pushdesk/listen.jsonl"), encoding: .utf8)
    return try text.split(separator: "\n").map {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
}

/// A finding's rule ids, in order.
func rules(_ entry: [String: Any]) -> [String] {
    (entry["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
}
