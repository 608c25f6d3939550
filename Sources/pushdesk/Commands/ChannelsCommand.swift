import ArgumentParser
import Foundation
import PushDeskCore

#if canImport(Glibc)
    import Glibc
#endif

/// `pushdesk channels …`: an iOS app's broadcast channels at Apple and in the store (docs/SENDING.md).
struct ChannelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "List, create and delete an iOS app's broadcast channels (Live Activities) at Apple.",
        discussion: """
            Calls Apple's channel management API with the app's credential on \
            PUSHDESK_APNS_MANAGE_SANDBOX_URL or PUSHDESK_APNS_MANAGE_PRODUCTION_URL, by the app's \
            environment. create and delete also update the app's <channels> in the service file. \
            Exit 0 done (warnings allowed), 1 Apple refused the request (or a channel.* error), \
            2 on usage or I/O errors or when no answer came.
            """,
        subcommands: [ChannelsListCommand.self, ChannelsCreateCommand.self, ChannelsDeleteCommand.self])
}

/// `--app KEY`, `--store DIR`, `--json`: what every channels subcommand takes.
struct ChannelsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The iOS app (integration key).", valueName: "KEY"))
    var app: String

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @OptionGroup var storeOptions: StoreOptions

    /// The store, the app's service (as on disk) and the app.
    func find() throws -> (Store, Service, IOSApp) {
        let store = try storeOptions.openStore()
        let snapshot = store.loadAll(readOnly: true)
        guard let service = snapshot.services.first(where: { $0.app(integrationKey: app) != nil }),
            let found = service.app(integrationKey: app)
        else {
            for e in snapshot.errors where e.file.hasPrefix("services/") { printError(e.description) }
            printError("error: no app of the store has the integration key \"\(Escape.inline(app))\"")
            throw Exit.usageOrIO
        }
        guard case .ios(let ios) = found else {
            printError(
                "error: \(Escape.inline(app)) is an Android app; broadcast channels belong to iOS apps (Live Activities)"
            )
            throw Exit.usageOrIO
        }
        return (store, service, ios)
    }

    /// Prints Apple's refusal or the missing answer (text form) and exits as `send` does (docs/SENDING.md).
    func finish(_ a: ChannelAnswer, document: JSONValue, text: () -> Void) throws {
        if json {
            print(document.pretty)
        } else if a.outcome == .sent {
            text()
        } else {
            var line = "\(a.outcome.rawValue)"
            if let s = a.status { line += " \(s)" }
            if let r = a.reason { line += " \(Escape.inline(r))" }
            if let id = a.apnsId { line += "  apns-request-id \(Escape.inline(id))" }
            printError(line)
            if let hint = a.hint { printError("  hint: \(Escape.inline(hint, limit: 1000))") }
        }
        if a.exitCode != 0 { throw ExitCode(a.exitCode) }
    }
}

extension ChannelAnswer {
    /// The answer's fields shared by the three documents.
    func fields(app: String) -> [(String, JSONValue)] {
        func s(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        return [
            ("app", .string(app)), ("endpoint", .string(endpoint)), ("outcome", .string(outcome.rawValue)),
            ("status", status.map(JSONValue.int) ?? .null), ("reason", s(reason)), ("hint", s(hint)),
            ("apnsId", s(apnsId)), ("attempts", .int(attempts)),
        ]
    }
}

extension BroadcastChannel {
    var json: JSONValue {
        .object([
            ("id", .string(id)), ("label", label.isEmpty ? .null : .string(label)),
            ("storage", .string(storage.rawValue)),
        ])
    }
}

struct ChannelsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "Apple's channels of the app, with the store's labels; flags the store's channels Apple does not list.")

    @OptionGroup var options: ChannelsOptions

    func run() throws {
        let (store, service, app) = try options.find()
        let session = try openPushSession(store, progress: true)
        let answer = session.manageChannels(.list, app: app)
        session.close()
        let file = Service.path(service.name)
        let index = service.apps.firstIndex { $0.integrationKey == app.integrationKey } ?? 0
        var findings: [Finding] = []
        if answer.outcome == .sent {
            for (j, c) in app.channels.enumerated() where !answer.channels.contains(c.id) {
                findings.append(
                    ChannelRules.notListed(c, app: app, index: index, channel: j, file: file))
            }
            findings = store.loadAll(readOnly: true).positioned(findings)
        }
        let rows: [JSONValue] = answer.channels.map { id in
            let known = app.channels.first { $0.id == id }
            return .object([
                ("id", .string(id)), ("label", known.map { .string($0.label) } ?? .null),
                ("storage", known.map { .string($0.storage.rawValue) } ?? .null),
            ])
        }
        let doc = JSONValue.object(
            answer.fields(app: app.integrationKey) + [
                ("channels", .array(rows)), ("diagnostics", .array(findings.map(\.json))),
            ])
        try options.finish(answer, document: doc) {
            if answer.channels.isEmpty { print("no channels at Apple for \(Escape.inline(app.bundleId))") }
            for id in answer.channels {
                let known = app.channels.first { $0.id == id }
                let label =
                    known.map { $0.label.isEmpty ? "(no label)" : Escape.inline($0.label) } ?? "(not in the store)"
                print(
                    "\(Escape.inline(id, limit: 200))  \(label)\(known.map { "  storage \($0.storage.rawValue)" } ?? "")"
                )
            }
            for f in findings { printError(f.formatted) }
        }
    }
}

