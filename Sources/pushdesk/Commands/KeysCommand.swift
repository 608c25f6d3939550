import ArgumentParser
import PushDeskTUI

/// Prints the console's key bindings from the one key registry (docs/KEYS.md is this output).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "List the console's key bindings (Markdown, as in docs/KEYS.md).")

    @Flag(name: .long, help: "Markdown (the default and only format).")
    var markdown = false

    func run() throws { print(KeyRegistry.markdown(), terminator: "") }
}
