import ArgumentParser
import Foundation
import PushDeskCore

/// `pushdesk preview DELIVERY`: the exact APNs / FCM request for each app (docs/PAYLOADS.md).
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show the exact APNs request and FCM message a delivery becomes, its size and its findings.",
        discussion: """
            Exit 0 when there is no error (warnings allowed), 1 when the delivery, its service or \
            the profile has errors, 2 on usage errors (unknown delivery, app or profile) or I/O errors.
            """)

    @Argument(help: ArgumentHelp("Name of the delivery (deliveries/NAME.xml).", valueName: "DELIVERY"))
    var delivery: String

    @Option(help: ArgumentHelp("Preview only the app with this integration key.", valueName: "KEY"))
    var app: String?

    @Option(help: ArgumentHelp("Personalize with the sample recipient profiles/NAME.xml.", valueName: "NAME"))
    var profile: String?

    @Option(help: ArgumentHelp("Device token (default: the placeholder DEVICE_TOKEN).", valueName: "T"))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Firebase installation ID of the --app Android app, previewed as message.fid (docs/SENDING.md).",
            valueName: "FID"))
    var fid: String?

    @Option(
        help: ArgumentHelp(
            "Send this _mId in place of the delivery's, as a send does (the id `send` reported).", valueName: "UUID"))
    var messageId: String?

    @Option(
        help: ArgumentHelp(
            "Preview the broadcast to this channel of the --app iOS app (its id or label).",
            valueName: "ID|LABEL"))
    var channel: String?

    @Option(
        help: ArgumentHelp(
            "The UNIX second a Live Activity's timestamp takes (default: now), as `send` reported it.",
            valueName: "SECONDS"))
    var at: Int?

    @Option(
        help: ArgumentHelp(
            "Preview the variant a device with this language gets (de, pt-BR, zh-Hant-TW; _ or -, any case), or all: for each app the default and every variant.",
            valueName: "TAG|all"))
    var locale: String?

    /// `--locale`, read.
    var previewLocale: PreviewLocale? {
        guard let locale else { return nil }
        if locale.lowercased() == "all" { return .all }
        return LocaleTag(locale).map(PreviewLocale.tag)
    }

    @Flag(help: "Print the JSON document instead of text.")
    var json = false

    @Flag(
        help:
            "Print the iOS Simulator's push file of the --app iOS app (for `xcrun simctl push booted FILE`), docs/PAYLOADS.md."
    )
    var simulator = false

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let id = messageId, id.isEmpty || id.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E }) {
            throw ValidationError("--message-id takes the id a send reported (a UUID, or v7's decimal id)")
        }
        try FIDOption.validate(fid, token: token, app: app)
        if simulator {
            if app == nil { throw ValidationError("--simulator goes with --app KEY (the iOS app the Simulator runs)") }
            if json || channel != nil || fid != nil {
                throw ValidationError("--simulator prints the Simulator's file: no --json, --channel or --fid")
            }
        }
        if locale != nil, previewLocale == nil {
            throw ValidationError(
                "--locale takes a language tag, language[-Script][-REGION] (de, pt-BR, zh-Hant, es-419), or all")
        }
        if locale != nil, channel != nil {
            throw ValidationError("--locale previews the delivery's variants: no --channel")
        }
        if simulator, previewLocale == .all {
            throw ValidationError(
                "--simulator makes one file: give --locale one language tag (the variant that device gets), not all")
        }
        if let at, at < 0 {
            throw ValidationError("--at takes a UNIX second (0 or more), e.g. the timestamp a send reported")
        }
    }

    func run() throws {
        let store = try storeOptions.openStore()
        var maps = StoreSnapshot()

        guard Store.isValidName(delivery) else {
            printError("error: \"\(Escape.inline(delivery))\" is not a delivery name (\(Store.nameRule))")
            throw Exit.usageOrIO
        }
        let d: Delivery
        do {
            let (loaded, map) = try store.loadWithMap(Delivery.self, delivery)
            d = loaded
            maps.sourceMaps[Delivery.path(delivery)] = map
        } catch let e as StoreError {
            printError(e.description + (e.kind == .io ? available("deliveries", try? store.names(Delivery.self)) : ""))
            throw e.kind == .io ? Exit.usageOrIO : Exit.inputErrors
        }

        let service: Service
        do {
            let (loaded, map) = try store.loadWithMap(Service.self, d.service)
            service = loaded
            maps.sourceMaps[Service.path(d.service)] = map
        } catch let e as StoreError {
            // A service that does not exist is the delivery's error (exit 1); an unreadable
            // service file is I/O (exit 2); a malformed one is an input error (exit 1).
            if e.kind == .io, !FileManager.default.fileExists(atPath: store.url(Service.path(d.service)).path) {
                printError(maps.positioned([DeliveryRules.serviceMissing(d)])[0].formatted)
                throw Exit.inputErrors
            }
            printError(e.description)
            throw e.kind == .io ? Exit.usageOrIO : Exit.inputErrors
        }

        var profileValue: Profile?
        var profileFindings: [Finding] = []
        if let name = profile {
            guard Store.isValidName(name),
                FileManager.default.fileExists(atPath: store.url(Profile.path(name)).path)
            else {
                printError(
                    "\(Escape.inline(Profile.path(name), limit: 4096)): error: no such profile in the store"
                        + available("profiles", try? store.names(Profile.self)))
                throw Exit.usageOrIO
            }
            do {
                profileValue = try store.load(Profile.self, name)
            } catch let e as StoreError {
                // docs/PAYLOADS.md: a profile that cannot be read is a top-level finding; the preview
                // goes on with the text as written.
                profileFindings.append(
                    DeliveryRules.profileUnreadable.finding(
                        "\(e.message); the preview shows the text without personalization",
                        file: e.file, line: e.line, column: e.column))
            }
        }

        if let app, service.app(integrationKey: app) == nil {
            let keys = service.apps.map { Escape.inline($0.integrationKey) }.joined(separator: ", ")
            printError(
                "error: service \(Escape.inline(service.name)) has no app with integration key \"\(Escape.inline(app))\"; use one of: \(keys)"
            )
            throw Exit.usageOrIO
        }

        try FIDOption.check(fid, app: app, service: service)
        var result: Preview
        if let channel {
            let (ios, c) = try broadcastChannel(channel, app: app, service: service, delivery: d, token: token)
            result = BroadcastRequest.preview(
                delivery: d, service: service, app: ios, channel: c, now: Date(), at: at, messageId: messageId)
        } else {
            result = PreviewEngine.preview(
                delivery: d, service: service, profile: profileValue,
                appKey: app, token: fid ?? token, fid: fid != nil, now: Date(), messageId: messageId, at: at,
                locale: previewLocale)
        }
        result.diagnostics = profileFindings + maps.positioned(result.diagnostics)
        for i in result.targets.indices {
            result.targets[i].diagnostics = maps.positioned(result.targets[i].diagnostics)
        }

        if simulator, let app, let mobileApp = service.app(integrationKey: app) {
            try printSimulatorFile(result, delivery: d, app: mobileApp, maps: maps)
            return
        }

        if json {
            // `pretty` writes DEL, C1, bidi and invisible characters as \u escapes (Escape.json):
            // the same JSON value, unable to drive a screen; the payload's bytes are `compact`.
            print(result.json.pretty)
        } else {
            print(PreviewText.render(result, type: d.ios.effectiveType.name))
        }
        if result.hasErrors { throw Exit.inputErrors }
    }

    /// `--simulator` (docs/PAYLOADS.md): the file on stdout when there is no error, else the findings
    /// on stderr and exit 1. With `--locale TAG` the file is the variant that tag looks up; when
    /// it looks up none, `variant.fallback` on stderr says the file is the default's.
    private func printSimulatorFile(_ result: Preview, delivery d: Delivery, app: MobileApp, maps: StoreSnapshot) throws
    {
        switch SimulatorFile.make(delivery: d, app: app, target: result.targets.first) {
        case .refused(let f):
            printError(maps.positioned([f])[0].formatted)
            throw Exit.inputErrors
        case .file(let text):
            let errors = result.allFindings.filter { $0.severity == .error }
            for f in errors { printError(Escape.inline(f.formatted, limit: 4096)) }
            if !errors.isEmpty { throw Exit.inputErrors }
            let fallback = result.targets.first?.diagnostics.filter { $0.rule == DeliveryRules.variantFallback.id }
            for f in fallback ?? [] { printError(Escape.inline(f.formatted, limit: 4096)) }
            print(text)
        }
    }

    private func available(_ what: String, _ names: [String]?) -> String {
        guard let names, !names.isEmpty else { return "" }
        return "; \(what) in the store: " + names.map { Escape.inline($0) }.joined(separator: ", ")
    }
}

