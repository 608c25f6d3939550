import Foundation

/// `StoreValidation.findings` for a snapshot whose services and deliveries are being
/// edited, recomputing only what an edit can change: each scope of the catalog
/// (`RuleCatalog.storeScopes`) keeps its findings and reruns its checks for the records the
/// edit changed — the services that differ from their last checked version, their
/// integration keys, the deliveries that differ or whose service did, the profiles when an
/// app's key changed. The console calls it on every edit; on a store of thousands of
/// records a full check costs around 100 ms, this well under a millisecond for a keystroke
/// in one service (docs/PERFORMANCE.md).
///
/// Same findings in the same order as `StoreValidation.findings(snapshot with services and
/// deliveries)`, with one difference: `expiration.past` uses the `now` given at creation.
public final class IncrementalValidation: @unchecked Sendable {
    /// The loaded store the edits are checked against (profiles, source maps, load errors).
    public let snapshot: StoreSnapshot
    private let now: Date
    private let lock = NSLock()
    private let versions = ServiceVersions()
    private let scopes: [any StoreScope]

    public init(_ snapshot: StoreSnapshot, now: Date = Date()) {
        self.snapshot = snapshot
        self.now = now
        scopes = RuleCatalog.storeScopes.map { $0.init(snapshot, now: now) }
    }

    /// The saved deliveries with these services.
    public func findings(services list: [Service]) -> [Finding] {
        findings(services: list, deliveries: snapshot.deliveries)
    }

    public func findings(services list: [Service], deliveries dlist: [Delivery]) -> [Finding] {
        lock.lock()
        defer { lock.unlock() }
        let edit = versions.edit(snapshot, services: list, deliveries: dlist, now: now)
        return scopes.flatMap { $0.findings(edit) }
    }
}
