import Foundation
import PushDeskCore

/// What the console needs from the store: the core's Store and rules engine, bound
/// by `ConsoleStore.open(root:)`. Kept as a value of functions so the screens name
/// no file paths and every rule comes from PushDeskCore.
public struct ConsoleStore: Sendable {
    /// The store directory (file-path completion starts here).
    public var root: String
    /// Services and load errors (`FILE:LINE:COLUMN: error: MESSAGE`).
    public var load: @Sendable () -> (services: [Service], errors: [String])
    public var save: @Sendable (Service) throws -> Void
    public var delete: @Sendable (String) throws -> Void
    /// Every finding of the store with these services and deliveries in place of the saved ones.
    public var check: @Sendable (_ services: [Service], _ deliveries: [Delivery]) -> [Finding]
    /// Deliveries and sample profiles of the last `load`.
    public var deliveries: @Sendable () -> [Delivery] = { [] }
    public var profiles: @Sendable () -> [Profile] = { [] }
    public var saveDelivery: @Sendable (Delivery) throws -> Void = { _ in
        throw TerminalError(message: "this console cannot save deliveries")
    }
    public var deleteDelivery: @Sendable (String) throws -> Void = { _ in
        throw TerminalError(message: "this console cannot delete deliveries")
    }
    /// Secrets (passwords, server keys) go to the core's SecretStore, never to services/.
    public var setSecret: @Sendable (_ reference: String, _ value: String) throws -> Void = { _, _ in
        throw TerminalError(message: "this console has no secret store")
    }
    public var secretExists: @Sendable (_ reference: String) -> Bool = { _ in false }
    /// Service names at once (a directory listing), for a lazy first frame: StoreLoading.swift.
    public var index: @Sendable () -> [String] = { [] }
    /// How many record files the store holds (decides a lazy start), without reading them.
    public var fileCount: @Sendable () -> Int = { 0 }
    /// What a store file was when last loaded (`.absent` when it was not there): the
    /// baseline of an editor opened from that load.
    public var baseline: @Sendable (_ path: String) -> RecordBaseline = { _ in .absent }
    /// Saves only if the file is still what `baseline` says; throws `StoreConflict` otherwise.
    public var saveChecked: @Sendable (Service, RecordBaseline) throws -> FileFingerprint = { _, _ in
        throw TerminalError(message: "this console cannot check the store before saving")
    }
    /// Deletes a service file only if it is still what was loaded.
    public var deleteChecked: @Sendable (_ name: String, RecordBaseline) throws -> Void = { _, _ in
        throw TerminalError(message: "this console cannot check the store before deleting")
    }
    /// A service as it is on disk now, with its fingerprint (reload after a conflict, restore).
    public var loadCurrent: @Sendable (_ name: String) throws -> (Service, FileFingerprint) = { _ in
        throw TerminalError(message: "this console cannot read the store")
    }
    /// Deliveries' counterparts of `saveChecked`, `deleteChecked` and `loadCurrent`.
    public var saveDeliveryChecked: @Sendable (Delivery, RecordBaseline) throws -> FileFingerprint = { _, _ in
        throw TerminalError(message: "this console cannot check the store before saving")
    }
    public var deleteDeliveryChecked: @Sendable (_ name: String, RecordBaseline) throws -> Void = { _, _ in
        throw TerminalError(message: "this console cannot check the store before deleting")
    }
    public var loadCurrentDelivery: @Sendable (_ name: String) throws -> (Delivery, FileFingerprint) = { _ in
        throw TerminalError(message: "this console cannot read the store")
    }
    /// A store file's text as it is on disk now (for diffs); nil when absent or unreadable.
    public var readText: @Sendable (_ path: String) -> String? = { _ in nil }

    public init(
        root: String,
        load: @escaping @Sendable () -> (services: [Service], errors: [String]),
        save: @escaping @Sendable (Service) throws -> Void,
        delete: @escaping @Sendable (String) throws -> Void,
        check: @escaping @Sendable ([Service], [Delivery]) -> [Finding]
    ) {
        self.root = root
        self.load = load
        self.save = save
        self.delete = delete
        self.check = check
    }

    /// Store-relative file of a service (as findings name it).
    public static func servicePath(_ name: String) -> String { Store.servicePath(name) }
    /// Store-relative file of a delivery.
    public static func deliveryPath(_ name: String) -> String { Store.deliveryPath(name) }