struct ChannelsCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a channel at Apple and save it into the app's <channels> in the service file.")

    @OptionGroup var options: ChannelsOptions

    @Option(help: ArgumentHelp("The channel's label in the store (unique within the app).", valueName: "L"))
    var label: String

    @Option(
        help: ArgumentHelp("Apple's message storage policy: none (0) or mostRecent (1).", valueName: "none|mostRecent"))
    var storage: String = ChannelStorage.none.rawValue

    func validate() throws {
        guard ChannelStorage(rawValue: storage) != nil else { throw ValidationError("--storage is none or mostRecent") }
        guard !label.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--label is empty") }
    }

    func run() throws {
        let (store, found, _) = try options.find()
        // The lock first: the channel Apple makes must reach the file, not wait on a console.
        try withStoreLock(store, command: "pushdesk channels create") {
            let (service, fingerprint, index, current) = try loadIOSApp(store, found.name, options.app)
            var app = current
            if let same = app.channels.firstIndex(where: { $0.label == label }) {
                let f = store.loadAll(readOnly: true).positioned([
                    ChannelRules.labelDuplicate.finding(
                        "the app already has a channel labelled “\(Escape.inline(label))” (\(Escape.inline(app.channels[same].id))); pick another label",
                        file: Service.path(service.name),
                        field: FieldPath.app(index).appending("channels").at(same).appending("label"))
                ])
                printError(f[0].formatted)
                throw Exit.inputErrors
            }
            let policy = ChannelStorage(rawValue: storage) ?? .none
            let session = try openPushSession(store, progress: true)
            var answer = session.manageChannels(.create(policy), app: app)
            session.close()
            var created: BroadcastChannel?
            if answer.outcome == .sent {
                if let id = answer.channelId, BroadcastChannel.isValidId(id) {
                    created = BroadcastChannel(id: id, label: label, storage: policy)
                } else {
                    // Never write what Apple's answer holds unless it is a channel id.
                    answer.outcome = .failed
                    answer.reason = "channel.id"
                    answer.hint =
                        "Apple answered 201 without a base64 channel id (apns-channel-id: \(Escape.inline(answer.channelId ?? "none", limit: 100))); nothing was saved — run pushdesk channels list"
                }
            }
            if let created {
                app.channels.append(created)
                try saveIOSApp(app, at: index, of: service, fingerprint, store) { error in
                    "channel \(Escape.inline(created.id)) was created at Apple but not saved: \(error); add it by hand or delete it with pushdesk channels delete --id"
                }
            }
            let doc = JSONValue.object(
                answer.fields(app: app.integrationKey) + [("channel", created?.json ?? .null)])
            try options.finish(answer, document: doc) {
                guard let created else { return }
                print(
                    "created \(Escape.inline(created.id)) “\(Escape.inline(created.label))” storage \(created.storage.rawValue), saved in \(Service.path(service.name))"
                )
            }
        }
    }
}

