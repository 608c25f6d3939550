import ArgumentParser
import Foundation
import PushDeskCore

extension HandoffFormat: ExpressibleByArgument {}

struct HandoffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handoff",
        abstract: "Print the developer integration sheet of a service, with ready-to-paste SDK code.",
        discussion: """
            One section per app: integration key, marketing and tracking URLs, bundle id or package \
            name, environment, variables, subscription parameters, sounds, connector, credential kind \
            (never a secret), and the Android (Java) and iOS (Objective-C) SDK code filled with these values; \
            then the languages the service's deliveries are written in and the localization keys they send, \
            as Localizable.strings and strings.xml lines.
            The format is --format, else the extension of -o (.md, .html, .json), else md.
            """)

    @Argument(help: ArgumentHelp("The service name.", valueName: "SERVICE"))
    var service: String

    @Option(help: ArgumentHelp("Only the app with this integration key.", valueName: "KEY"))
    var app: String?

    @Option(
        help: ArgumentHelp(
            "Add \"Test against PushDesk\": the SDK settings pointing a test build at `pushdesk listen` on HOST:PORT.",
            valueName: "HOST:PORT"))
    var listen: String?

    @Option(help: ArgumentHelp("md, html or json.", valueName: "FORMAT"))
    var format: HandoffFormat?

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Write the sheet to FILE (atomically) instead of standard output.", valueName: "FILE"))
    var output: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard Store.isValidName(service) else {
            printError(
                "pushdesk: error: \"\(Escape.inline(service))\" is not a service name (\(Store.nameRule)); see `pushdesk list`"
            )
            throw Exit.usageOrIO
        }
        let store = try storeOptions.openStore()
        let loaded: Service
        do {
            loaded = try store.load(Service.self, service)
        } catch let error as StoreError {
            printError(error.description)
            throw error.kind == .io ? Exit.usageOrIO : Exit.inputErrors
        }
        let format = self.format ?? output.flatMap { HandoffFormat(fileName: $0) } ?? .md
        if let listen, !Self.isHostPort(listen) {
            printError(
                "pushdesk: error: --listen \"\(Escape.inline(listen))\" is not HOST:PORT (the address the app reaches pushdesk listen at, no scheme)"
            )
            throw Exit.usageOrIO
        }
        do {
            var sheet = try HandoffSheet(service: loaded, appKey: app)
            sheet.listen = listen.map(HandoffListen.init(address:))
            // The deliveries that load (one that does not is `validate`'s to report).
            sheet.localization = HandoffLocalization(
                service: loaded.name, platforms: sheet.apps.map(\.platform),
                deliveries: store.loadAll(readOnly: true).deliveries)
            if let output, output != "-" {
                let url = URL(fileURLWithPath: output)
                try AtomicFile.write(Array(sheet.rendered(as: format).utf8), to: url)
                printError(
                    "pushdesk: wrote the \(format.rawValue) sheet of \(Escape.inline(service)) to \(Escape.inline(url.path))"
                )
            } else {
                print(sheet.rendered(as: format), terminator: "")
            }
        } catch let error as HandoffError {
            printError("pushdesk: error: \(Escape.inline("\(error)", limit: 4096))")
            throw Exit.usageOrIO
        } catch let error as AtomicWriteError {
            printError(
                "\(Escape.inline(output ?? "")): error: \(error.message); check that the folder exists and is writable")
            throw Exit.usageOrIO
        }
    }

    /// `host:port`, `[v6]:port`: no scheme, no path, a port.
    static func isHostPort(_ s: String) -> Bool {
        guard let colon = s.lastIndex(of: ":"), let port = Int(s[s.index(after: colon)...]), (1...65535).contains(port)
        else { return false }
        let host = s[..<colon]
        return !host.isEmpty && !host.contains("/")
            && !host.unicodeScalars.contains { $0.value <= 0x20 || $0.value >= 0x7F }
    }
}
