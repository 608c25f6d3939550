import ArgumentParser
import Foundation
import PushDeskCore

struct ImportPackageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-package",
        abstract: "Read the services of an Adobe Campaign package into the store.",
        discussion: """
            Reads nms:service (type 40) and nms:mobileApp entities; other Campaign data is skipped \
            with a warning. An existing service is only replaced with --replace. Nothing is written \
            when the package has an error. Run `pushdesk validate` afterwards.
            """)

    @Argument(help: ArgumentHelp("The package file.", valueName: "FILE"))
    var file: String

    @Flag(help: "Replace services that already exist in the store.")
    var replace = false

    @Flag(help: "Check the package and show what would be imported, without writing.")
    var dryRun = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let data: Data
        do {
            // A FIFO or a device is refused, not read (SafeFile); a directory says so.
            guard let d = try SafeFile.readFile(file, maxBytes: 64 << 20, shownAs: file) else {
                printError("\(Escape.inline(file)): error: cannot read the package: no such file")
                throw Exit.usageOrIO
            }
            data = d
        } catch let r as SafeFile.Refusal {
            printError(
                "\(Escape.inline(file)): error: cannot read the package: \(Escape.inline(r.message, limit: 4096))")
            throw Exit.usageOrIO
        }
        let contents: CampaignPackage.Contents
        do {
            contents = try CampaignPackage.decode(data, file: file)
        } catch let error as StoreError {
            printError(error.description)
            throw Exit.inputErrors
        }
        for note in contents.notes { printError(note.formatted) }
        if contents.services.isEmpty {
            printError(
                "\(Escape.inline(file)): error: the package holds no mobile application service (nms:service with type 40)"
            )
            throw Exit.inputErrors
        }
        let store = try storeOptions.openStore()
        if dryRun {
            try importServices(contents, into: store)
        } else {
            try withStoreLock(store, command: "import-package") { try importServices(contents, into: store) }
        }
    }

    private func importServices(_ contents: CampaignPackage.Contents, into store: Store) throws {
        let existing = Set(try store.names(Service.self))
        let clashes = contents.services.map(\.name).filter(existing.contains)
        if !clashes.isEmpty && !replace {
            printError(
                "pushdesk: error: the store already has \(clashes.map { Service.path($0) }.joined(separator: ", ")); pass --replace to overwrite"
            )
            throw Exit.usageOrIO
        }
        for s in contents.services {
            let verb = existing.contains(s.name) ? "replace" : "add"
            print("\(dryRun ? "would " : "")\(verb) \(Service.path(s.name)) (\(s.apps.count) apps)")
            if dryRun { continue }
            do {
                try store.save(s)
            } catch {
                printError("\(Service.path(s.name)): error: \(Escape.inline("\(error)", limit: 4096))")
                throw Exit.usageOrIO
            }
        }
    }
}
