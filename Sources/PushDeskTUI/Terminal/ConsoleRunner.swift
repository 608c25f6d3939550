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
        public init(theme: String?, environment: [String: String] = ProcessInfo.processInfo.environment, startedAt: Date = Date()) {
            self.theme = theme; self.environment = environment; self.startedAt = startedAt
        }
    }

    /// Runs the console until the operator quits. The terminal is restored on every way
    /// out: normal quit, a thrown error (defer), a signal (TerminalRestore's handlers).
    /// Returns what the operator asked to print on exit (the composer's copy out), for the
    /// caller to write to standard output once the terminal is restored.
    @discardableResult
    public static func run(store: Store, options: Options) throws -> String {
        let env = options.environment
        // NO_COLOR (https://no-color.org): present and not empty → no colours at all.
        let noColor = !(env["NO_COLOR"] ?? "").isEmpty
        let requested = options.theme ?? env["PUSHDESK_THEME"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let dirs = ThemeLoader.themeDirectories(environment: env)
        var (theme, themeNote) = ThemeLoader.loadOrDefault(named: noColor ? "monochrome" : requested, directories: dirs)

        let terminal = Terminal()
        try terminal.start(noColor: noColor, mouse: options.mouse || env["PUSHDESK_MOUSE"] == "1", environment: env)
        defer { terminal.stop() }
        if terminal.colorMode == .none && theme.name != "monochrome" {
            theme = (try? ThemeLoader.load(named: "monochrome", directories: dirs)) ?? theme
        }
        terminal.apply(theme: theme)

        let app = ConsoleApp(store: .open(store), themeName: theme.name,
                             availableThemes: ThemeLoader.available(directories: dirs))
        // A broken theme is worth a dialog (it says what and where); the rest fits the status line.
        if let themeNote { app.dialog = .message(title: "Theme not used", message: themeNote) }
        app.message = [terminal.termFallbackNote, noColor ? "NO_COLOR is set: monochrome." : nil]
            .compactMap { $0 }.joined(separator: " ").nilIfEmpty
        var first = true
        while !app.quitRequested {
            let (w, h) = terminal.size
            let buf = app.render(width: w, height: h, asciiOnly: !terminal.utf8)
            terminal.present(buf, fullRedraw: app.fullRedrawRequested)
            app.fullRedrawRequested = false
            if first {
                first = false
                if let path = env["PUSHDESK_FRAME_LOG"], !path.isEmpty {
                    let ms = Date().timeIntervalSince(options.startedAt) * 1000
                    try? String(format: "first-frame-ms %.1f\n", ms).write(toFile: path, atomically: true, encoding: .utf8)
                }
            }
            guard let key = terminal.readKey() else {
                // The terminal is gone (hang-up): unsaved drafts cannot be asked about; stop.
                break
            }
            app.handle(key)
            if let name = app.pendingTheme {
                app.pendingTheme = nil
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
        return app.exitOutput.joined(separator: "\n")
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
