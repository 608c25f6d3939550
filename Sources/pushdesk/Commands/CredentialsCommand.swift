import ArgumentParser
import Foundation
import PushDeskCore

#if canImport(Glibc)
    import Glibc
#endif

/// `pushdesk credentials …`: read and check the apps' credentials, and set secrets.
struct CredentialsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials",
        abstract: "Check APNs certificates and keys and FCM service accounts; set secrets.",
        subcommands: [CredentialsCheckCommand.self, CredentialsCheckJWTCommand.self, CredentialsSetSecretCommand.self])
}

struct CredentialsCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Read every app's credentials and report what they are and what is wrong.",
        discussion: """
            Certificates (PEM, DER, .p12): subject, issuer, serial, SHA-256, validity, topics, \
            environment. Token keys (.p8): public-key fingerprint and the provider token, shown \
            as `bearer <first 12 chars>…`. Service accounts: project, client e-mail, key. \
            No secret is ever printed. Exit 0 without errors (warnings allowed), 1 when a \
            credential or a file has an error, 2 on usage or I/O errors.
            """)

    @Argument(help: "Only this service (default: every service of the store).")
    var service: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(
        help:
            "Also ask the service: dns, tcp, tls (ALPN h2), then one request with the credential; stops at the first failure."
    )
    var online = false

    @Option(help: ArgumentHelp("Only the app with this integration key.", valueName: "KEY"))
    var app: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.openStore()
        var snapshot = store.loadAll()
        var loadErrors = snapshot.errors
        if let service {
            guard Store.isValidName(service) else {
                printError("\(Escape.inline(service)): error: not a service name (\(Store.nameRule))")
                throw Exit.usageOrIO
            }
            let path = Service.path(service)
            loadErrors = loadErrors.filter { $0.file == path }
            snapshot.services = snapshot.services.filter { $0.name == service }
            if snapshot.services.isEmpty && loadErrors.isEmpty {
                printError(
                    "\(path): error: no service named \(Escape.inline(service)); `pushdesk list` shows the services")
                throw Exit.usageOrIO
            }
        }
        let now = Date()
        let reports = snapshot.services.flatMap { s in
            CredentialChecker.check(service: s, storeRoot: store.root, now: now).map { r -> CredentialReport in
                var r = r
                r.findings = snapshot.positioned(r.findings)
                return r
            }
        }
        let chosen = app.map { key in reports.filter { $0.app == key } } ?? reports
        if let app, chosen.isEmpty {
            printError("error: no app with integration key \"\(Escape.inline(app))\"; `pushdesk list` shows the keys")
            throw Exit.usageOrIO
        }
        let findings = chosen.flatMap(\.findings)
        let onlineSteps = online ? try checkOnline(chosen, snapshot: snapshot, store: store) : [:]
        let onlineFailed = onlineSteps.values.contains { $0.contains { !$0.ok } }

        if json {
            print(
                JSONValue.object([
                    ("store", .string(store.root.path)),
                    (
                        "reports",
                        .array(
                            chosen.map { r in
                                guard online, case .object(var m) = r.json else { return r.json }
                                m.append(("online", .array((onlineSteps[r.app] ?? []).map(\.json))))
                                return .object(m)
                            })
                    ),
                    ("errors", .array(loadErrors.map { .string($0.description) })),
                ]).pretty)
        } else {
            for r in chosen {
                printText(r)
                if online { printOnline(r, onlineSteps[r.app] ?? [], snapshot: snapshot) }
            }
            let errors = findings.filter { $0.severity == .error }.count
            let warnings = findings.filter { $0.severity == .warning }.count
            out("\(chosen.count) apps checked: \(errors) errors, \(warnings) warnings")
        }
        for e in loadErrors { printError(e.description) }
        if loadErrors.contains(where: { $0.kind == .io }) { throw Exit.usageOrIO }
        if findings.hasErrors || !loadErrors.isEmpty || onlineFailed { throw Exit.inputErrors }
    }

    /// docs/SENDING.md for each app, after the offline checks; one push session, so apps sharing a
    /// host and credential share a connection as a send would.
    private func checkOnline(_ reports: [CredentialReport], snapshot: StoreSnapshot, store: Store) throws -> [String:
        [OnlineStep]]
    {
        let session = try openPushSession(store)
        defer { session.close() }
        var out: [String: [OnlineStep]] = [:]
        for r in reports {
            guard let app = snapshot.service(named: r.service)?.app(integrationKey: r.app) else { continue }
            out[r.app] = session.check(app, offlineFinding: r.findings.first { $0.severity == .error })
        }
        return out
    }

    private func printOnline(_ r: CredentialReport, _ steps: [OnlineStep], snapshot: StoreSnapshot) {
        for s in steps {
            let line =
                "  online \(s.step.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(s.ok ? "ok    " : "FAILED") \(s.ms) ms  \(Escape.inline(s.detail, limit: 200))"
            out(line)
            if let f = s.finding {
                var f = f
                f.file = Service.path(r.service)
                f.field = FieldPath.app(r.index)
                printError(snapshot.positioned([f])[0].formatted)
            }
        }
        out("")
    }

    private func printText(_ r: CredentialReport) {
        var kind = r.platform.rawValue
        if let env = r.environment { kind += " " + env.rawValue }
        kind += ", " + r.kind.rawValue
        out("\(Escape.inline(r.service)) / \(Escape.inline(r.app))  \(Escape.inline(r.label))  [\(kind)]")
        for d in r.details {
            out("  " + d.label.padding(toLength: 20, withPad: " ", startingAt: 0) + " " + d.value)
        }
        // Errors go to stderr in the FILE:LINE:COLUMN form (README.md), in place on a terminal
        // (stdout is written unbuffered); warnings stay with the app's details on stdout.
        for f in r.findings {
            if f.severity == .error {
                printError(f.formatted)
            } else {
                out("  " + f.formatted)
            }
        }
        out("")
    }

    private func out(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}

