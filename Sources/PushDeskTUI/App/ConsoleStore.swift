import Foundation
import PushDeskCore

/// What the console needs from the store, so that screens name no file paths and every
/// rule comes from PushDeskCore. One real implementation, `ConsoleStore` (the core's
/// `Store`, rules and secrets); tests may substitute a fake.
public protocol ConsoleStorage: Sendable {
    /// The store directory (file-path completion starts here).
    var root: String { get }
    /// Services and load errors (`FILE:LINE:COLUMN: error: MESSAGE`).
    func load() -> (services: [Service], errors: [String])
    /// Every finding of the store with these services and deliveries in place of the saved ones.
    func check(_ services: [Service], _ deliveries: [Delivery]) -> [Finding]
    /// The services and their findings alone, for the first frame; `loadEverything` follows.
    func loadServices() -> LoadedStore
    /// Deliveries and sample profiles of the last `load`.
    func deliveries() -> [Delivery]
    func profiles() -> [Profile]
    /// Service names at once (a directory listing), for a lazy first frame: StoreLoading.swift.
    func index() -> [String]
    /// How many record files the store holds (decides a lazy start), without reading them.
    func fileCount() -> Int
    /// What a store file was when last loaded (`.absent` when it was not there): the
    /// baseline of an editor opened from that load.
    func baseline(_ path: String) -> RecordBaseline
    /// Saves only if the file is still what `baseline` says; throws `StoreConflict` otherwise.
    func saveChecked<R: EditableRecord>(record: R, _ baseline: RecordBaseline) throws -> FileFingerprint
    /// Deletes a record file only if it is still what `baseline` says.
    func deleteChecked<R: EditableRecord>(_ type: R.Type, _ name: String, _ baseline: RecordBaseline) throws
    /// A record as it is on disk now, with its fingerprint (reload after a conflict, restore).
    func loadCurrent<R: EditableRecord>(_ type: R.Type, _ name: String) throws -> (R, FileFingerprint)
    /// A store file's text as it is on disk now (for diffs); nil when absent or unreadable.
    func readText(_ path: String) -> String?
    /// Secrets (passwords, server keys) go to the core's SecretStore, never to services/.
    func setSecret(_ reference: String, _ value: String) throws
    func secretExists(_ reference: String) -> Bool
}

extension ConsoleStorage {
    /// Deletes a record file of any kind (its type is the kind's).
    func deleteChecked(_ kind: RecordKind, _ name: String, _ b: RecordBaseline) throws {
        try deleteChecked(kind.recordType, name, b)
    }
}

/// The console on a real store: loads and saves through `Store` (atomic writes), and
/// checks with `StoreValidation` — what `pushdesk validate` reports: unreadable files,
/// `ServiceRules`, `DeliveryRules` — on a snapshot with the edited services substituted.
/// Every write first asks `access` (a read-only console writes nothing) and checks the
/// file on disk is what was read.
public final class ConsoleStore: ConsoleStorage {
    private let store: Store
    private let access: StoreAccess
    private let secrets: SecretStore
    /// The last loaded snapshot (deliveries, profiles, source positions) is what each live
    /// check substitutes the drafts into, so typing does not re-read the store. Checks are
    /// incremental (only the edited records, the integration-key check and the deliveries of
    /// edited services are checked again), so typing stays instant on a large store.
    private let last = SnapshotBox(IncrementalValidation(StoreSnapshot()))

    public var root: String { store.root.path }

    fileprivate init(_ store: Store, access: StoreAccess, environment: [String: String]) {
        self.store = store
        self.access = access
        secrets = SecretStore(storeRoot: store.root, environment: environment)
    }

    public func load() -> (services: [Service], errors: [String]) {
        let snap = store.loadAll()
        last.set(IncrementalValidation(snap))
        return (snap.services, snap.errors.map { Sanitize.string($0.description) })
    }

    public func loadServices() -> LoadedStore {
        let snap = store.loadServices()
        last.set(IncrementalValidation(snap))
        return LoadedStore(
            services: snap.services, errors: snap.errors.map { Sanitize.string($0.description) }, deliveries: [],
            profiles: [], findings: check(snap.services, []))
    }

    public func check(_ services: [Service], _ deliveries: [Delivery]) -> [Finding] {
        last.get().findings(services: services, deliveries: deliveries)
    }

    public func deliveries() -> [Delivery] { last.get().snapshot.deliveries }
    public func profiles() -> [Profile] { last.get().snapshot.profiles }
    public func index() -> [String] { (try? store.names(Service.self)) ?? [] }
    public func fileCount() -> Int {
        ((try? store.names(Service.self).count) ?? 0) + ((try? store.names(Delivery.self).count) ?? 0)
    }
    public func baseline(_ path: String) -> RecordBaseline {
        last.get().snapshot.fingerprints[path].map { .read($0) } ?? .absent
    }

    public func saveChecked<R: EditableRecord>(record: R, _ baseline: RecordBaseline) throws -> FileFingerprint {
        try access.checkWritable()
        return try store.save(record, baseline: baseline)
    }

    public func deleteChecked<R: EditableRecord>(_ type: R.Type, _ name: String, _ baseline: RecordBaseline) throws {
        try access.checkWritable()
        try store.delete(type, name, baseline: baseline)
    }

    public func loadCurrent<R: EditableRecord>(_ type: R.Type, _ name: String) throws -> (R, FileFingerprint) {
        let (r, _, fp) = try store.loadRecord(type, name)
        return (r, fp)
    }

    public func readText(_ path: String) -> String? {
        guard let (data, _) = try? FileFingerprint.read(store.url(path), maxBytes: XMLReader.maxFileBytes) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    public func setSecret(_ reference: String, _ value: String) throws {
        try access.checkWritable()
        try secrets.set(reference, to: SecretValue(value))
    }

    public func secretExists(_ reference: String) -> Bool { secrets.exists(reference) }
}

extension ConsoleStorage where Self == ConsoleStore {
    /// The console on `store` (`ConsoleApp(store: .open(store))`); every write first asks `access`.
    /// `environment` holds the secrets given as variables (`SecretStore`); the runner passes
    /// the one it read at start (each read of the process environment builds it anew).
    public static func open(
        _ store: Store, access: StoreAccess = .unlocked(),
        environment: [String: String] = ProcessEnvironment.read()
    ) -> ConsoleStore {
        ConsoleStore(store, access: access, environment: environment)
    }
}

/// The checker of the last loaded snapshot, shared by load and check.
private final class SnapshotBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: IncrementalValidation
    init(_ v: IncrementalValidation) { value = v }
    func get() -> IncrementalValidation {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set(_ v: IncrementalValidation) {
        lock.lock()
        value = v
        lock.unlock()
    }
}
