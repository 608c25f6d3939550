import Foundation
import PushDeskCore

/// The composer's Send test and Dry run (docs/SENDING.md): pick the test devices
/// (every subscription of the store's profiles to this service's apps, or one profile's),
/// confirm — the dialog names the production apps — then one row per device, filled in as
/// each answer arrives (the send runs on a background thread, one device at a time over
/// the sender's shared connections; Esc cancels the request in flight and closes them), and the results stay
/// until Esc: outcome, status, reason, hint, apns-id / apns-unique-id. A send blocked by
/// error findings shows them and sends nothing. The send log gets every request made.
final class SendScreen: StatefulScreen, Asking {
    let delivery: Delivery
    let service: Service
    let dryRun: Bool
    /// Profiles with at least one subscription to an app of the service.
    let profiles: [Profile]
    /// The iOS apps' channels a Live Activity update or end can be broadcast to (docs/SENDING.md).
    let channels: [(app: IOSApp, channel: BroadcastChannel)]
    enum Phase: Equatable { case choosing, blocked, sending, done }
    private(set) var phase: Phase = .choosing
    private(set) var plan: SendPlan?
    /// One per device of the plan, in order; nil until its answer arrives.
    private(set) var results: [SendResult?] = []
    /// The sender's latest progress (a retry wait).
    private(set) var progress: String?
    private(set) var logError: String?
    /// The send, once started (Esc cancels it; so does the view leaving the stack).
    private var job: Job?
    private let storeRoot: URL
    private let environment: [String: String]
    private let now: Date

    enum Event: Sendable {
        case result(Int, SendResult)
        case progress(String)
        case failed(String)
        case done(logError: String?)
    }

    struct View { var table = TableView(columns: SendScreen.columns) }
    var view = View()
    static let columns: [TableView.Column] = [
        .init("App", width: 18), .init("Device", width: 12), .init("Token", width: 13), .init("Outcome", width: 10),
        .init("Status", width: 6), .init("Reason"),
    ]

    private init(delivery: Delivery, service: Service, dryRun: Bool, app: AppContext) {
        self.delivery = delivery
        self.service = service
        self.dryRun = dryRun
        let keys = Set(service.apps.map(\.integrationKey))
        profiles = app.profiles.filter { $0.subscriptions.contains { keys.contains($0.app) } }
        channels = Self.broadcastChannels(delivery, service)
        storeRoot = URL(fileURLWithPath: app.storeRoot)
        environment = app.environment
        now = app.clock()
    }

    /// What the composer's Send test / Dry run answers: this view and its first question,
    /// or a message when there is no test device to send to.
    static func start(delivery: Delivery, dryRun: Bool, app: AppContext) -> Effect {
        guard let service = app.currentService(named: delivery.service) else {
            return .say("The delivery's service '\(delivery.service)' does not exist: choose one (Content tab).")
        }
        let screen = SendScreen(delivery: delivery, service: service, dryRun: dryRun, app: app)
        guard !screen.profiles.isEmpty || !screen.channels.isEmpty else {
            return .inform(
                dryRun ? "Dry run" : "Send test",
                "No test device subscribes to an app of \(service.name).\nAdd one in Test devices: \(testDevicesKey) on the services list (Esc to get there)."
            )
        }
        return .all([.push(screen), screen.askDevices()])
    }

    /// The key that opens Test devices, as the registry binds it.
    static var testDevicesKey: String {
        KeyRegistry.bindings(in: [.servicesList]).first { $0.action == .testDevices }?.keys.first?.label ?? "t"
    }

    var verb: String { dryRun ? "Dry run" : "Send test" }
    var title: String { "\(verb) › \(delivery.name)" }
    var contexts: [KeyContext] { phase == .choosing ? [] : [.list] }
    var textFocused: Bool { false }
    func handleText(_ key: Key, app: AppContext) -> Bool { false }

