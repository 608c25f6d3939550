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
        let shown = Escape.inline(url.path, limit: 4096)
        if fm.fileExists(atPath: url.appendingPathComponent("services").path) {
            printError("\(shown): error: a store already exists here; nothing was changed")
            throw Exit.usageOrIO
        }
        if let mode = SafeFile.lstatMode(url.path), (mode & S_IFMT) != S_IFDIR, (mode & S_IFMT) != S_IFLNK {
            printError(
                "\(shown): error: cannot create the store: it is \(SafeFile.kind(mode)); give a new or empty directory")
            throw Exit.usageOrIO
        }
        do {
            for folder in ["services", "deliveries", "profiles"] {
                try fm.createDirectory(at: url.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            if demo { try DemoStore.write(to: url) }
        } catch {
            // Foundation's error text names NSCocoaErrorDomain and codes; say what failed instead.
            let why =
                (error as? StoreError).map { "\($0.file): \($0.message)" }
                ?? (error as? CocoaError).flatMap {
                    ($0.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription
                }
            printError(
                "\(shown): error: cannot create the store\(why.map { ": " + $0 } ?? ""); check that the path is a writable directory"
            )
            throw Exit.usageOrIO
        }
        print("Created \(demo ? "the demo store" : "an empty store") at \(shown)")
    }
}