/// `pushdesk credentials set-secret NAME`: stores a .p12 password or FCM server key in
/// STORE/secrets/NAME (0600), read from stdin with echo off on a terminal.
struct CredentialsSetSecretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-secret",
        abstract: "Store a secret (a .p12 password, an FCM server key) under a name, read from stdin.",
        discussion: """
            The value is read from standard input (one line; typing is not echoed on a terminal) \
            and written to STORE/secrets/NAME with mode 0600. Reference it from a service as \
            passwordRef="NAME" or serverKeyRef="NAME". See docs/SECRETS.md.
            """)

    @Argument(help: "The secret's name: letters, digits, '.', '_', '-'.")
    var name: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard SecretRef.isValidName(name) else {
            printError(
                "\(Escape.inline(name)): error: a secret name is 1-100 of letters, digits, '.', '_', '-', not starting with '.'"
            )
            throw Exit.usageOrIO
        }
        let store = try storeOptions.openStore()
        // The lock is taken before the prompt, so nobody types a secret only to be refused.
        try withStoreLock(store, command: "credentials set-secret") { try readAndStore(store) }
    }

    private func readAndStore(_ store: Store) throws {
        let interactive = isatty(STDIN_FILENO) == 1
        if interactive { FileHandle.standardError.write(Data("Secret for \(name) (not shown): ".utf8)) }
        let value = readSecretLine(echoOff: interactive)
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
        guard let value, !value.isEmpty else {
            printError("\(SecretStore.relativePath(name)): error: no value on standard input; nothing written")
            throw Exit.usageOrIO
        }
        do {
            try SecretStore(storeRoot: store.root).set(name, to: value)
        } catch {
            printError("\(SecretStore.relativePath(name)): error: \(Escape.inline("\(error)", limit: 4096))")
            throw Exit.usageOrIO
        }
        print("stored \(SecretStore.relativePath(name)) (mode 0600)")
    }

    /// One line from stdin, without its newline; echo turned off while typing on a terminal.
    private func readSecretLine(echoOff: Bool) -> SecretValue? {
        let bytes = withEchoOff(echoOff) {
            var bytes: [UInt8] = []
            var c: UInt8 = 0
            // One byte over the cap is enough for SecretStore to refuse it, and no more is kept.
            while bytes.count <= SecretStore.maxBytes, read(STDIN_FILENO, &c, 1) == 1 {
                if c == 0x0A { break }
                bytes.append(c)
            }
            if bytes.last == 0x0D { bytes.removeLast() }
            return bytes
        }
        return bytes.isEmpty ? nil : SecretValue(bytes: bytes)
    }
}
