import Foundation

/// `PUSHDESK_FRAME_LOG=FILE`: the console writes, once its first frame is on the screen,
/// how long each step of its start took since the command began and the page faults so
/// far (`theme 0.8 ms, 61 faults`), then `first-frame-ms`. For profiling the start
/// (docs/PERFORMANCE.md); nothing is measured or written without the variable.
struct StartupLog {
    private let path: String?
    private let started: Date
    private var lines: [String] = []

    init(environment: [String: String], started: Date) {
        path = environment["PUSHDESK_FRAME_LOG"].flatMap { $0.isEmpty ? nil : $0 }
        self.started = started
    }

    mutating func mark(_ step: String) {
        guard path != nil else { return }
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        lines.append(
            String(format: "%@ %.2f ms, %ld faults", step, Date().timeIntervalSince(started) * 1000, u.ru_minflt))
    }

    /// After the first frame: the steps and the total.
    func write() {
        guard let path else { return }
        let ms = Date().timeIntervalSince(started) * 1000
        try? (lines + [String(format: "first-frame-ms %.1f", ms)]).joined(separator: "\n").appending("\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
    }
}