    func devices(of p: Profile) -> [Subscription] {
        p.subscriptions.filter { s in service.apps.contains { $0.integrationKey == s.app } }
    }

    func askDevices() -> Effect {
        let all = profiles.flatMap(devices)
        var options: [String] = []
        var replies: [Reply] = []
        if !profiles.isEmpty {
            options.append(
                "All test devices (\(all.count) in \(profiles.count) profile\(profiles.count == 1 ? "" : "s"))")
            replies.append(.devices(nil))
        }
        for (i, p) in profiles.enumerated() {
            options.append(
                "Profile \(p.name) (\(devices(of: p).count) device\(devices(of: p).count == 1 ? "" : "s"))")
            replies.append(.devices(i))
        }
        for (i, c) in channels.enumerated() {
            let label = c.channel.label.isEmpty ? c.channel.id : c.channel.label
            options.append(
                "Channel “\(Escape.inline(label, limit: 30))” of \(Escape.inline(c.app.label, limit: 30)) (broadcast)")
            replies.append(.channel(i))
        }
        return .ask(
            self,
            .choices("\(verb): which test devices?", options: options, selected: 0) { i in
                i.map { replies[$0] } ?? Reply.cancel
            })
    }

    enum Reply {
        /// nil: every profile's devices.
        case devices(Int?)
        /// One of `channels`: a broadcast instead of devices.
        case channel(Int)
        case send
        case cancel
    }

    func answer(_ reply: Reply, app: AppContext) -> Effect {
        switch reply {
        case .cancel: return .all([.pop, .say("\(verb) cancelled: nothing was sent.")])
        case .devices(let which): return makePlan(which.map { [profiles[$0]] } ?? profiles, app: app)
        case .channel(let i):
            let c = channels[i]
            return confirm(
                SendPlan.broadcast(delivery: delivery, service: service, app: c.app, channel: c.channel, now: now))
        case .send: return start()
        }
    }

    /// One plan for the chosen profiles (SendPlan.make per profile, joined); blocked → the findings.
    private func makePlan(_ chosen: [Profile], app: AppContext) -> Effect {
        let plans = chosen.map { p in
            SendPlan.make(
                delivery: delivery, service: service, profile: p, appKey: nil, token: nil, allServices: app.services,
                now: now)
        }
        guard var joined = plans.first else { return .pop }
        for one in plans.dropFirst() {
            joined.items += one.items
            for b in one.blocked where !joined.blocked.contains(where: { $0.app == b.app && $0.finding == b.finding }) {
                joined.blocked.append(b)
            }
        }
        return confirm(joined)
    }

    /// The plan chosen: its blocking findings, or the question before sending.
    private func confirm(_ joined: SendPlan) -> Effect {
        plan = joined
        results = Array(repeating: nil, count: joined.items.count)
        if joined.isBlocked {
            phase = .blocked
            return .say(
                "\(verb) blocked by \(joined.blocked.count) error finding\(joined.blocked.count == 1 ? "" : "s"): nothing was sent."
            )
        }
        // Devices the push type does not reach (Android, for a type only iOS has) are not counted.
        let sent = joined.items.filter { $0.skip == nil }
        let production = Set(
            sent.compactMap { i -> String? in
                switch i.app {
                case .ios(let a) where a.environment == .production: "\(a.integrationKey) (iOS production)"
                case .android(let a): "\(a.integrationKey) (Android: FCM has no sandbox)"
                default: nil
                }
            }
        ).sorted()
        let to =
            joined.items.first?.channel != nil
            ? "the subscribers of channel \(Escape.inline(joined.items[0].channel ?? ""))"
            : "\(sent.count) device\(sent.count == 1 ? "" : "s")"
        var message =
            dryRun
            ? "Dry run of \(delivery.name) for \(to): FCM validates only, APNs is skipped.\nNothing reaches a device."
            : "Send \(delivery.name) to \(to)?"
        let skipped = joined.items.count - sent.count
        if skipped > 0 {
            message +=
                "\n\(skipped) Android device\(skipped == 1 ? "" : "s") skipped: \(delivery.ios.effectiveType.name) is iOS only."
        }
        if !dryRun {
            message +=
                production.isEmpty
                ? "\nEvery app is an iOS sandbox app."
                : "\nProduction apps: \(production.joined(separator: ", ")).\nTheir devices get a real notification."
        }
        return .ask(
            self,
            .buttons(
                verb, message, [(dryRun ? "Run" : "Send", .send), ("Cancel", .cancel)],
                focus: production.isEmpty || dryRun ? 0 : 1, cancel: .cancel))
    }

