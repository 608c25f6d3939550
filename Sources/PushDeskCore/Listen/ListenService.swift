import Foundation

/// What `pushdesk listen` does with each request (docs/LISTEN.md), apart from the network:
/// checks it against the store, answers, records it in `listen.jsonl`, matches tracking to
/// the send log, and with a profile saves a registration's device. The server calls
/// `handle` from several threads: the checks run side by side, the saves, the log and the
/// printed lines one request at a time, in one place.
public final class ListenService: @unchecked Sendable {
    public let store: Store
    /// `--profile NAME`: registrations with no error finding are saved there.
    public let profile: String?
    let sends: SendLogIndex
    let log: ListenLog.Writer
    let now: @Sendable () -> Date
    private var services: [Service] = []
    private var servicesLoaded: Date?
    private let lock = NSLock()
    /// Saves, the log and `onRecord`, one request at a time.
    private let commit = DispatchQueue(label: "pushdesk.listen.commit")
    /// Called after each request with its record (on the server's request queue).
    public var onRecord: (@Sendable (ListenRecord) -> Void)?
    /// The log could not be written: said once per failure kind, the requests still answered.
    public var onLogError: (@Sendable (String) -> Void)?

    public init(store: Store, profile: String?, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.profile = profile
        self.sends = SendLogIndex(storeRoot: store.root)
        self.log = ListenLog.Writer(storeRoot: store.root)
        self.now = now
    }

    /// The store's services, read again at most once a second (an operator may fix a key
    /// while the app keeps registering).
    func currentServices() -> [Service] {
        lock.withLock {
            let t = Date()
            if let loaded = servicesLoaded, t.timeIntervalSince(loaded) < 1 { return services }
            services = store.loadAll(readOnly: true).services
            servicesLoaded = t
            return services
        }
    }

    /// Reads the store's services now, before the server listens, so the first requests
    /// do not wait for the store to be read.
    public func preload() { _ = currentServices() }

    public func handle(_ request: ListenHTTPRequest) -> ListenHTTPResponse {
        let (response, record) = answer(request)
        finish(record)
        return response
    }

    /// The same on the server's event loop, for a request that saves nothing: the checks,
    /// then the answer at once, while its log line and printed line are written right after
    /// on the serial commit queue (in the order answered; nothing written can change an
    /// answer). Nil when it saves into a profile — a store save waits for the lock and the
    /// disk, so it goes to `handle` off the loop.
    public func handleWithoutSaving(_ request: ListenHTTPRequest) -> ListenHTTPResponse? {
        let (response, record) = answer(request)
        if record.pendingSave != nil { return nil }
        commit.async { self.commitRecord(record) }
        return response
    }

    /// Waits until every request answered so far is logged and printed (before the
    /// listener says it stopped).
    public func flush() { commit.sync {} }

    private func finish(_ record: ListenRecord) {
        commit.sync { commitRecord(record) }
    }

    /// On the commit queue: the save (if any), the log line, `onRecord`.
    private func commitRecord(_ record: ListenRecord) {
        var record = record
        if let sub = record.pendingSave, let profile { save(sub, profile: profile, into: &record) }
        do { try log.append(record) } catch {
            onLogError?("\(error)")
        }
        onRecord?(record)
    }

    /// The answer and the record; a device to save is left in `pendingSave`.
    func answer(_ request: ListenHTTPRequest) -> (ListenHTTPResponse, ListenRecord) {
        let path = request.path
        var record = ListenRecord(time: now(), remote: request.remote, kind: .other, path: path, status: 404)
        switch path {
        case ListenRules.registerIOSPath, ListenRules.registerAndroidPath:
            let platform: Platform = path == ListenRules.registerIOSPath ? .ios : .android
            record.kind = .registration
            record.platform = platform
            let check = ListenRules.checkRegistration(
                platform: platform, contentType: request.header("content-type"), body: request.body,
                oversized: request.oversizedBody, services: currentServices())
            record.findings = check.findings
            record.app =
                check.app?.integrationKey ?? check.registration?.integrationKey.flatMap { $0.isEmpty ? nil : $0 }
            record.token = check.registration?.token
            record.userKey = check.registration?.userKey
            record.deviceName = check.registration?.deviceName
            record.locale = check.registration?.locale?.description
            record.params = check.params ?? []
            if request.oversizedBody != nil {
                record.status = 413
                return (ListenHTTPResponse(status: 413, body: "Payload Too Large"), record)
            }
            if let error = check.findings.first(where: { $0.severity == .error }) {
                record.status = 400
                return (ListenHTTPResponse(status: 400, body: "\(error.rule): \(error.message)"), record)
            }
            record.status = 200
            if profile != nil, check.app != nil { record.pendingSave = record.registeredDevice }
            return (ListenHTTPResponse(status: 200, body: "OK"), record)
        case ListenRules.trackingPath where request.oversizedBody != nil:
            // A tracking request has no body: one over the limit is refused whatever it says.
            record.kind = .tracking
            record.status = 413
            record.params = nil
            return (ListenHTTPResponse(status: 413, body: "Payload Too Large"), record)
        case ListenRules.trackingPath:
            record.kind = .tracking
            record.status = 200
            record.params = nil
            let result = ListenRules.checkTracking(
                query: request.query, send: { id in self.lock.withLock { self.sends.send(messageId: id) } },
                deliveryId: { self.deliveryId(of: $0) })
            record.findings = result.findings
            if let hit = result.hit {
                record.messageId = hit.messageId
                record.deliveryId = hit.deliveryId
                record.event = hit.event
            }
            if let s = result.send {
                record.delivery = s.delivery
                record.app = s.app
                record.platform = currentServices().app(integrationKey: s.app)?.platform
                record.device = device(of: s)
                record.delay = record.time.timeIntervalSince(s.time)
            }
            return (ListenHTTPResponse(status: 200), record)
        default:
            record.findings = [ListenRules.unknownPath(path)]
            if request.oversizedBody != nil {
                record.status = 413
                return (ListenHTTPResponse(status: 413, body: "Payload Too Large"), record)
            }
            return (ListenHTTPResponse(status: 404, body: "Not Found"), record)
        }
    }