    /// The console on a real store: loads and saves through `Store` (atomic writes), and
    /// checks with `StoreValidation` — what `pushdesk validate` reports: unreadable files,
    /// `ServiceRules`, `DeliveryRules` — on a snapshot with the edited services substituted.
    /// Every write first asks `access` (a read-only console writes nothing) and checks the
    /// file on disk is what was read.
    public static func open(_ store: Store, access: StoreAccess = .unlocked()) -> ConsoleStore {
        var c = bind(store)
        let secrets = SecretStore(storeRoot: store.root)
        c.setSecret = { ref, value in
            try access.checkWritable()
            try secrets.set(ref, to: SecretValue(value))
        }
        c.secretExists = { secrets.exists($0) }
        c.index = { (try? store.serviceNames()) ?? [] }
        c.fileCount = { ((try? store.serviceNames().count) ?? 0) + ((try? store.deliveryNames().count) ?? 0) }
        let save = c.save
        let delete = c.delete
        c.save = {
            try access.checkWritable()
            try save($0)
        }
        c.delete = {
            try access.checkWritable()
            try delete($0)
        }
        c.saveChecked = { service, baseline in
            try access.checkWritable()
            return try store.save(service, baseline: baseline)
        }
        c.deleteChecked = { name, baseline in
            try access.checkWritable()
            let path = Store.servicePath(name)
            try store.checkUnchanged(path, baseline: baseline)
            try store.deleteService(name)
        }
        c.loadCurrent = { name in
            let (s, _, fp) = try store.loadServiceRecord(name)
            return (s, fp)
        }
        // Deliveries: the same checks as services.
        let saveDelivery = c.saveDelivery
        let deleteDelivery = c.deleteDelivery
        c.saveDelivery = {
            try access.checkWritable()
            try saveDelivery($0)
        }
        c.deleteDelivery = {
            try access.checkWritable()
            try deleteDelivery($0)
        }
        c.saveDeliveryChecked = { delivery, baseline in
            try access.checkWritable()
            return try store.save(delivery, baseline: baseline)
        }
        c.deleteDeliveryChecked = { name, baseline in
            try access.checkWritable()
            try store.checkUnchanged(Store.deliveryPath(name), baseline: baseline)
            try store.deleteDelivery(name)
        }
        c.loadCurrentDelivery = { name in
            let (d, _, fp) = try store.loadDeliveryRecord(name)
            return (d, fp)
        }
        c.readText = { path in
            guard let (data, _) = try? FileFingerprint.read(store.url(path), maxBytes: XMLReader.maxFileBytes) else {
                return nil
            }
            return String(decoding: data, as: UTF8.self)
        }
        return c
    }

    private static func bind(_ store: Store) -> ConsoleStore {
        // The last loaded snapshot (deliveries, profiles, source positions) is what each
        // live check substitutes the drafts into, so typing does not re-read the store.
        // Checks are incremental (only the edited records, the integration-key check and the
        // deliveries of edited services are checked again), so typing stays instant on a large store.
        let last = SnapshotBox(IncrementalValidation(StoreSnapshot()))  // replaced by each load
        var c = ConsoleStore(
            root: store.root.path,
            load: {
                let snap = store.loadAll()
                last.set(IncrementalValidation(snap))
                return (snap.services, snap.errors.map { Sanitize.string($0.description) })
            },
            save: { try store.save($0) },
            delete: { try store.deleteService($0) },
            check: { services, deliveries in last.get().findings(services: services, deliveries: deliveries) })
        c.deliveries = { last.get().snapshot.deliveries }
        c.profiles = { last.get().snapshot.profiles }
        c.saveDelivery = { try store.save($0) }
        c.deleteDelivery = { try store.deleteDelivery($0) }
        c.baseline = { path in last.get().snapshot.fingerprints[path].map { .read($0) } ?? .absent }
        return c
    }
}

/// The checker of the last loaded snapshot, shared by the load and check closures.
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

/// The checked store operations for either kind of record (the console's generic paths:
/// save conflicts, reload, take-over).
extension ConsoleStore {
    func saveChecked<R: EditableRecord>(record r: R, _ b: RecordBaseline) throws -> FileFingerprint {
        if let s = r as? Service { return try saveChecked(s, b) }
        if let d = r as? Delivery { return try saveDeliveryChecked(d, b) }
        throw TerminalError(message: "cannot save a \(R.noun)")
    }
    func deleteChecked(_ kind: RecordKind, _ name: String, _ b: RecordBaseline) throws {
        switch kind {
        case .service: try deleteChecked(name, b)
        case .delivery: try deleteDeliveryChecked(name, b)
        }
    }
    func loadCurrent<R: EditableRecord>(_ type: R.Type, _ name: String) throws -> (R, FileFingerprint) {
        switch R.kind {
        case .service:
            let (s, fp) = try loadCurrent(name)
            return (s as! R, fp)
        case .delivery:
            let (d, fp) = try loadCurrentDelivery(name)
            return (d as! R, fp)
        }
    }
}
