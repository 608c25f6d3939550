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

    public init(root: String,
                load: @escaping @Sendable () -> (services: [Service], errors: [String]),
                save: @escaping @Sendable (Service) throws -> Void,
                delete: @escaping @Sendable (String) throws -> Void,
                check: @escaping @Sendable ([Service], [Delivery]) -> [Finding]) {
        self.root = root; self.load = load; self.save = save; self.delete = delete; self.check = check
    }

    /// Store-relative file of a service (as findings name it).
    public static func servicePath(_ name: String) -> String { Store.servicePath(name) }
    /// Store-relative file of a delivery.
    public static func deliveryPath(_ name: String) -> String { Store.deliveryPath(name) }

    /// The console on a real store: loads and saves through `Store` (atomic writes), and
    /// checks with `StoreValidation` — what `pushdesk validate` reports: unreadable files,
    /// `ServiceRules`, `DeliveryRules` — on a snapshot with the edited services substituted.
    public static func open(_ store: Store) -> ConsoleStore {
        var c = bind(store)
        let secrets = SecretStore(storeRoot: store.root)
        c.setSecret = { ref, value in try secrets.set(ref, to: SecretValue(value)) }
        c.secretExists = { secrets.exists($0) }
        return c
    }

    private static func bind(_ store: Store) -> ConsoleStore {
        // The last loaded snapshot (deliveries, profiles, source positions) is what each
        // live check substitutes the drafts into, so typing does not re-read the store.
        let last = SnapshotBox(StoreSnapshot())  // filled by the first load
        var c = ConsoleStore(
            root: store.root.path,
            load: {
                let snap = store.loadAll()
                last.set(snap)
                return (snap.services, snap.errors.map { Sanitize.string($0.description) })
            },
            save: { try store.save($0) },
            delete: { try store.deleteService($0) },
            check: { services, deliveries in
                var snap = last.get()
                snap.services = services
                snap.deliveries = deliveries
                return StoreValidation.findings(snap)
            })
        c.deliveries = { last.get().deliveries }
        c.profiles = { last.get().profiles }
        c.saveDelivery = { try store.save($0) }
        c.deleteDelivery = { try store.deleteDelivery($0) }
        return c
    }
}

/// The last snapshot, shared by the load and check closures.
private final class SnapshotBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: StoreSnapshot
    init(_ v: StoreSnapshot) { value = v }
    func get() -> StoreSnapshot { lock.lock(); defer { lock.unlock() }; return value }
    func set(_ v: StoreSnapshot) { lock.lock(); value = v; lock.unlock() }
}