    /// The send, off the input loop: one device at a time (Esc cancels the one in flight and
    /// sends no more), then the send log: every device that made a request, the cancelled one
    /// included (docs/SENDING.md).
    private func start() -> Effect {
        guard let plan else { return .none }
        phase = .sending
        let (root, env, dry) = (storeRoot, environment, dryRun)
        let job = Job.make(
            .view, owner: self,
            work: { (mailbox: JobContext<Event>) in
                Self.send(plan, root: root, environment: env, dryRun: dry, mailbox)
            },
            onEvent: { [weak self] e, _ in
                self?.receive(e)
                return .none
            },
            onResult: { _, _ in .none })
        self.job = job
        return .run(job)
    }

    /// On the job's thread.
    private static func send(
        _ plan: SendPlan, root: URL, environment env: [String: String], dryRun dry: Bool,
        _ mailbox: JobContext<Event>
    ) {
        let session: PushSession
        do {
            session = try PushSession(storeRoot: root, environment: env, cancellation: mailbox.cancellation)
        } catch {
            mailbox.post(.failed("\(error)"))
            mailbox.post(.done(logError: nil))
            return
        }
        session.progress = { mailbox.post(.progress($0)) }
        var report: SendReport?
        for (i, item) in plan.items.enumerated() where !mailbox.isCancelled {
            var one = plan
            one.items = [item]
            let r = session.send(one, dryRun: dry)
            if report == nil { report = r } else { report?.results += r.results }
            if let first = r.results.first { mailbox.post(.result(i, first)) }
        }
        session.close()
        var logError: String?
        if let report {
            do { try session.log(report) } catch { logError = "\(error)" }
        }
        mailbox.post(.done(logError: logError))
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if action == .back {
            if phase == .sending, let job {
                let n = results.compactMap { $0 }.count
                return .all([
                    .cancel(job), .pop,
                    .say("\(verb) stopped after \(n) of \(results.count) devices; the send log has what was sent."),
                ])
            }
            return .pop
        }
        return view.table.handle(action) ? Effect.none : nil
    }

    /// An answer of the send, on the run loop.
    private func receive(_ e: Event) {
        switch e {
        case .result(let i, let r): if results.indices.contains(i) { results[i] = r }
        case .progress(let p): progress = p
        case .failed(let why):
            logError = nil
            progress = "Not sent: " + why
        case .done(let err):
            phase = .done
            logError = err
        }
    }

    /// Brings the rows up to date with the answers in.
    func update(_ rect: Rect, app: AppContext) {
        guard let plan else { return }
        let keep = view.table.selectedRow
        view.table.setRows(
            plan.items.enumerated().map { i, item -> [String] in
                let r = results[i]
                return [
                    item.target.app, item.channel != nil ? "(channel)" : item.device ?? item.profile ?? "",
                    item.channel ?? Subscription.shortened(item.token),
                    r?.outcome.rawValue ?? (phase == .sending ? "sending…" : "not sent"),
                    r?.status.map(String.init) ?? "",
                    r?.reason ?? "",
                ].map { Escape.inline($0, limit: 200) }
            },
            roles: results.map { r -> Role? in
                switch r?.outcome {
                case .rejected?, .failed?: .findingError
                case .skipped?: .findingWarning
                default: nil
                }
            })
        if let keep { view.table.select(row: keep) }
    }

