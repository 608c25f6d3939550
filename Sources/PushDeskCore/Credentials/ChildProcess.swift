import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a helper program (the system `openssl`) with input on stdin and collects its output.
///
/// Secrets go to the child on stdin only: never on argv (visible in `ps`) and never in its
/// environment, which is reduced to PATH and OpenSSL's own variables.
struct ChildProcess {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
    }

    static func run(_ executable: String, _ arguments: [String], stdin input: [UInt8]) throws -> Result {
        // A child that exits before reading stdin must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env: [String: String] = ["LC_ALL": "C"]
        let parent = ProcessEnvironment.read()
        for key in ["PATH", "OPENSSL_CONF", "OPENSSL_MODULES"] { env[key] = parent[key] }
        process.environment = env
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()

        let errBox = DataBox()
        let group = DispatchGroup()
        let errHandle = errPipe.fileHandleForReading
        DispatchQueue.global().async(group: group) { errBox.data = errHandle.readDataToEndOfFile() }
        try? inPipe.fileHandleForWriting.write(contentsOf: input)
        try? inPipe.fileHandleForWriting.close()
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: out, stderr: errBox.data)
    }

    /// The first executable `name` on PATH, nil when there is none.
    static func locate(_ name: String, searchPath: String?) -> String? {
        for dir in (searchPath ?? "").split(separator: ":") where !dir.isEmpty {
            let candidate = String(dir) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

private final class DataBox: @unchecked Sendable { var data = Data() }
