import ArgumentParser
import Foundation
import PushDeskCore

/// `pushdesk variants export|import`: a delivery's languages as a translators' CSV file
/// (docs/FORMATS.md, "Translators' files").
struct VariantsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "variants",
        abstract: "Export a delivery's languages as a translators' CSV file, or import one.",
        subcommands: [VariantsExportCommand.self, VariantsImportCommand.self])
}

struct VariantsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the delivery's default and variants as CSV to standard output.",
        discussion: """
            CRLF, UTF-8 without a BOM; a cell a spreadsheet would take for a formula starts \
            with '. Exit 0, 1 when the delivery file has an error, 2 on usage or I/O errors.
            """)

    @Argument(help: ArgumentHelp("Name of the delivery (deliveries/NAME.xml).", valueName: "DELIVERY"))
    var delivery: String

    @Option(help: ArgumentHelp("pushdesk (default) or campaign-standard.", valueName: "FORMAT"))
    var format: String = VariantsCSVFormat.pushdesk.rawValue

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard let csvFormat = VariantsCSVFormat(rawValue: format.lowercased()) else {
            printError(
                "error: --format is pushdesk or campaign-standard, not \"\(Escape.inline(format))\"")
            throw Exit.usageOrIO
        }
        let store = try storeOptions.openStore()
        let (d, _, _) = try loadDelivery(store, delivery)
        FileHandle.standardOutput.write(Data(VariantsCSV.export(d, format: csvFormat).utf8))
    }
}

struct VariantsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a translators' CSV file into the delivery's default and variants.",
        discussion: """
            The header decides the format (pushdesk or campaign-standard). An empty cell clears \
            that text or value; a column the file lacks is kept. One save of the delivery, under \
            the store's lock, refused if the file changed since it was read. Exit 0 (warnings \
            allowed), 1 when the file or the result has an error (nothing written), 2 on usage \
            or I/O errors, a locked store or a conflict.
            """)

    @Argument(help: ArgumentHelp("Name of the delivery (deliveries/NAME.xml).", valueName: "DELIVERY"))
    var delivery: String

    @Argument(help: ArgumentHelp("The CSV file; - reads standard input.", valueName: "FILE"))
    var file: String

    @Flag(help: "Also remove the variants the file does not name.")
    var replace = false

    @Flag(help: "Show what would be added, changed and removed, and write nothing.")
    var dryRun = false

    @Flag(help: "Print the result as JSON (docs/FORMATS.md).")
    var json = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.openStore()
        // The delivery is read first: what the save checks the file against.
        let (d, _, fingerprint) = try loadDelivery(store, delivery)
        var plan: VariantsImportPlan
        switch try readCSV() {
        case .bytes(let data): plan = VariantsCSV.plan(data, file: file, onto: d, replace: replace)
        case .tooLarge:
            return try finish(VariantsImportPlan.tooLarge(file, onto: d), saved: false, store: store)
        }
        if plan.result != nil, let service = try? store.load(Service.self, d.service) {
            plan = plan.checked(service: service, profiles: profiles(store), now: Date())
        }
        var saved = false
        if let result = plan.result, !plan.isEmpty, !dryRun {
            let path = Delivery.path(d.name)
            do {
                _ = try withStoreLock(store, command: "pushdesk variants import") {
                    try store.save(result, baseline: .read(fingerprint))
                }
            } catch let e as ExitCode {
                throw e
            } catch let e as StoreConflict {
                printError(e.description)
                throw Exit.usageOrIO
            } catch let e as StoreError where e.kind != .io {
                // A value XML cannot store (a control character): the file's error, nothing written.
                printError(e.description)
                throw Exit.inputErrors
            } catch {
                printError("\(path): error: not imported: \(Escape.inline("\(error)", limit: 4096))")
                throw Exit.usageOrIO
            }
            saved = true
        }
        try finish(plan, saved: saved, store: store)
    }

    private func finish(_ plan: VariantsImportPlan, saved: Bool, store: Store) throws {
        let path = Delivery.path(delivery)
        // After a save, or when nothing changed, the file on disk is the result.
        let onDisk = saved || (plan.result != nil && plan.isEmpty)
        let findings = onDisk ? positioned(plan.findings, store: store) : plan.findings
        if json {
            print(plan.json(delivery: delivery, file: file, saved: saved, positioned: findings).pretty)
        } else {
            for f in findings { (f.severity == .error ? printError : { print($0) })(f.formatted) }
            for c in plan.changes { print("  " + Escape.inline(c.line, limit: 4096)) }
            let counts = VariantsImportChange.Kind.allCases.map { kind in
                "\(plan.changes.filter { $0.kind == kind }.count) \(kind.rawValue)"
            }
            if plan.result == nil {
                printError("\(path): not imported: nothing was written")
            } else {
                let outcome =
                    plan.isEmpty ? "no change: nothing was written" : dryRun ? "dry run: nothing was written" : "saved"
                print("\(path): \(counts.joined(separator: ", ")); \(outcome)")
            }
        }
        if plan.result == nil { throw Exit.inputErrors }
    }

    /// The result's findings with their line:column in the file on disk.
    private func positioned(_ findings: [Finding], store: Store) -> [Finding] {
        guard !findings.isEmpty else { return findings }
        var snapshot = StoreSnapshot()
        snapshot.sourceMaps[Delivery.path(delivery)] = store.sourceMap(Delivery.self, delivery)
        return snapshot.positioned(findings)
    }

    private enum Input {
        case bytes(Data)
        case tooLarge
    }

    /// The file, or standard input for `-`: at most `CSVTable.maxBytes` (more is `csv.size`).
    /// A FIFO or a device is refused by name, never read (SafeFile).
    private func readCSV() throws -> Input {
        let shown = Escape.inline(file, limit: 4096)
        do {
            if file == "-" {
                return .bytes(Data(try SafeFile.readAll(0, maxBytes: CSVTable.maxBytes, shownAs: "-")))
            }
            guard let data = try SafeFile.readFile(file, maxBytes: CSVTable.maxBytes, shownAs: file) else {
                printError("\(shown): error: cannot read the CSV file: no such file")
                throw Exit.usageOrIO
            }
            return .bytes(data)
        } catch let r as SafeFile.Refusal where r.isTooLarge {
            return .tooLarge
        } catch let r as SafeFile.Refusal {
            printError("\(shown): error: cannot read the CSV file: \(Escape.inline(r.message, limit: 4096))")
            throw Exit.usageOrIO
        }
    }

    /// The store's profiles, for `personalization.unknown-field` as `validate` checks it.
    private func profiles(_ store: Store) -> [Profile] {
        ((try? store.names(Profile.self)) ?? []).compactMap { try? store.load(Profile.self, $0) }
    }
}

/// The delivery as on disk now, with the fingerprint a save checks; exit 2 when it is not
/// there or cannot be read, 1 when its file has an error.
private func loadDelivery(_ store: Store, _ name: String) throws -> (Delivery, SourceMap, FileFingerprint) {
    guard Store.isValidName(name) else {
        printError("error: \"\(Escape.inline(name))\" is not a delivery name (\(Store.nameRule))")
        throw Exit.usageOrIO
    }
    do { return try store.loadRecord(Delivery.self, name) } catch let e as StoreError {
        printError(e.description)
        throw e.kind == .io ? Exit.usageOrIO : Exit.inputErrors
    }
}
