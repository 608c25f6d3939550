import ArgumentParser
import Foundation
import PushDeskCore

/// `pushdesk send DELIVERY`: a test push to test devices (docs/SENDING.md).
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a delivery to test devices (a profile's subscriptions, or one token) and report the answers.",
        discussion: """
            Checked exactly as `preview` first: an error finding blocks the whole send and nothing \
            leaves. The body sent is the previewed payload byte for byte. --dry-run reads the \
            credentials, signs tokens and asks FCM to validate (validate_only); APNs is skipped. \
            Endpoints, trust anchors and proxy: PUSHDESK_APNS_SANDBOX_URL, \
            PUSHDESK_APNS_PRODUCTION_URL, PUSHDESK_FCM_URL, PUSHDESK_CA_FILE, PUSHDESK_SYSTEM_TRUST (0: only the CA file's \
            anchors), https_proxy, no_proxy. \
            Exit 0 when every result is sent, validated or skipped; 1 when blocked, or rejected and \
            none failed; 2 on usage or I/O errors or when any result failed.
            """)

    @Argument(help: ArgumentHelp("Name of the delivery (deliveries/NAME.xml).", valueName: "DELIVERY"))
    var delivery: String

    @Option(help: ArgumentHelp("Send to the subscriptions of profiles/NAME.xml.", valueName: "NAME"))
    var profile: String?

    @Option(
        help: ArgumentHelp("Only this app (integration key); with --token, the app of the token.", valueName: "KEY"))
    var app: String?

    @Option(help: ArgumentHelp("Device token (with --app).", valueName: "T"))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Firebase installation ID (with --app, an Android app): sent as message.fid (docs/SENDING.md).",
            valueName: "FID"))
    var fid: String?

    @Option(
        help: ArgumentHelp(
            "Broadcast a Live Activity update or end to this channel of the --app iOS app (its id or label).",
            valueName: "ID|LABEL"))
    var channel: String?

    @Flag(help: "Make every step but the delivery: FCM validates only, APNs is skipped.")
    var dryRun = false

    @Flag(help: "Print the JSON document instead of text.")
    var json = false

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if channel != nil {
            if app == nil || profile != nil || token != nil || fid != nil {
                throw ValidationError("--channel goes with --app KEY alone (no --profile, no --token)")
            }
            return
        }
        if profile != nil && fid != nil { throw ValidationError("--fid goes with --app, not with --profile") }
        try FIDOption.validate(fid, token: token, app: app)
        if profile == nil && (app == nil || (token == nil && fid == nil)) {
            throw ValidationError(
                "give --profile NAME, or --app KEY and --token T (or --fid FID), or --app KEY and --channel ID|LABEL")
        }
        if profile != nil && token != nil { throw ValidationError("--token goes with --app, not with --profile") }
    }

    func run() throws {
        let store = try storeOptions.openStore()
        let snapshot = store.loadAll(readOnly: true)
        guard let d = snapshot.deliveries.first(where: { $0.name == delivery }) else {
            let path = Delivery.path(delivery)
            if let e = snapshot.errors.first(where: { $0.file == path }) {
                printError(e.description)
                throw e.kind == .io ? Exit.usageOrIO : Exit.inputErrors
            }
            printError("\(Escape.inline(path)): error: no such delivery in the store")
            throw Exit.usageOrIO
        }
        guard let service = snapshot.service(named: d.service) else {
            printError(snapshot.positioned([DeliveryRules.serviceMissing(d)])[0].formatted)
            throw Exit.inputErrors
        }
        var profileValue: Profile?
        if let name = profile {
            guard let p = snapshot.profiles.first(where: { $0.name == name }) else {
                let path = Profile.path(name)
                if let e = snapshot.errors.first(where: { $0.file == path }) {
                    printError(e.description)
                    throw Exit.inputErrors
                }
                printError("\(Escape.inline(path)): error: no such profile in the store")
                throw Exit.usageOrIO
            }
            profileValue = p
        }
        if let app, service.app(integrationKey: app) == nil {
            printError(
                "error: service \(Escape.inline(service.name)) has no app with integration key \"\(Escape.inline(app))\""
            )
            throw Exit.usageOrIO
        }
        try FIDOption.check(fid, app: app, service: service)
        let plan: SendPlan
        if let channel {
            let (ios, c) = try broadcastChannel(channel, app: app, service: service, delivery: d, token: token)
            plan = SendPlan.broadcast(
                delivery: d, service: service, app: ios, channel: c, now: Date(), position: snapshot.positioned)
        } else {
            plan = SendPlan.make(
                delivery: d, service: service, profile: profileValue, appKey: app, token: fid ?? token, fid: fid != nil,
                allServices: snapshot.services, now: Date(), position: snapshot.positioned)
        }
        if plan.items.isEmpty && !plan.isBlocked {
            printError(
                "error: profile \(Escape.inline(profile ?? "")) has no subscription to an app of service \(Escape.inline(service.name))\(app.map { " with key \(Escape.inline($0))" } ?? "")"
            )
            throw Exit.usageOrIO
        }
        let session = try openPushSession(store, progress: true)
        let terminal = isatty(STDERR_FILENO) == 1
        let report = session.send(plan, dryRun: dryRun) { r in
            if terminal && !json {
                printError(
                    "\(Escape.inline(r.app)) \(r.channel.map { "channel " + Escape.inline($0) } ?? Escape.inline(Subscription.shortened(r.token))): \(r.outcome.rawValue)"
                )
            }
        }
        session.close()
        var logFailed = false
        do { try session.log(report) } catch {
            printError(
                "\(SendLog.relativePath): error: the send log was not written: \(Escape.inline("\(error)", limit: 4096))"
            )
            logFailed = true
        }
        if json {
            // `pretty` writes DEL, C1, bidi and invisible characters as \u escapes (Escape.json).
            print(report.json.pretty)
        } else {
            printText(report)
        }
        let code = logFailed ? max(report.exitCode, 2) : report.exitCode
        if code != 0 { throw ExitCode(code) }
    }

    private func printText(_ report: SendReport) {
        if !report.blocked.isEmpty {
            for b in report.blocked { printError(b.finding.formatted) }
            printError(
                "send blocked: \(report.blocked.count) error finding\(report.blocked.count == 1 ? "" : "s"); nothing was sent"
            )
            return
        }
        for r in report.results {
            var line =
                "\(Escape.inline(r.app))  \(Escape.inline(r.device ?? "-"))  \(r.channel.map { "channel " + Escape.inline($0) } ?? Escape.inline(Subscription.shortened(r.token)))  \(r.outcome.rawValue)"
            if let s = r.status { line += " \(s)" }
            if let reason = r.reason { line += " \(Escape.inline(reason))" }
            if let id = r.apnsId { line += "  apns-id \(Escape.inline(id))" }
            if let id = r.apnsUniqueId { line += "  apns-unique-id \(Escape.inline(id))" }
            if let n = r.messageName { line += "  \(Escape.inline(n))" }
            line += "  _mId \(r.messageId)"
            line += "  (\(r.attempts) attempt\(r.attempts == 1 ? "" : "s"), \(r.bytes) bytes, \(r.ms) ms)"
            print(line)
            if let hint = r.hint { print("  hint: \(Escape.inline(hint, limit: 1000))") }
        }
        let parts = SendOutcome.allCases.map { "\(report.count($0)) \($0.rawValue)" }
        print((report.dryRun ? "dry run: " : "") + parts.joined(separator: ", "))
    }
}
