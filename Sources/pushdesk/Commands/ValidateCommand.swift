import ArgumentParser
import Foundation
import PushDeskCore

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check every file and every rule of the store.",
        discussion:
            "Exit 0 when there is no error (warnings allowed), 1 when a file or a rule has an error, 2 on usage or I/O errors."
    )

    @Flag(help: "Print the findings as JSON.")
    var json = false

    @OptionGroup var storeOptions: StoreOptions

    nonisolated(unsafe) private static var keptUntilExit: StoreSnapshot?

    func run() throws {
        let store = try storeOptions.openStore()
        let snapshot = store.loadAll(readOnly: true)  // it saves nothing
        let findings = StoreValidation.findings(snapshot)
        if json {
            print(
                JSONValue.object([
                    ("store", .string(store.root.path)),
                    ("findings", .array(findings.map(\.json))),
                ]).pretty)
        } else {
            for f in findings { (f.severity == .error ? printError : { print($0) })(f.formatted) }
            let errors = findings.filter { $0.severity == .error }.count
            let warnings = findings.filter { $0.severity == .warning }.count
            print(
                "\(snapshot.services.count) services, \(snapshot.deliveries.count) deliveries: \(errors) errors, \(warnings) warnings"
            )
        }
        // The process ends right after: freeing thousands of records one by one would cost
        // more than the rules did (docs/PERFORMANCE.md); the system takes the memory back at exit.
        Self.keptUntilExit = snapshot
        if snapshot.errors.contains(where: { $0.kind == .io }) { throw Exit.usageOrIO }
        if findings.hasErrors { throw Exit.inputErrors }
    }
}
