import ArgumentParser
import Foundation
import PushDeskCore

struct ExportPackageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-package",
        abstract: "Write services as an Adobe Campaign package (nms:service and nms:mobileApp entities).",
        discussion: """
            Never exports a secret. Credential references (file paths, secret names, key, team and \
            project ids) are left out unless --include-credential-refs is given. docs/HANDOFF.md lists \
            what maps to Campaign's names and what is carried in pushdesk: attributes.
            """)

    @Argument(help: ArgumentHelp("The services to export.", valueName: "SERVICE"))
    var services: [String]

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("The package file to write (atomically); - for standard output.", valueName: "FILE"))
    var output: String

    @Flag(help: "Also export credential references (never secrets), for a move between PushDesk stores.")
    var includeCredentialRefs = false

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard !services.isEmpty else { throw ValidationError("name at least one service; see `pushdesk list`") }
    }

    func run() throws {
        for name in services where !Store.isValidName(name) {
            printError(
                "pushdesk: error: \"\(Escape.inline(name))\" is not a service name (\(Store.nameRule)); see `pushdesk list`"
            )
            throw Exit.usageOrIO
        }
        let store = try storeOptions.openStore()
        var loaded: [Service] = []
        for name in services {
            do {
                loaded.append(try store.load(Service.self, name))
            } catch let error as StoreError {
                printError(error.description)
                throw error.kind == .io ? Exit.usageOrIO : Exit.inputErrors
            }
        }
        let text: String
        do {
            text = try CampaignPackage.encode(loaded, includeCredentialRefs: includeCredentialRefs)
        } catch {
            printError("pushdesk: error: \(Escape.inline("\(error)", limit: 4096))")
            throw Exit.inputErrors
        }
        if output == "-" {
            // To a terminal or a pipe: C1, DEL, bidi and invisible characters as character
            // references (the same XML); a file written with -o FILE keeps them as written.
            print(Escape.xml(text), terminator: "")
            return
        }
        do {
            try AtomicFile.write(Array(text.utf8), to: URL(fileURLWithPath: output))
        } catch let error as AtomicWriteError {
            printError(
                "\(Escape.inline(output)): error: \(error.message); check that the folder exists and is writable")
            throw Exit.usageOrIO
        }
        let apps = loaded.reduce(0) { $0 + $1.apps.count }
        printError(
            "pushdesk: wrote \(loaded.count) services and \(apps) apps to \(Escape.inline(output))"
                + (includeCredentialRefs ? " (with credential references)" : " (without credentials)"))
    }
}
