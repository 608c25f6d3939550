import Foundation
import PushDeskCore

/// The console's Listen view (docs/LISTEN.md): `pushdesk listen`'s server —
/// the same `ListenServer` and `ListenService` — run on a view `Job`, off the input loop.
/// Each request handled arrives as its record and is shown newest first (the command's
/// line, findings one per row so their rule ids stay visible at 80 columns). Enter on an
/// accepted registration adds its device to a profile picked by name (`Effect.addDevice`:
/// the update `listen --profile` makes). Esc stops the server before the view closes, so
/// the port is free once it is gone; any other way the view leaves the stack cancels the job,
/// which stops it too.
final class ListenScreen: StatefulScreen, Asking {
    /// Where the server listens: `PUSHDESK_LISTEN_BIND` and `PUSHDESK_LISTEN_PORT` in the
    /// console's environment, else the command's defaults (127.0.0.1:8443).
    struct Address: Sendable, Equatable {
        var host = "127.0.0.1"
        var port = 8443

        /// Throws a message naming the variable when a value cannot be used.
        init(environment: [String: String]) throws {
            if let h = environment["PUSHDESK_LISTEN_BIND"], !h.isEmpty { host = h }
            if let p = environment["PUSHDESK_LISTEN_PORT"], !p.isEmpty {
                guard let n = Int(p), (0...65535).contains(n) else {
                    throw Failure(
                        description: "PUSHDESK_LISTEN_PORT=\(Escape.inline(p, limit: 20)) is not a port: set 0 to 65535"
                    )
                }
                port = n
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What the server says when it starts (the command's banner).
    struct Banner: Sendable {
        var url: String
        var hostPort: String
        var caFile: String?
        var caFingerprint: String?
    }

    enum Event: Sendable {
        case started(Banner)
        case record(ListenRecord)
        case note(String)
        case failed(String)
    }

    /// One request shown; `id` keeps the selection on it as newer ones arrive above.
    struct Entry {
        var id: Int
        var record: ListenRecord
    }

    private(set) var banner: Banner?
    private(set) var entries: [Entry] = []
    private(set) var failure: String?
    private(set) var notes: [String] = []
    private(set) var selected = 0
    private var nextId = 0
    private let server = RunningServer()
    /// The server, run by the app when the view opens; cancelled when the view leaves the stack.
    private(set) var job: Job!
    var jobsOnOpen: [Job] { [job] }

    struct View {
        var top = 0
    }
    var view = View()

    init(storeURL: URL, environment: [String: String]) {
        let server = self.server
        job = .make(
            .view, owner: self,
            work: { (mailbox: JobContext<Event>) in
                Self.serve(storeURL: storeURL, environment: environment, server: server, mailbox: mailbox)
            },
            onEvent: { [weak self] e, _ in
                self?.receive(e)
                return .none
            },
            onResult: { _, _ in .none })
    }

    /// The job's work: starts the server, posts what it handles, and stops it on cancel.
    private static func serve(
        storeURL: URL, environment: [String: String], server: RunningServer, mailbox: JobContext<Event>
    ) {
        let address: Address
        let identity: ListenIdentity
        do {
            address = try Address(environment: environment)
            identity = try ListenCertificates.localIdentity(storeRoot: storeURL, names: [])
        } catch {
            return mailbox.post(.failed(Escape.inline("\(error)", limit: 400)))
        }
        let service = ListenService(store: Store(root: storeURL), profile: nil)
        service.preload()
        service.onRecord = { mailbox.post(.record($0)) }
        service.onLogError = { why in
            mailbox.post(
                .note(
                    "\(ListenLog.relativePath) was not written: \(Escape.inline(why, limit: 200)); requests are still answered"
                ))
        }
        let listening: ListenServer
        do {
            listening = try ListenServer(
                host: address.host, port: address.port, identity: identity, quick: { service.handleWithoutSaving($0) },
                handle: { service.handle($0) })
        } catch {
            return mailbox.post(
                .failed(
                    "cannot listen on \(Escape.inline(address.host)):\(address.port): \(Escape.inline("\(error)", limit: 300)) (port in use? another pushdesk listen? set PUSHDESK_LISTEN_PORT)"
                ))
        }
        guard server.set(listening) else { return listening.stop() }
        let hostPart = address.host.contains(":") ? "[\(address.host)]" : address.host
        mailbox.post(
            .started(
                Banner(
                    url: "https://\(Escape.inline(hostPart)):\(listening.port)/",
                    hostPort: "\(Escape.inline(hostPart)):\(listening.port)",
                    caFile: identity.caFile.map { Escape.inline(Self.inStore($0, storeURL), limit: 4096) },
                    caFingerprint: identity.caFingerprint)))
        while !mailbox.isCancelled { mailbox.cancellation.sleep(3600) }
        server.stop()
    }

    /// A path inside the store as the store names it (`.pushdesk/listen/ca.pem`), else whole.
    static func inStore(_ file: URL, _ store: URL) -> String {
        let root = store.standardizedFileURL.path + "/"
        let path = file.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// Splits a long value (a path, a fingerprint) after its last `separator` that fits.
    static func breakLines(_ text: String, width: Int, after separator: Character) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        while TextWidth.width(of: String(rest)) > width, width > 1 {
            let head = rest.prefix(width)
            let cut = head.lastIndex(of: separator).map { rest.index(after: $0) } ?? head.endIndex
            out.append(String(rest[..<cut]))
            rest = rest[cut...]
        }
        out.append(String(rest))
        return out
    }

    var title: String { "Listen" }
    var contexts: [KeyContext] { [.listenView] }
    var textFocused: Bool { false }
    func handleText(_ key: Key, app: AppContext) -> Bool { false }

    /// The request selected now, if any.
    var selectedRecord: ListenRecord? { entries.indices.contains(selected) ? entries[selected].record : nil }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        switch action {
        case .back:
            // Stopped here, not on the job's thread: the port is free when the view is gone.
            server.stop()
            return .all([.cancel(job), .pop, .say("Listen stopped: the server is closed.")])
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(max(0, entries.count - 1), selected + 1)
        case .top: selected = 0
        case .bottom: selected = max(0, entries.count - 1)
        case .open:
            guard let record = selectedRecord else {
                return .say("No request yet: point the app at the address above.")
            }
            guard let device = record.registeredDevice else {
                return .say("Only an accepted registration (200) names a device to add to a profile.")
            }
            if let refusal = app.refusal(for: .open) { return refusal }
            let names = app.profiles.map(\.name)
            return .ask(
                self,
                .choices(
                    "Add \(Escape.inline(device.label ?? device.shortToken, limit: 40)) to which profile?",
                    options: names + ["New profile…"], selected: 0
                ) { i in
                    guard let i else { return .cancel }
                    return i < names.count ? .add(device, names[i]) : .askName(device)
                })
        default: return nil
        }
        return Effect.none
    }

    enum Reply {
        case add(Subscription, String)
        case askName(Subscription)
        case cancel
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .cancel: return .none
        case .askName(let device):
            return .ask(
                self,
                .text("New profile", "Name of the profile (profiles/NAME.xml; \(Store.nameRule)):") { name in
                    guard let name else { return .cancel }
                    return .add(device, name.trimmingCharacters(in: .whitespaces))
                })
        case .add(let device, let name):
            let id = selectedRecord.map { _ in entries[selected].id }
            return .addDevice(device, profile: name) { [weak self] result in
                switch result {
                case .success(let what):
                    if let id, let i = self?.entries.firstIndex(where: { $0.id == id }) {
                        self?.entries[i].record.saved = what
                    }
                    return .say("\(device.label.map { Escape.inline($0, limit: 40) } ?? device.shortToken) \(what).")
                case .failure(let error):
                    return .inform("Not saved", Escape.inline("\(error)", limit: 600))
                }
            }
        }
    }

    /// What the job reported, on the run loop: newest first. On the newest request the
    /// selection follows what arrives (the top of the list stays in view, as `tail -f` does);
    /// moved down to an older request, it stays on that request.
    private func receive(_ e: Event) {
        switch e {
        case .started(let b): banner = b
        case .record(let r):
            if selected > 0 { selected += 1 }
            entries.insert(Entry(id: nextId, record: r), at: 0)
            nextId += 1
        case .note(let n): if !notes.contains(n) { notes.append(n) }
        case .failed(let why): failure = why
        }
    }

    /// The header: where the server listens and the CA to trust (as the command prints at start).
    func headerLines(width: Int) -> [(Role, String)] {
        var out: [(Role, String)] = []
        if let failure {
            for l in TextWidth.wrap("Not listening: " + failure, to: width) { out.append((.findingError, l)) }
            out.append((.muted, "Esc closes."))
            return out
        }
        guard let b = banner else { return [(.muted, "Starting the server…")] }
        out.append((.normal, "Listening on \(b.url) · Esc stops it"))
        out.append((.muted, "app: marketingServer and trackingServer = \(b.hostPort)"))
        if let ca = b.caFile {
            for l in Self.breakLines("CA (trust it on the device): " + ca, width: width, after: "/") {
                out.append((.muted, l))
            }
        }
        if let fp = b.caFingerprint {
            for l in Self.breakLines("CA SHA-256: " + fp, width: width, after: ":") { out.append((.muted, l)) }
        }
        for n in notes { out.append((.findingWarning, TextWidth.truncate(n, to: width))) }
        return out
    }

    /// One request's rows: the command's line, then each finding (severity and rule id first).
    /// A registration's short token comes before its app and device name, so it shows at
    /// 80 columns; its language, user key and what a save did follow on a row of their own.
    static func rows(_ r: ListenRecord) -> [(Role, String)] {
        let role: Role = r.status == 200 ? .listItem : .findingError
        var out: [(Role, String)]
        if r.kind == .registration {
            let time = r.clockTime
            out = [
                (
                    role,
                    "\(time) registration \(r.status) \(Escape.inline(r.token.map(Subscription.shortened) ?? "-")) \(Escape.inline(r.app ?? "-", limit: 64)) \"\(Escape.inline(r.deviceName ?? "", limit: 48))\""
                )
            ]
            // The device's language (canonical, so nothing to escape) picks its variants.
            var more = [r.locale.map { "language " + $0 } ?? "no language"]
            if let u = r.userKey, !u.isEmpty { more.append("user " + Escape.inline(u, limit: 48)) }
            if let saved = r.saved { more.append(saved) }
            out.append((r.saveFailed ? .findingError : .muted, "  " + more.joined(separator: " · ")))
        } else {
            let line = r.line
            out = [(role, line.components(separatedBy: "  | ").first ?? line)]
        }
        for f in r.findings {
            let role: Role =
                switch f.severity {
                case .error: .findingError
                case .warning: .findingWarning
                case .info: .findingInfo
                }
            out.append((role, "  \(f.severity.rawValue) \(f.rule): \(Escape.inline(f.message, limit: 400))"))
        }
        return out
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        buf.box(rect, role: .borderFocus, title: "Listen: registrations and tracking, newest first")
        let inner = rect.inset(1)
        guard inner.width > 2, inner.height > 0 else { return }
        let width = inner.width - 2
        let header = headerLines(width: width)
        var y = inner.y
        for (role, text) in header where y < inner.maxY {
            buf.put(" " + text, x: inner.x, y: y, role: role, maxX: inner.maxX)
            y += 1
        }
        guard y < inner.maxY else { return }
        buf.put(String(repeating: "─", count: inner.width), x: inner.x, y: y, role: .border, maxX: inner.maxX)
        y += 1
        if entries.isEmpty {
            if banner != nil, y < inner.maxY {
                buf.put(" No request yet.", x: inner.x, y: y, role: .muted, maxX: inner.maxX)
            }
            return
        }
        // Rows of every request; the selected one's first row kept in view.
        var all: [(Role, String, Bool)] = []
        var selectedRow = 0
        for (i, e) in entries.enumerated() {
            if i == selected { selectedRow = all.count }
            for (k, (role, text)) in Self.rows(e.record).enumerated() {
                all.append((role, text, i == selected && k == 0))
            }
        }
        let height = inner.maxY - y
        if selectedRow < v.top { v.top = selectedRow }
        if selectedRow >= v.top + height { v.top = selectedRow - height + 1 }
        v.top = max(0, min(v.top, max(0, all.count - height)))
        for (role, text, isSelected) in all.dropFirst(v.top).prefix(height) {
            if isSelected {
                buf.putPadded(" " + text, x: inner.x, y: y, columns: inner.width, role: .listSelected)
            } else {
                buf.put(" " + text, x: inner.x, y: y, role: role, maxX: inner.maxX)
            }
            y += 1
        }
    }
}

/// The server a Listen view runs, stopped once — by Esc on the input loop or by the job's
/// thread after a cancel, whichever comes first.
final class RunningServer: @unchecked Sendable {
    private let lock = NSLock()
    private var server: ListenServer?
    private var stopped = false

    /// False when the view was already closed: the caller stops the new server itself.
    func set(_ s: ListenServer) -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            server = s
            return true
        }
    }

    func stop() {
        let s = lock.withLock { () -> ListenServer? in
            stopped = true
            defer { server = nil }
            return server
        }
        s?.stop()
    }
}