/// The text form of a preview, for people (may change; the JSON form is the contract).
/// Everything from files goes through `Escape` so a file can never drive the terminal.
enum PreviewText {
    /// `type`: the delivery's iOS type, named when it leaves Android apps out.
    static func render(_ p: Preview, type: String) -> String {
        var lines: [String] = []
        lines.append(
            "\(Escape.inline(p.delivery)) → service \(Escape.inline(p.service)), \(p.targets.count) target\(p.targets.count == 1 ? "" : "s")"
        )
        // docs/PAYLOADS.md: an iOS-only type lists no Android target; say why, not a bare "0 targets".
        for app in p.iosOnlySkipped {
            lines.append("\(Escape.inline(app)): no request, \(type) is iOS only (type.ios-only)")
        }
        if !p.diagnostics.isEmpty {
            lines.append("")
            lines += findings(p.diagnostics)
        }
        for t in p.targets {
            lines.append("")
            var title = "== \(Escape.inline(t.app)) · \(Escape.inline(t.label)) · \(t.platform.rawValue)"
            if let env = t.environment { title += " \(env.rawValue)" }
            title += " · \(t.api.rawValue)"
            if let locale = t.locale { title += " · variant \(locale)" }
            lines.append(title)
            lines.append("POST \(Escape.inline(t.endpoint, limit: 4096))")
            for h in t.headers { lines.append("\(h.name): \(Escape.inline(h.value, limit: 4096))") }
            lines.append("")
            lines.append(t.payload.pretty)
            lines.append("")
            lines.append("\(t.bytes) / \(t.limit) bytes" + (t.bytes > t.limit ? " (over by \(t.bytes - t.limit))" : ""))
            if !t.diagnostics.isEmpty { lines += findings(t.diagnostics) }
        }
        let all = p.allFindings
        let errors = all.filter { $0.severity == .error }.count
        let warnings = all.filter { $0.severity == .warning }.count
        lines.append("")
        lines.append("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    /// Findings grouped by severity, most severe first.
    static func findings(_ list: [Finding]) -> [String] {
        var out: [String] = []
        for severity in Severity.allCases.reversed() {
            let group = list.filter { $0.severity == severity }
            guard !group.isEmpty else { continue }
            out.append("\(severity.rawValue)s (\(group.count)):")
            out += group.map { "  " + Escape.inline($0.formatted, limit: 4096) }
        }
        return out
    }
}