struct ChannelsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a channel at Apple and remove it from the service file.",
        discussion: """
            Asks first on a terminal; without a terminal on stdin it refuses unless --yes. \
            Devices subscribed to the channel stop getting its updates.
            """)

    @OptionGroup var options: ChannelsOptions

    @Option(help: ArgumentHelp("The channel's label in the store.", valueName: "L"))
    var label: String?

    @Option(help: ArgumentHelp("The channel's id (Apple's; need not be in the store).", valueName: "ID"))
    var id: String?

    @Flag(help: "Delete without asking.")
    var yes = false

    func validate() throws {
        if (label == nil) == (id == nil) { throw ValidationError("give --label L or --id ID") }
    }

    func run() throws {
        let (store, found, _) = try options.find()
        try withStoreLock(store, command: "pushdesk channels delete") {
            let (service, fingerprint, index, current) = try loadIOSApp(store, found.name, options.app)
            var app = current
            let stored = app.channels.first { $0.label == label || $0.id == id }
            guard let channelId = stored?.id ?? id else {
                printError(
                    "error: \(Escape.inline(app.label)) has no channel labelled “\(Escape.inline(label ?? ""))”; pushdesk channels list --app \(Escape.inline(options.app)) shows them"
                )
                throw Exit.usageOrIO
            }
            let named =
                "channel \(stored.map { $0.label.isEmpty ? "" : "“\(Escape.inline($0.label))” " } ?? "")(\(Escape.inline(channelId)))"
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    printError(
                        "error: deleting \(named) asks first, and stdin is not a terminal; add --yes to delete without asking"
                    )
                    throw Exit.usageOrIO
                }
                FileHandle.standardError.write(
                    Data(
                        "Delete \(named) of \(Escape.inline(app.label)) at Apple? Subscribed devices stop getting its updates. [y/N] "
                            .utf8))
                let reply = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
                guard reply == "y" || reply == "yes" else {
                    printError("not deleted")
                    throw Exit.usageOrIO
                }
            }
            let session = try openPushSession(store, progress: true)
            let answer = session.manageChannels(.delete(id: channelId), app: app)
            session.close()
            if answer.outcome == .sent, stored != nil {
                app.channels.removeAll { $0.id == channelId }
                try saveIOSApp(app, at: index, of: service, fingerprint, store) { error in
                    "\(named) was deleted at Apple but is still in the file: \(error); remove it by hand"
                }
            }
            let doc = JSONValue.object(
                answer.fields(app: app.integrationKey) + [
                    ("channel", stored?.json ?? .object([("id", .string(channelId))]))
                ])
            try options.finish(answer, document: doc) {
                print(
                    "deleted \(named)\(stored == nil ? " (it was not in the store)" : ", removed from \(Service.path(service.name))")"
                )
            }
        }
    }
}

/// The service as on disk now (under the lock), with the fingerprint its save checks, and the
/// position and value of the iOS app `key`, which may have left the file since `find`.
private func loadIOSApp(_ store: Store, _ name: String, _ key: String) throws -> (
    Service, FileFingerprint, Int, IOSApp
) {
    let (service, _, fingerprint) = try loadService(store, name)
    guard let index = service.apps.firstIndex(where: { $0.integrationKey == key }),
        case .ios(let app) = service.apps[index]
    else {
        printError("error: the app \"\(Escape.inline(key))\" left the service file meanwhile")
        throw Exit.usageOrIO
    }
    return (service, fingerprint, index, app)
}

/// Writes the iOS app back into its service file, if the file is still as it was read; when
/// it cannot, says what Apple already did (`lost`, given the escaped error) and exits 2.
private func saveIOSApp(
    _ app: IOSApp, at index: Int, of service: Service, _ fingerprint: FileFingerprint, _ store: Store,
    lost: (String) -> String
) throws {
    var updated = service
    updated.apps[index] = .ios(app)
    do { try store.save(updated, baseline: .read(fingerprint)) } catch {
        printError("\(Service.path(service.name)): error: " + lost(Escape.inline("\(error)", limit: 1000)))
        throw Exit.usageOrIO
    }
}

/// The service as on disk now, with the fingerprint its save checks.
private func loadService(_ store: Store, _ name: String) throws -> (Service, SourceMap, FileFingerprint) {
    do { return try store.loadRecord(Service.self, name) } catch let e as StoreError {
        printError(e.description)
        throw e.kind == .io ? Exit.usageOrIO : Exit.inputErrors
    }
}
