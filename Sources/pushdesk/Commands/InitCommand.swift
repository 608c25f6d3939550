import ArgumentParser
import Foundation
import PushDeskCore

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a store (services/, deliveries/, profiles/), optionally with the demo content.")

    @Argument(
        help: ArgumentHelp(
            "Directory of the new store (default: the store --store or the default names).", valueName: "DIR"))
    var directory: String?

    @Flag(help: "Fill it with the Neotrips demo: an iOS pair, an Android app and two deliveries.")
    var demo = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let url = directory.map { URL(fileURLWithPath: $0) } ?? storeOptions.resolvedURL
        let fm = FileManager.default
        if fm.fileExists(atPath: url.appendingPathComponent("services").path) {
            printError("\(url.path): error: a store already exists here; nothing was changed")
            throw Exit.usageOrIO
        }
        do {
            for folder in ["services", "deliveries", "profiles"] {
                try fm.createDirectory(at: url.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            if demo { try DemoStore.write(to: url) }
        } catch {
            printError("\(url.path): error: cannot create the store: \(error)")
            throw Exit.usageOrIO
        }
        print("Created \(demo ? "the demo store" : "an empty store") at \(url.path)")
    }
}
