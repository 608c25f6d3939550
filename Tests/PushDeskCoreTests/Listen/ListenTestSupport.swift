import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PushDeskTestSupport
import XCTest

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

    func client(serverName: String = "localhost", receiveBuffer: Int? = nil) throws -> TLSTestClient {
        try TLSTestClient(port: port, ca: caFile, serverName: serverName, receiveBuffer: receiveBuffer)
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