    /// The `_dId` a delivery sends (its tracking element's, else the placeholder's).
    func deliveryId(of delivery: String) -> String? {
        guard Store.isValidName(delivery), let d = try? store.load(Delivery.self, delivery) else { return nil }
        return (d.tracking ?? .placeholder).deliveryId
    }

    /// The subscription's label when the send's profile still has that device, else the
    /// shortened token as logged.
    func device(of s: SendLogIndex.Send) -> String? {
        if let name = s.profile, Store.isValidName(name), let p = try? store.load(Profile.self, name),
            let sub = p.subscriptions.first(where: { $0.app == s.app && $0.shortToken == s.token }),
            let label = sub.label, !label.isEmpty
        {
            return label
        }
        return s.token
    }

    /// Adds or updates the device in the profile (docs/LISTEN.md): a save like every save —
    /// atomic, under the store lock, refused when the file changed since it was read.
    func save(_ sub: Subscription, profile: String, into record: inout ListenRecord) {
        do {
            let what = try ListenProfileSave.save(sub, profile: profile, store: store)
            record.saved = [what, record.labelNote].compactMap { $0 }.joined(separator: " ")
        } catch {
            record.saved = "not saved: \(Escape.inline("\(error)", limit: 400))"
            record.saveFailed = true
        }
    }
}

/// Saving a registered device into a profile (docs/LISTEN.md), for `listen --profile` and the
/// console's Listen view.
public enum ListenProfileSave {
    /// Returns what was done (`added to profile ana`, `updated in profile ana`, `already in
    /// profile ana`); throws the store's error (locked, changed on disk, cannot write).
    public static func save(_ sub: Subscription, profile: String, store: Store) throws -> String {
        guard Store.isValidName(profile) else {
            throw StoreError(file: Profile.path(profile), "not a profile name (\(Store.nameRule))", kind: .io)
        }
        return try StoreLock.withLock(storeRoot: store.root, program: "pushdesk listen") {
            try update(
                sub, profile: profile,
                current: {
                    guard FileManager.default.fileExists(atPath: store.url(Profile.path(profile)).path) else {
                        return nil
                    }
                    let (p, _, fingerprint) = try store.loadRecord(Profile.self, profile)
                    return (p, fingerprint)
                },
                save: { _ = try store.save($0, baseline: $1) })
        }
    }

    /// The update itself, for a caller that already holds the store's lock (the console):
    /// `current` reads the profile as it is on disk now (nil when there is none), `save`
    /// writes it only if the file is still what was read (`baseline`).
    public static func update(
        _ sub: Subscription, profile: String, current: () throws -> (Profile, FileFingerprint)?,
        save: (Profile, RecordBaseline) throws -> Void
    ) throws -> String {
        guard Store.isValidName(profile) else {
            throw StoreError(file: Profile.path(profile), "not a profile name (\(Store.nameRule))", kind: .io)
        }
        var record: Profile
        let baseline: RecordBaseline
        if let (p, fingerprint) = try current() {
            record = p
            baseline = .read(fingerprint)
        } else {
            record = Profile(name: profile)
            baseline = .absent
        }
        let what: String
        if let i = record.subscriptions.firstIndex(where: { $0.app == sub.app && $0.token == sub.token }) {
            var updated = record.subscriptions[i]
            updated.userKey = sub.userKey ?? updated.userKey
            updated.label = sub.label ?? updated.label
            // A registration without a language keeps the one saved before.
            updated.locale = sub.locale ?? updated.locale
            if sub.kind == .fid { updated.kind = .fid }
            if updated == record.subscriptions[i] { return "already in profile \(profile)" }
            record.subscriptions[i] = updated
            what = "updated in profile \(profile)"
        } else {
            record.subscriptions.append(sub)
            what = "added to profile \(profile)"
        }
        try save(record, baseline)
        return what
    }
}
