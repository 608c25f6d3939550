import Foundation
import PushDeskCore

/// Owns the loop: render state → copy out → read a key → handle it. Nothing else.
@MainActor
public enum ConsoleRunner {
    public struct Options: Sendable {
        public var theme: String?
        /// Mouse clicks and wheel (off by default; keyboard is the way).
        public var mouse = false
        public var environment: [String: String]
        /// When the process started (for the first-frame measurement).
        public var startedAt: Date
        public init(
            theme: String?, environment: [String: String] = ProcessEnvironment.read(),
            startedAt: Date = Date()
        ) {
            self.theme = theme
            self.environment = environment
            self.startedAt = startedAt
        }
    }

    /// Runs the console until the operator quits. The terminal is restored on every way
    /// out: normal quit, a thrown error (defer), a signal (the loop sees it and stops) —
    /// except after a hang-up, when nothing more is written to the dead terminal. Returns
    /// the exit status (0, or 128 + the signal that stopped it; 129 after a hang-up) and,
    /// after a quit, what the operator asked to print on exit (the composer's copy out),
    /// for the caller to write to standard output once the terminal is restored.
    @discardableResult
    public static func run(store: Store, options: Options) throws -> Outcome {
        let env = options.environment
        var startup = StartupLog(environment: env, started: options.startedAt)
        // NO_COLOR (https://no-color.org): present and not empty → no colours at all.
        let noColor = !(env["NO_COLOR"] ?? "").isEmpty
        let requested = options.theme ?? env["PUSHDESK_THEME"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let dirs = ThemeLoader.themeDirectories(environment: env)
        var (theme, themeNote) = ThemeLoader.loadOrDefault(named: noColor ? "monochrome" : requested, directories: dirs)

        startup.mark("theme")
        // The store's lock is asked for just after the first frame, before any key is read:
        // without it this console is read-only (docs/RELIABILITY.md).
        let access = StoreAccess.deferred(storeRoot: store.root)
        defer { access.release() }
        let keeper = RecoveryKeeper(storeRoot: store.root, interval: RecoveryKeeper.interval(from: env))
        let terminal = Terminal()
        try terminal.start(noColor: noColor, mouse: options.mouse || env["PUSHDESK_MOUSE"] == "1", environment: env)
        defer { terminal.stop() }
        if terminal.colorMode == .none && theme.name != "monochrome" {
            theme = (try? ThemeLoader.load(named: "monochrome", directories: dirs)) ?? theme
        }
        terminal.apply(theme: theme)

        startup.mark("terminal")
        // A large store opens at once on its names and loads in the background (StoreLoading.swift).
        let consoleStore = ConsoleStore.open(store, access: access, environment: env)
        let lazy = consoleStore.fileCount() > ConsoleStore.lazyThreshold
        let app = ConsoleApp(
            store: consoleStore, themeName: theme.name,
            availableThemes: ThemeLoader.available(directories: dirs), access: access, loadNow: !lazy,
            servicesFirst: true,
            recovery: keeper, environment: env)
        startup.mark("store")
        if lazy { app.startLoading() }
        // A broken theme is worth a dialog (it says what and where); the rest fits the status line.
        if let themeNote { app.perform(.inform("Theme not used", themeNote)) }
        let terminalNotes = [
            terminal.termFallbackNote, terminal.localeNote, noColor ? "NO_COLOR is set: monochrome." : nil,
        ]
        .compactMap { $0 }
        if !terminalNotes.isEmpty { app.perform(.say(sentences(terminalNotes))) }
        // Recovered drafts need the loaded store (their baselines): a lazy start offers them
        // when the background load arrives.
        app.perform(.offerPendingRecovery)
        // The loop sleeps until a key, a signal, a resize or a job event wakes it; while
        // drafts are unsaved it also wakes twice per recovery interval (at most every second)
        // to write the recovery file. An idle console uses no CPU.
        let tickMs = Int32(max(25, min(1000, keeper.interval * 500)))
        var first = true
        var needsFrame = true
        var closed = false
        var outputs = ConsoleApp.Outputs()
        // The size the views are laid out for (80×24 until the first frame).
        var laidOut = (width: 80, height: 24, ascii: false)
        while !outputs.quit {
            if needsFrame {
                let (w, h) = terminal.size
                // A new size is laid out first (scroll offsets, click areas); drawing changes nothing.
                if laidOut != (w, h, !terminal.utf8) {
                    laidOut = (w, h, !terminal.utf8)
                    app.resize(width: w, height: h, asciiOnly: !terminal.utf8)
                }
                let buf = app.render(width: w, height: h, asciiOnly: !terminal.utf8)
                terminal.present(buf, fullRedraw: outputs.fullRedraw)
                outputs.fullRedraw = false
                needsFrame = false
            }
            if first {
                first = false
                startup.mark("frame")
                startup.write()
                // The lock, and what only its holder may do: remove temp files of saves killed
                // mid-write. A read-only console's banner comes with the next frame.
                access.takeDeferredLock()
                let cleaned = access.cleanStaleTempFiles()
                let lockNotes = [
                    access.note,
                    cleaned.isEmpty
                        ? nil
                        : "Removed \(cleaned.count) temporary file\(cleaned.count == 1 ? "" : "s") left by interrupted saves.",
                ]
                .compactMap { $0 }
                if !lockNotes.isEmpty { app.perform(.say(sentences(terminalNotes + lockNotes))) }
                // A small store's deliveries and profiles, read once its services are on screen.
                app.perform(.loadRest)
                needsFrame = true
                continue
            }
            // The git state is read off the loop (AppState.gitStatusJob), again after every save or delete.
            app.readGitStatusIfWanted()
            // What jobs posted (a load, git's progress and outcome, a send's answers).
            if app.takeJobEvents() {
                needsFrame = true
                continue
            }
            let input = terminal.nextInput(timeoutMs: app.unsavedDrafts.isEmpty ? -1 : tickMs)
            if input == .closed { closed = true }
            if closed || Terminal.stopSignal != 0 { break }
            defer {
                keeper.tick(unsaved: !app.unsavedDrafts.isEmpty, entries: app.recoveryEntries)
                if let e = keeper.takeError() {
                    app.perform(.say(Sanitize.string(e)))
                    needsFrame = true
                }
            }
            guard case .key(let key) = input else { continue }
            needsFrame = true
            app.handle(key)
            outputs = app.takeOutputs()
            if let name = outputs.theme {
                do {
                    var t = try ThemeLoader.load(named: name, directories: dirs)
                    if terminal.colorMode == .none { t = theme }
                    terminal.apply(theme: t)
                } catch {
                    app.themeFailed("\(error); keeping the default theme")
                    terminal.apply(theme: ThemeLoader.builtinDefault)
                }
            }
        }
        let status = stop(app: app, keeper: keeper, terminal: terminal, quit: outputs.quit, closed: closed)
        return Outcome(status: status, output: status == 0 ? outputs.exitOutput.joined(separator: "\n") : "")
    }

    public struct Outcome: Sendable {
        public var status: Int32
        /// Text to print on standard output after the terminal is restored (empty: none).
        public var output: String
    }

    /// Leaving. A quit asked about every draft (saved or discarded), so the recovery file
    /// goes. A hang-up or a stop signal writes every unsaved draft to it first — before the
    /// terminal is touched, since a stalled connection could block a write to it — and a
    /// terminal that hung up is left alone.
    private static func stop(
        app: ConsoleApp, keeper: RecoveryKeeper, terminal: Terminal, quit: Bool, closed: Bool
    ) -> Int32 {
        let sig = Terminal.stopSignal
        if quit && sig == 0 {
            app.jobs.cancelAll()
            keeper.clear()
            return 0
        }
        let hangup = closed || sig == SIGHUP
        keeper.writeNow(app.recoveryEntries(), reason: hangup ? .hangup : .terminate)
        // A send, a fetch or push of a sync must not run on as an orphan after the operator
        // is gone (a rebase is never killed: a job's cancel stops only git's network steps).
        app.jobs.cancelAll()
        if hangup && Terminal.isHungUp { terminal.abandon() }
        return 128 + (sig != 0 ? sig : SIGHUP)
    }
}

extension ConsoleRunner {
    /// Notes for the status line, one after another. A loop, not `joined(separator:)`: its
    /// generic form resolves types at run time, which the console's start would pay.
    fileprivate static func sentences(_ notes: [String]) -> String {
        notes.dropFirst().reduce(notes.first ?? "") { $0 + " " + $1 }
    }
}
