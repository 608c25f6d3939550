import ArgumentParser
import Foundation
import PushDeskCore
import PushDeskTUI

struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console", abstract: "Open the console (the default).",
        discussion: """
            Keys: docs/KEYS.md (or ? inside the console). Themes: docs/THEMES.md.
            Environment: NO_COLOR (monochrome), PUSHDESK_THEME, PUSHDESK_THEMES (theme directory), \
            PUSHDESK_ESCDELAY (Esc delay in ms, default 25), PUSHDESK_RECOVERY_INTERVAL (seconds of unsaved \
            work between writes of the recovery file, default 30; docs/RELIABILITY.md).
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Colour theme: default, light, high-contrast, monochrome, or a file in $PUSHDESK_THEMES.", valueName: "NAME"
        ))
    var theme: String?

    @Flag(
        name: .long,
        help: "Mouse: click selects rows, fields and tabs, the wheel scrolls (off by default; also PUSHDESK_MOUSE=1).")
    var mouse = false

    func run() throws {
        try Self.runConsole(store: storeOptions.store, theme: theme, mouse: mouse)
    }

    /// The console itself, also called by `ConsoleFastPath` without building this command.
    static func runConsole(store storePath: String?, theme: String?, mouse: Bool, started: Date = Date()) throws {
        // Refused rather than redirected to /dev/tty: `pushdesk | less` or `pushdesk > log`
        // would otherwise fill the pipe or file with escape sequences (docs/CONSOLE.md).
        guard isatty(0) == 1, isatty(1) == 1 else {
            let which =
                isatty(0) != 1
                ? "standard input is not a terminal (redirected from a file or a pipe?)"
                : "standard output is not a terminal (piped into another command or redirected to a file?)"
            printError(
                "pushdesk: error: the console needs a terminal: \(which); run it without redirection, or in scripts use `pushdesk list` or `pushdesk validate`"
            )
            throw Exit.usageOrIO
        }
        let store = try StoreOptions.openStore(store: storePath)
        var options = ConsoleRunner.Options(theme: theme, startedAt: started)
        options.mouse = mouse
        let status: Int32
        do {
            let outcome = try MainActor.assumeIsolated { try ConsoleRunner.run(store: store, options: options) }
            status = outcome.status
            // Copy-outs asked for "on exit": printed after the terminal is restored.
            if !outcome.output.isEmpty { print(outcome.output, terminator: "") }
        } catch {
            printError("pushdesk: error: \(Escape.inline("\(error)", limit: 4096))")
            throw Exit.usageOrIO
        }
        // Stopped by a signal (drafts are in the recovery file): 128 + the signal, as a shell expects.
        if status != 0 { throw ExitCode(status) }
    }
}
