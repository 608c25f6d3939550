import ArgumentParser
import PushDeskCore

struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console", abstract: "Open the console (the default).")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        print("pushdesk: the console is not built yet; use `pushdesk list` or `pushdesk validate`.")
    }
}
