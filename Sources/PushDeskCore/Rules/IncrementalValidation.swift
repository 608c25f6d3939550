import Foundation

/// `StoreValidation.findings` for a snapshot whose services are being edited, recomputing
/// only what an edit can change: the rules of the services that differ from the last call,
/// the store-wide integration-key check, and the deliveries of those services. The console
/// calls it on every keystroke; on a store of thousands of records a full check costs
/// around 100 ms, this a millisecond or two (docs/PERFORMANCE.md).
///
/// Same findings in the same order as `StoreValidation.findings(snapshot with services)`,
/// with one difference: `expiration.past` uses the `now` of the first check of each delivery.
public final class IncrementalValidation: @unchecked Sendable {
    private let base: StoreSnapshot
    private let now: Date
    private let lock = NSLock()
    private let errorFindings: [Finding]
    private let unreadable: Set<String>
    /// Last checked version of each service name, with its findings (not positioned).
    private var services: [String: (service: Service, findings: [Finding])] = [:]
    /// Findings of each delivery (by index in `base.deliveries`), not positioned.
    private var deliveries: [Int: [Finding]] = [:]
    private var presentNames: Set<String> = []

    public init(_ snapshot: StoreSnapshot, now: Date = Date()) {
        base = snapshot
        self.now = now
        errorFindings = StoreValidation.fileFindings(snapshot)
        unreadable = Set(snapshot.errors.map(\.file))
    }

    public func findings(services list: [Service]) -> [Finding] {
        lock.lock(); defer { lock.unlock() }
        var snap = base
        snap.services = list
        var changed: Set<String> = []
        var perService: [Finding] = []
        for s in list {
            if let c = services[s.name], c.service == s {
                perService += c.findings
            } else {
                let f = ServiceRules.check(service: s)
                services[s.name] = (s, f)
                perService += f
                changed.insert(s.name)
            }
        }
        let names = Set(list.map(\.name))
        changed.formUnion(presentNames.subtracting(names))  // removed or renamed away
        presentNames = names
        perService += ServiceRules.duplicateIntegrationKeys(list)

        var index: [String: Int] = [:]
        for (i, s) in list.enumerated() where index[s.name] == nil { index[s.name] = i }
        var perDelivery: [Finding] = []
        for (i, d) in base.deliveries.enumerated() {
            if let f = deliveries[i], !changed.contains(d.service) { perDelivery += f; continue }
            let f: [Finding]
            if let at = index[d.service] {
                f = DeliveryRules.check(delivery: d, service: list[at], profiles: base.profiles, now: now)
            } else {
                f = unreadable.contains(Store.servicePath(d.service)) ? [] : [DeliveryRules.serviceMissing(d)]
            }
            deliveries[i] = f
            perDelivery += f
        }
        return errorFindings + snap.positioned(perService) + snap.positioned(perDelivery)
    }
}
