import Foundation

/// The delivery scope (a delivery and each of its targets): `DeliveryRules.check(delivery:…)`
/// against the service the delivery names, rerun for a delivery that changed or whose
/// service did.
final class DeliveryScope: StoreScope, @unchecked Sendable {
    static func all(_ snapshot: StoreSnapshot, now: Date) -> [Finding] {
        DeliveryRules.check(snapshot, now: now)
    }

    private let unreadable: Set<String>
    /// Last checked version of each delivery name, the generation of the service it was
    /// checked against (0: no such service) and its findings (not positioned).
    private var byName: [String: (delivery: Delivery, service: Int, findings: [Finding])] = [:]
    /// The last delivery list with, position by position, its service's generation and its
    /// findings, and the positions of each service name's deliveries.
    private var last: [Delivery] = []
    private var lastChecks: [(service: Int, findings: [Finding])] = []
    private var positionsOf: [String: [Int]] = [:]

    init(_ snapshot: StoreSnapshot, now: Date) {
        unreadable = Set(snapshot.errors.map(\.file))
    }

    func findings(_ edit: StoreEdit) -> [Finding] {
        let dlist = edit.deliveries
        let resolved = edit.resolved
        // The same list as last time (the same storage, so the same values) needs only those
        // of the services whose resolution may have changed; else each is compared.
        var stale: [Int] = []
        if edit.sameShape && Self.identical(dlist, last) {
            var names = Set<String>()
            for i in edit.changed {
                names.insert(edit.previous[i].name)
                names.insert(edit.services[i].name)
            }
            for name in names {
                let gen = resolved[name]?.generation ?? 0
                for j in positionsOf[name] ?? [] where lastChecks[j].service != gen { stale.append(j) }
            }
            stale.sort()
        } else {
            var checks: [(service: Int, findings: [Finding])] = []
            checks.reserveCapacity(dlist.count)
            positionsOf = [:]
            for (j, d) in dlist.enumerated() {
                positionsOf[d.service, default: []].append(j)
                let gen = resolved[d.service]?.generation ?? 0
                if let c = byName[d.name], c.service == gen, c.delivery == d {
                    checks.append((gen, c.findings))
                    continue
                }
                checks.append((gen, []))
                stale.append(j)
            }
            lastChecks = checks
        }
        let list = edit.services
        let profiles = edit.snapshot.profiles
        let now = edit.now
        let unreadable = unreadable
        let fresh = Parallel.map(stale) { j -> (Int, [Finding]) in
            let d = dlist[j]
            if let at = resolved[d.service] {
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
            byName[dlist[j].name] = (dlist[j], r.0, r.1)
            lastChecks[j] = r
        }
        last = dlist
        // Forget deliveries gone from the list so the cache stays the size of the store.
        if byName.count > dlist.count * 2 + 16 {
            let names = Set(dlist.map(\.name))
            byName = byName.filter { names.contains($0.key) }
        }
        return edit.snapshot.positioned(lastChecks.flatMap(\.findings))
    }

    /// The same array storage: unchanged, as nothing can write to storage two arrays share.
    private static func identical(_ a: [Delivery], _ b: [Delivery]) -> Bool {
        a.count == b.count
            && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
