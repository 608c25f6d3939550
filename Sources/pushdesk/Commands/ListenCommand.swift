import ArgumentParser
import Dispatch
import Foundation
import PushDeskCore

/// `pushdesk listen`: stands in for Campaign's marketing and tracking servers so a test build
/// of the app can register and report tracking to PushDesk (docs/LISTEN.md).
struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Receive a test build's registrations and tracking: check them, record them, save its device.",
        discussion: """
            Serves HTTPS (HTTP/1.1) on 127.0.0.1:8443 by default: POST /nms/mobile/1/registerIOS.jssp \
            and registerAndroid.jssp (registrations), GET /r/?id=h<messageId>,<deliveryId>,<tag> \
            (tracking, matched to the send log). Point the app's campaignclassic.marketingServer and \
            campaignclassic.trackingServer at it. The certificate is --cert/--key, else one issued by \
            PushDesk's local CA in STORE/.pushdesk/listen/ (trust ca.pem on the device). Each request \
            prints one line (--json: one JSON object) and is appended to STORE/.pushdesk/listen.jsonl. \
            Runs until Ctrl-C, SIGTERM or hang-up, --for or --count; exit 0, or 2 when it cannot listen.
            """)

    @Option(help: ArgumentHelp("Address to listen on (default 127.0.0.1).", valueName: "ADDR"))
    var bind = "127.0.0.1"

    @Option(help: ArgumentHelp("Port (default 8443; 0 picks a free one).", valueName: "N"))
    var port = 8443

    @Option(
        name: .customLong("name"),
        help: ArgumentHelp(
            "Another DNS name or IP address of this machine for the certificate (repeatable).", valueName: "HOST"))
    var names: [String] = []

    @Option(help: ArgumentHelp("Serve this certificate chain (PEM) instead of the local CA's.", valueName: "FILE"))
    var cert: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --cert.", valueName: "FILE"))
    var key: String?

    @Option(
        help: ArgumentHelp(
            "Save each registered device into profiles/NAME.xml (with its osLanguage as locale).", valueName: "NAME"))
    var profile: String?

    @Option(name: .customLong("for"), help: ArgumentHelp("Stop after this many seconds.", valueName: "SECONDS"))
    var seconds: Double?

    @Option(help: ArgumentHelp("Stop after this many requests.", valueName: "N"))
    var count: Int?

    @Flag(help: "Print one JSON object per request (full token) instead of a line.")
    var json = false

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let seconds, !(seconds > 0) { throw ValidationError("--for must be more than 0 seconds") }
        if let profile, !Store.isValidName(profile) {
            throw ValidationError("--profile \(Escape.inline(profile)) is not a profile name (\(Store.nameRule))")
        }
    }

    func run() throws {
        let store = try storeOptions.openStore()
        let identity: ListenIdentity
        do {
            if let cert, let key {
                identity = try ListenCertificates.operatorIdentity(
                    certificate: URL(fileURLWithPath: cert), key: URL(fileURLWithPath: key))
            } else {
                identity = try ListenCertificates.localIdentity(storeRoot: store.root, names: names)
            }
        } catch {
            printError("pushdesk listen: error: \(Escape.inline("\(error)", limit: 4096))")
            throw Exit.usageOrIO
        }
        let service = ListenService(store: store, profile: profile)
        service.preload()
        let stop = DispatchSemaphore(value: 0)
        let handled = Counter()
        let json = self.json
        let limit = count
        service.onRecord = { record in
            if json {
                // Escape.json: C1, DEL, bidi and invisible characters as \u escapes.
                writeOut(Escape.json(record.json(fullToken: true).compact) + "\n")
            } else {
                writeOut(record.line + "\n")
            }
            if record.saveFailed, let why = record.saved {
                printError("pushdesk listen: \(why)")
            }
            let n = handled.increment()
            if let limit, n == limit { stop.signal() }
        }
        let logErrors = Counter()
        service.onLogError = { message in
            if logErrors.increment() == 1 {
                printError(
                    "\(ListenLog.relativePath): error: the request log was not written: \(Escape.inline(message, limit: 4096)); requests are still answered"
                )
            }
        }

        let server: ListenServer
        do {
            server = try ListenServer(
                host: bind, port: port, identity: identity, quick: { service.handleWithoutSaving($0) },
                handle: { service.handle($0) })
        } catch let e as ListenCertificates.Failure {
            printError("pushdesk listen: error: \(Escape.inline(e.description, limit: 4096))")
            throw Exit.usageOrIO
        } catch {
            printError(
                "pushdesk listen: error: cannot listen on \(Escape.inline(bind)):\(port): \(Escape.inline("\(error)", limit: 400)) (port in use? another pushdesk listen?)"
            )
            throw Exit.usageOrIO
        }
        printBanner(server: server, identity: identity, store: store)

        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_IGN) }
        let sources = [SIGINT, SIGTERM, SIGHUP].map { sig -> DispatchSourceSignal in
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler { stop.signal() }
            s.resume()
            return s
        }
        if let seconds { DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { stop.signal() } }
        // The sources must live until the listener stops: an optimized build releases an
        // object after its last use (`_ = sources` is none), and a released source is
        // cancelled, so Ctrl-C and SIGTERM went unheard in release builds.
        withExtendedLifetime(sources) {
            stop.wait()
            server.stop()
            service.flush()
        }
        printError("pushdesk listen: stopped; \(handled.value) request\(handled.value == 1 ? "" : "s") handled")
    }

    private func printBanner(server: ListenServer, identity: ListenIdentity, store: Store) {
        let hostPart = bind.contains(":") ? "[\(bind)]" : bind
        var lines: [String] = []
        if !Self.isLoopback(bind) {
            lines.append(
                "pushdesk listen: warning: \(Escape.inline(bind)) is not a loopback address: any host that reaches port \(server.port) can register devices"
            )
        }
        lines.append("pushdesk listen: https://\(Escape.inline(hostPart)):\(server.port)/")
        lines.append(
            "  app configuration: campaignclassic.marketingServer and campaignclassic.trackingServer = \(Escape.inline(hostPart)):\(server.port)"
        )
        if let ca = identity.caFile, let fp = identity.caFingerprint {
            lines.append("  CA: \(Escape.inline(ca.path, limit: 4096))")
            lines.append("  CA SHA-256: \(fp)")
            lines.append(
                "  trust it on the iOS Simulator: xcrun simctl keychain booted add-root-cert \(Escape.inline(ca.path, limit: 4096))"
            )
            lines.append(
                "  on an Android debug build: a user CA (adb push the file, Settings › Security › Install certificate) and a network_security_config trusting user CAs in <debug-overrides> (docs/LISTEN.md)"
            )
            if identity.issued {
                lines.append(
                    "  server certificate issued for: \((ListenCertificates.defaultNames + names).map { Escape.inline($0) }.joined(separator: ", "))"
                )
            }
        } else {
            lines.append("  certificate: \(Escape.inline(cert ?? "", limit: 4096))")
        }
        if let profile { lines.append("  saving registered devices into profile \(Escape.inline(profile))") }
        lines.append(
            "  log: \(Escape.inline(store.root.appendingPathComponent(ListenLog.relativePath).path, limit: 4096))")
        printError(lines.joined(separator: "\n"))
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }
}

/// Writes to standard output at once (a test or a pipe sees each line as it happens).
private func writeOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var value: Int { lock.withLock { n } }
    func increment() -> Int {
        lock.withLock {
            n += 1
            return n
        }
    }
}
