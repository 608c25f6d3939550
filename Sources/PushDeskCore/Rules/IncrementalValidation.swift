import Foundation

/// `StoreValidation.findings` for a snapshot whose services and deliveries are being
/// edited, recomputing only what an edit can change: the rules of the services that differ
/// from their last checked version, the integration keys of those services, and the
/// deliveries that differ or whose service did. The console calls it on every edit; on a
/// store of thousands of records a full check costs around 100 ms, this well under a
/// millisecond for a keystroke in one service (docs/PERFORMANCE.md).
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

    private typealias Checked = (findings: [Finding], generation: Int)
    /// Last checked version of each service name: its findings (not positioned) and a
    /// generation number that changes whenever that version changes.
    private var services: [String: (service: Service, checked: Checked)] = [:]
    private var nextGeneration = 1
    /// The last list, position by position (an edit usually changes one position).
    private var lastServices: [Service] = []
    private var lastChecked: [Checked] = []
    private var keys = IntegrationKeyIndex([])

    /// Last checked version of each delivery name, the generation of the service it was
    /// checked against (0: no such service) and its findings (not positioned).
    private var deliveries: [String: (delivery: Delivery, service: Int, findings: [Finding])] = [:]
    /// The last delivery list with, position by position, its service's generation and its
    /// findings, and the positions of each service name's deliveries.
    private var lastDeliveries: [Delivery] = []
    private var lastDeliveryChecks: [(service: Int, findings: [Finding])] = []
    private var deliveriesOf: [String: [Int]] = [:]
    /// The profiles' findings (not positioned), kept while no edit changes an app's key or platform.
    private var profileFindings: [Finding]?

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
        lock.lock()
        defer { lock.unlock() }

        // Services: same position and value as last time, else same name and value, else check.
        let sameShape = list.count == lastServices.count
        var checked: [Checked] = []
        checked.reserveCapacity(list.count)
        var changed: [Int] = []
        for (i, s) in list.enumerated() {
            if sameShape, lastServices[i] == s {
                checked.append(lastChecked[i])
                continue
            }
            changed.append(i)
            if let c = services[s.name], c.service == s {
                checked.append(c.checked)
                continue
            }
            let c: Checked = (ServiceRules.check(service: s), nextGeneration)
            nextGeneration += 1
            services[s.name] = (s, c)
            checked.append(c)
        }
        if sameShape {
            for i in changed { keys.replace(at: i, old: lastServices[i], new: list[i]) }
            if changed.contains(where: { !ProfileRules.sameAppKeys(lastServices[$0], list[$0]) }) {
                profileFindings = nil
            }
        } else {
            keys = IntegrationKeyIndex(list)
            profileFindings = nil
        }
        // The generation of the service each name resolves to: the first with that name,
        // as in `DeliveryRules.check(_:now:)`.
        var resolved: [String: (index: Int, generation: Int)] = [:]
        resolved.reserveCapacity(list.count)
        for (i, s) in list.enumerated() where resolved[s.name] == nil { resolved[s.name] = (i, checked[i].generation) }

        // Deliveries: the same list as last time (the same storage, so the same values) needs
        // only those of the services whose resolution may have changed; else each is compared.
        let sameDeliveries = sameShape && Self.identical(dlist, lastDeliveries)
        var stale: [Int] = []
        if sameDeliveries {
            var names = Set<String>()
            for i in changed {
                names.insert(lastServices[i].name)
                names.insert(list[i].name)
            }
            for name in names {
                let gen = resolved[name]?.generation ?? 0
                for j in deliveriesOf[name] ?? [] where lastDeliveryChecks[j].service != gen { stale.append(j) }
            }
            stale.sort()
        } else {
            var checks: [(service: Int, findings: [Finding])] = []
            checks.reserveCapacity(dlist.count)
            deliveriesOf = [:]
            for (j, d) in dlist.enumerated() {
                deliveriesOf[d.service, default: []].append(j)
                let gen = resolved[d.service]?.generation ?? 0
                if let c = deliveries[d.name], c.service == gen, c.delivery == d {
                    checks.append((gen, c.findings))
                    continue
                }
                checks.append((gen, []))
                stale.append(j)
            }
            lastDeliveryChecks = checks
        }
        let resolvedNow = resolved
        let profiles = snapshot.profiles
        let now = now
        let unreadable = unreadable
        let fresh = Parallel.map(stale) { j -> (Int, [Finding]) in
            let d = dlist[j]
            if let at = resolvedNow[d.service] {
                return (
                    at.generation,
                    DeliveryRules.check(delivery: d, service: list[at.index], profiles: profiles, now: now)
                )
            }
            return (0, unreadable.contains(Service.path(d.service)) ? [] : [DeliveryRules.serviceMissing(d)])
        }
        // Two drafts may share a name for a moment: then the later one is cached, and the
        // other is checked again next time (still correct, as the value is compared).
        for (j, r) in zip(stale, fresh) {
            deliveries[dlist[j].name] = (dlist[j], r.0, r.1)
            lastDeliveryChecks[j] = r
        }

        lastServices = list
        lastChecked = checked
        lastDeliveries = dlist
        // Forget records gone from the lists so the caches stay the size of the store.
        if services.count > list.count * 2 + 16 {
            let names = Set(list.map(\.name))
            services = services.filter { names.contains($0.key) }
        }
        if deliveries.count > dlist.count * 2 + 16 {
            let names = Set(dlist.map(\.name))
            deliveries = deliveries.filter { names.contains($0.key) }
        }
        let perService = checked.flatMap(\.findings) + keys.findings(list)
        let perDelivery = lastDeliveryChecks.flatMap(\.findings)
        let perProfile =
            profileFindings
            ?? ProfileRules.check(
                profiles: snapshot.profiles, services: list, servicesUnreadable: snapshot.servicesUnreadable)
        profileFindings = perProfile
        return errorFindings + snapshot.positioned(perService) + snapshot.positioned(perDelivery)
            + snapshot.positioned(perProfile)
    }

    /// The same array storage: unchanged, as nothing can write to storage two arrays share.
    private static func identical(_ a: [Delivery], _ b: [Delivery]) -> Bool {
        a.count == b.count
            && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
