import Foundation
import XCTest

/// Drives the built `pushdesk` in a real terminal: a tmux server on a private socket,
/// keys sent with `send-keys`, the screen read with `capture-pane`, polled until the
/// expected text appears (never bare sleeps). Failures print the screen.
final class TmuxHarness {
    static var binary: URL { packageRoot.appendingPathComponent(".build/debug/pushdesk") }

    static func tmuxPath() -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/tmux"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// Skips when tmux is missing (the Makefile installs it); fails when the binary is.
    static func requirements() throws -> String {
        guard let tmux = tmuxPath() else { throw XCTSkip("tmux is not installed; `make test` installs it (TEST_PKGS)") }
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw TerminalHarnessError(message: "\(binary.path) is missing: run `swift build` first (`make test` does)")
        }
        return tmux
    }

    let tmux: String
    let socket = "pd-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let file: StaticString
    let line: UInt

    /// Starts `pushdesk ARGS` at WxH with the environment given. After the console exits,
    /// the pane shows `PD-EXIT=<code>` and the terminal modes, so tests can check them.
    /// `shell` runs in the pane's shell first (`ulimit -f 1`: limits the console inherits).
    init(
        width: Int, height: Int, args: [String], env: [String: String] = [:], shell: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        tmux = try Self.requirements()
        self.file = file
        self.line = line
        var environment = [
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen-256color", "PUSHDESK_ESCDELAY": "25",
        ]
        for (k, v) in env { environment[k] = v }
        let envPart = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(
            separator: " ")
        let cmd =
            (shell.isEmpty ? "" : shell + "; ")
            + (["env", "-u", "NO_COLOR", envPart, Self.quote(Self.binary.path)] + args.map(Self.quote)).joined(
                separator: " ")
            + "; echo PD-EXIT=$?; echo PD-MODES $(stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)') PD-END; exec sleep 600"
        try run([
            "-f", "/dev/null", "new-session", "-d", "-s", "pd", "-x", "\(width)", "-y", "\(height)", "sh", "-c", cmd,
        ])
        _ = try? run(["set-option", "-t", "pd", "status", "off"])
    }

    deinit { _ = try? run(["kill-server"]) }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func run(_ args: [String]) throws -> String {
        let (status, text) = try Self.spawn(tmux, ["-u", "-L", socket] + args)
        if status != 0 { throw TerminalHarnessError(message: "tmux \(args.joined(separator: " ")): \(text)") }
        return text
    }

    /// posix_spawn + waitpid, output to a file. (Foundation's Process waits for pipes
    /// that the daemonised tmux server inherits, and then never returns.) Past `deadline`
    /// seconds the child is killed and the call throws with what it wrote.
    static func spawn(_ path: String, _ args: [String], deadline: TimeInterval = 60) throws -> (Int32, String) {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("pd-spawn-\(UUID().uuidString).out")
            .path
        defer { unlink(outPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard rc == 0 else { throw TerminalHarnessError(message: "cannot run \(path): errno \(rc)") }
        var status: Int32 = 0
        let end = Date().addingTimeInterval(deadline)
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r == -1 && errno != EINTR) { break }
            if Date() > end {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
                throw TerminalHarnessError(
                    message: "\(([path] + args).joined(separator: " ")) did not finish within \(Int(deadline)) s "
                        + "and was killed; its output:\n\(text)")
            }
            usleep(1_000)
        }
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
    }

    /// How the console ended: its exit status and the terminal's modes after it
    /// (`icanon echo`: cooked mode restored), from the lines the pane's shell prints.
    struct Ending {
        var status: Int?
        var modes: String?
        var screen: String
    }

    /// Waits for the console to end (the shell's `PD-END`) and reads how it ended.
    func ending(file: StaticString = #filePath, line: UInt = #line) -> Ending {
        waitFor("PD-END", file: file, line: line)
        // Lines the pane wrapped (a narrow one) joined again.
        let s = (try? run(["capture-pane", "-p", "-J", "-t", "pd"])) ?? ""
        func field(_ pattern: String) -> String? {
            guard let r = s.range(of: pattern, options: .regularExpression) else { return nil }
            return String(s[r])
        }
        let status = field("PD-EXIT=[0-9]+").flatMap { Int($0.dropFirst("PD-EXIT=".count)) }
        let modes = field("PD-MODES .* PD-END").map {
            String($0.dropFirst("PD-MODES ".count).dropLast(" PD-END".count))
        }
        return Ending(status: status, modes: modes, screen: s)
    }

    /// Keys in tmux syntax (`Enter`, `C-s`, `Tab`, `Escape`, `Down`).
    func keys(_ k: String...) { _ = try? run(["send-keys", "-t", "pd"] + k) }
    /// Literal text (typed, not pasted).
    func type(_ text: String) { _ = try? run(["send-keys", "-t", "pd", "-l", text]) }
    /// Text pasted with bracketed paste (as a terminal does when the app asked for it).
    func paste(_ text: String) {
        _ = try? run(["set-buffer", "-b", "pdpaste", text])
        _ = try? run(["paste-buffer", "-p", "-d", "-b", "pdpaste", "-t", "pd"])
    }
    func resize(_ w: Int, _ h: Int) { _ = try? run(["resize-window", "-t", "pd", "-x", "\(w)", "-y", "\(h)"]) }

    /// The screen as text (`escapes: true` keeps colours and attributes as SGR sequences).
    func screen(escapes: Bool = false) -> String {
        (try? run(["capture-pane", "-p", "-t", "pd"] + (escapes ? ["-e"] : []))) ?? ""
    }
    func display(_ format: String) -> String {
        ((try? run(["display-message", "-p", "-t", "pd", format])) ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// What the console shows while background work is under way (a view still loading, a
    /// git job, a send or a check waiting for its answer, the spinner of a loading store).
    static let busyMarkers = [
        "Loading", "loading…", "(Esc stops)", "(stopping…)", "Checking…", "sending…", "waiting for the answer…",
        "Still reading",
    ]

    static func isLoaded(_ screen: String) -> Bool { !busyMarkers.contains { screen.contains($0) } }

    /// Polls the screen until `predicate` holds (every 20 ms, up to `timeout`) on a settled,
    /// loaded screen: no background work shown (`busyMarkers`, unless `loaded` is false —
    /// a test that waits for the work itself), and the same twice 50 ms apart, since a
    /// capture can land in the middle of a frame the console is still writing. On timeout
    /// fails the test with the screen printed, and returns the last screen. The timeout is
    /// for a hung console: far beyond a quiet run, so a loaded machine never reaches it.
    @discardableResult
    func waitUntil(
        _ what: String, timeout: TimeInterval = 30, loaded: Bool = true, file: StaticString = #filePath,
        line: UInt = #line, _ predicate: (String) -> Bool
    ) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var s = screen()
        while true {
            if predicate(s) && (!loaded || Self.isLoaded(s)) {
                usleep(50_000)
                let again = screen()
                if again == s { return s }
                s = again
                if Date() <= deadline { continue }
            }
            if Date() > deadline {
                XCTFail(
                    "timed out waiting for \(what)\(loaded ? " on a loaded screen" : ""); the screen was:\n\(s)",
                    file: file, line: line)
                return s
            }
            usleep(20_000)
            s = screen()
        }
    }

    /// Waits for `text` on a settled screen, a loaded one unless `text` itself shows work
    /// under way (`busyMarkers`).
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line)
        -> String
    {
        let loaded = !Self.busyMarkers.contains { text.contains($0) }
        return waitUntil("\"\(text)\"", timeout: timeout, loaded: loaded, file: file, line: line) {
            $0.contains(text)
        }
    }

    /// Moves the focus to the field labelled `label` as an operator does: Tab (the key
    /// registry's next-field key), until the cursor is on that field's row — tests name the
    /// field, never a count of Tab presses. Bounded: `maxTabs` presses, each waited for.
    func focus(
        field label: String, maxTabs: Int = 24, file: StaticString = #filePath, line: UInt = #line
    ) {
        tab(until: "the cursor on \(label)", maxTabs: maxTabs, file: file, line: line) { screen in
            guard display("#{cursor_flag}") == "1", let y = Int(display("#{cursor_y}")) else { return false }
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            // The label starts the form's row, just inside its box (ASCII in a non-UTF-8 locale).
            return rows.indices.contains(y) && (rows[y].contains("│" + label) || rows[y].contains("|" + label))
        }
    }

    /// From the services list: opens the first service, then its first app's editor (the
    /// demo's sandbox iOS app), waiting for each view by what it shows.
    func openFirstApp(file: StaticString = #filePath, line: UInt = #line) {
        waitFor("neotrips", file: file, line: line)
        keys("Enter")
        waitFor("Apps (i: add iOS pair", file: file, line: line)
        focus(hint: "edit app", file: file, line: line)
        keys("Enter")
        waitFor("Bundle id", file: file, line: line)
    }

    /// The same for a part without a cursor (a table): Tab until the status bar offers `hint`.
    func focus(hint: String, maxTabs: Int = 24, file: StaticString = #filePath, line: UInt = #line) {
        tab(until: "the hint \(hint)", maxTabs: maxTabs, file: file, line: line) { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains(hint)
                ?? false
        }
    }

    /// Presses `key` until the screen shows `text` (a tab by what it shows, never a count of
    /// presses): each press waited for, `maxPresses` at most.
    func press(
        _ key: String, until text: String, maxPresses: Int = 8, file: StaticString = #filePath, line: UInt = #line
    ) {
        tab(until: text, maxTabs: maxPresses, key: key, file: file, line: line) { $0.contains(text) }
    }

    private func tab(
        until what: String, maxTabs: Int, key: String = "Tab", file: StaticString, line: UInt,
        _ there: (String) -> Bool
    ) {
        var s = waitUntil("a settled screen", file: file, line: line) { _ in true }
        for _ in 0..<maxTabs {
            if there(s) { return }
            let cursor = display("#{cursor_x},#{cursor_y}")
            keys(key)
            // Until the Tab is drawn (the screen or the cursor moved), 2 s at most.
            let before = s
            for _ in 0..<100 {
                usleep(20_000)
                s = screen()
                if s != before || display("#{cursor_x},#{cursor_y}") != cursor { break }
            }
            s = waitUntil("a settled screen", file: file, line: line) { _ in true }
        }
        if !there(s) { XCTFail("\(key) never reached \(what); the screen was:\n\(s)", file: file, line: line) }
    }

    /// Pid of the console process (the child of the pane's shell).
    func consolePid() -> Int32? {
        guard let sh = Int32(display("#{pane_pid}")) else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(sh)/task/\(sh)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }
}

struct TerminalHarnessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A temporary store with the demo content, written by the built binary (`pushdesk init --demo`).
func makeDemoStore() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pd-tmux-\(UUID().uuidString)")
    let (status, out) = try TmuxHarness.spawn(TmuxHarness.binary.path, ["init", "--demo", dir.path])
    guard status == 0 else { throw TerminalHarnessError(message: "pushdesk init --demo failed (\(status)): \(out)") }
    return dir
}