    /// The selected device's answer in full.
    func details(_ i: Int) -> [(String, String)] {
        guard let r = results[i] else {
            return [("Outcome", phase == .sending ? "waiting for the answer…" : "not sent")]
        }
        var out: [(String, String)] = [("Outcome", r.outcome.rawValue), ("Status", r.status.map(String.init) ?? "—")]
        if let v = r.reason { out.append(("Reason", v)) }
        if let v = r.hint { out.append(("Hint", v)) }
        if let v = r.apnsId { out.append(("apns-id", v)) }
        if let v = r.apnsUniqueId { out.append(("apns-unique-id", v)) }
        if let v = r.messageName { out.append(("Message", v)) }
        out.append(("Attempts", "\(r.attempts), \(r.bytes) bytes, \(r.ms) ms"))
        return out.map { ($0.0, Escape.inline($0.1, limit: 1000)) }
    }

    var summary: String {
        switch phase {
        case .choosing: return ""
        case .blocked: return "Blocked: nothing was sent. Fix the findings below (Esc back to the composer)."
        case .sending:
            let n = results.compactMap { $0 }.count
            return "\(verb): \(n) of \(results.count) answered… (Esc stops)" + (progress.map { " · " + $0 } ?? "")
        case .done:
            let rs = results.compactMap { $0 }
            let parts = SendOutcome.allCases.compactMap { o -> String? in
                let n = rs.filter { $0.outcome == o }.count
                return n == 0 ? nil : "\(n) \(o.rawValue)"
            }
            return "Done: " + (parts.isEmpty ? "nothing sent" : parts.joined(separator: ", "))
                + (logError.map { " · send log NOT written: \($0)" } ?? "") + (progress.map { " · \($0)" } ?? "")
                + ". Esc closes."
        }
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        guard phase != .choosing else { return }
        buf.put(
            " " + Escape.inline(summary, limit: 400), x: rect.x, y: rect.y,
            role: phase == .blocked ? .findingError : .muted, maxX: rect.maxX)
        let body = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
        if phase == .blocked {
            buf.box(body, role: .borderFocus, title: "Blocking findings")
            let inner = body.inset(1)
            var y = inner.y
            for b in plan?.blocked ?? [] where y < inner.maxY {
                let text =
                    "error \(b.app.map { $0 + ": " } ?? "")\(b.finding.field.isEmpty ? "" : "\(b.finding.field): ")\(b.finding.message) [\(b.finding.rule)]"
                for l in TextWidth.wrap(Escape.inline(text, limit: 600), to: inner.width - 1) where y < inner.maxY {
                    buf.put(" " + l, x: inner.x, y: y, role: .findingError, maxX: inner.maxX)
                    y += 1
                }
            }
            return
        }
        let info = v.table.selectedRow.map(details) ?? []
        let (tb, db) = body.splitBottom(DetailsPanel.height(for: info, in: body, extra: 1))
        buf.box(tb, role: .borderFocus, title: "Devices")
        v.table.render(into: &buf, tb.inset(1), focused: true)
        DetailsPanel.render(into: &buf, db, title: "Selected device", rows: info)
    }
}

extension SendScreen {
    /// The channels of the service's iOS apps, for a Live Activity update or end (a start
    /// is not broadcast: `channel.start`).
    static func broadcastChannels(_ d: Delivery, _ service: Service) -> [(app: IOSApp, channel: BroadcastChannel)] {
        guard d.ios.effectiveType == .liveactivity, let event = d.liveActivity?.knownEvent, event != .start else {
            return []
        }
        return service.apps.flatMap { app -> [(app: IOSApp, channel: BroadcastChannel)] in
            guard case .ios(let a) = app else { return [] }
            return a.channels.map { (a, $0) }
        }
    }
}
