import Foundation

/// `StoreValidation.findings` for a snapshot whose services and deliveries are being
/// edited, recomputing only what an edit can change: the rules of the services that differ
/// from their last checked version, the store-wide integration-key check, and the deliveries
/// that differ or whose service did. The console calls it on every edit; on a store of
/// thousands of records a full check costs around 100 ms, this a millisecond or two
/// (docs/PERFORMANCE.md).
///
/// Same findings in the same order as `StoreValidation.findings(snapshot with services and
/// deliveries)`, with one difference: `expiration.past` uses the `now` given at creation.
public final class IncrementalValidation: @unchecked Sendable {
    /// The loaded store the edits are checked against (profiles, source maps, load errors).
    public let snapshot: StoreSnapshot
    private let now: Date
    private let lock = NSLock()
    private let errorFindings: [Finding]
    private let unreadable: Set<String>
    /// Last checked version of each service name: its findings (not positioned) and a
    /// generation number that changes whenever that version changes.
    private var services: [String: (service: Service, findings: [Finding], generation: Int)] = [:]
    /// Last checked version of each delivery name, the generation of the service it was
    /// checked against (0: no such service) and its findings (not positioned).
    private var deliveries: [String: (delivery: Delivery, service: Int, findings: [Finding])] = [:]
    private var nextGeneration = 1

    public init(_ snapshot: StoreSnapshot, now: Date = Date()) {
        self.snapshot = snapshot
        self.now = now
        errorFindings = StoreValidation.fileFindings(snapshot)
        unreadable = Set(snapshot.errors.map(\.file))
    }

    /// The saved deliveries with these services.
    public func findings(services list: [Service]) -> [Finding] {
        findings(services: list, deliveries: snapshot.deliveries)
    }

    public func findings(services list: [Service], deliveries dlist: [Delivery]) -> [Finding] {
        lock.lock(); defer { lock.unlock() }
        var perService: [Finding] = []
        // The generation of the service each name resolves to: the first with that name,
        // as in `DeliveryRules.check(_:now:)`.
        var resolved: [String: (index: Int, generation: Int)] = [:]
        resolved.reserveCapacity(list.count)
        for (i, s) in list.enumerated() {
            let entry: (service: Service, findings: [Finding], generation: Int)
            if let c = services[s.name], c.service == s {
                entry = c
            } else {
                entry = (s, ServiceRules.check(service: s), nextGeneration)
                nextGeneration += 1
                services[s.name] = entry
            }
            perService += entry.findings
            if resolved[s.name] == nil { resolved[s.name] = (i, entry.generation) }
        }
        perService += ServiceRules.duplicateIntegrationKeys(list)

        // Deliveries to check again: changed, new, or their service changed.
        var stale: [Int] = []
        var perRecord: [[Finding]] = []
        perRecord.reserveCapacity(dlist.count)
        for (i, d) in dlist.enumerated() {
            let gen = resolved[d.service]?.generation ?? 0
            if let c = deliveries[d.name], c.service == gen, c.delivery == d { perRecord.append(c.findings); continue }
            perRecord.append([])
            stale.append(i)
        }
        let resolvedNow = resolved, profiles = snapshot.profiles, now = now, unreadable = unreadable
        let fresh = Parallel.map(stale) { i -> (Int, [Finding]) in
            let d = dlist[i]
            if let at = resolvedNow[d.service] {
                return (at.generation, DeliveryRules.check(delivery: d, service: list[at.index], profiles: profiles, now: now))
            }
            return (0, unreadable.contains(Store.servicePath(d.service)) ? [] : [DeliveryRules.serviceMissing(d)])
        }
        // Two drafts may share a name for a moment: then the later one is cached, and the
        // other is checked again next time (still correct, as the value is compared).
        for (i, r) in zip(stale, fresh) {
            deliveries[dlist[i].name] = (dlist[i], r.0, r.1)
            perRecord[i] = r.1
        }
        let perDelivery = perRecord.flatMap { $0 }
        // Forget records gone from the lists so the caches stay the size of the store.
        if services.count > list.count * 2 + 16 {
            let names = Set(list.map(\.name)); services = services.filter { names.contains($0.key) }
        }
        if deliveries.count > dlist.count * 2 + 16 {
            let names = Set(dlist.map(\.name)); deliveries = deliveries.filter { names.contains($0.key) }
        }
        return errorFindings + snapshot.positioned(perService) + snapshot.positioned(perDelivery)
    }
}
