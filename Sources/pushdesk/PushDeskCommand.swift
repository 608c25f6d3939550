import ArgumentParser
import Foundation
import PushDeskCore

@main
struct PushDeskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushdesk",
        abstract: "Edit mobile-application services and preview the exact APNs and FCM requests a delivery becomes.",
        discussion: """
            With no subcommand, opens the console on the store.
            The store is --store DIR, else $PUSHDESK_STORE, else $XDG_DATA_HOME/pushdesk \
            (~/.local/share/pushdesk), created with the demo content on first use.
            Exit codes: 0 success (warnings allowed), 1 the input has errors, 2 usage or I/O error.
            """,
        version: PushDesk.version,
        // Each subcommand lives in Commands/<Name>Command.swift; add new ones here.
        subcommands: [
            ConsoleCommand.self, InitCommand.self, ListCommand.self, ValidateCommand.self,
            CredentialsCommand.self,
            HandoffCommand.self, ExportPackageCommand.self, ImportPackageCommand.self,
            PreviewCommand.self, SendCommand.self, VariantsCommand.self, ChannelsCommand.self, ListenCommand.self,
            KeysCommand.self,
            GitSetupCommand.self,
            MergeDriverCommand.self,
        ],
        defaultSubcommand: ConsoleCommand.self
    )

    /// Runs the command, mapping the parser's usage failures (its exit 64) to exit code 2 (README.md).
    static func main() {
        // A write past `ulimit -f` must fail with EFBIG and take the "not saved" path (the
        // file on disk intact, the console and its recovery alive), not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        do {
            let args = Array(CommandLine.arguments.dropFirst())
            // git runs the merge driver once per record file of a merge: it skips the parser's
            // reflection (MergeDriverCommand documents it and handles every other spelling).
            if args.count == 5, args[0] == "merge-driver", !args.dropFirst().contains(where: { $0.hasPrefix("-") }) {
                MergeDriverCommand.runFast(base: args[1], ours: args[2], theirs: args[3], path: args[4])
            }
            if let start = ConsoleFastPath.command(args) {
                try ConsoleCommand.runConsole(store: start.store, theme: start.theme, mouse: start.mouse)
                return
            }
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(Exit.usageOrIO.rawValue)
            }
            exit(withError: error)
        }
    }
}

/// `--store DIR`, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store directory.", valueName: "DIR"))
    var store: String?
}
