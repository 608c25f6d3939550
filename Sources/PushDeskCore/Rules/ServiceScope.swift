import Foundation

/// The service scope (its own fields, its apps, its iOS pair): `ServiceRules.check(service:)`
/// per service, rerun for a service whose value changed.
final class ServiceScope: StoreScope, @unchecked Sendable {
    static func all(_ snapshot: StoreSnapshot, now: Date) -> [Finding] {
        snapshot.positioned(Parallel.map(snapshot.services) { ServiceRules.check(service: $0) }.flatMap { $0 })
    }

    /// Findings (not positioned) per service generation, and per position of the last list.
    private var byGeneration: [Int: [Finding]] = [:]
    private var last: [[Finding]] = []
    /// A check's results join `byGeneration` at the next check: the first `[Int: …]` a
    /// process fills makes the runtime scan every protocol conformance in the binary (about
    /// 0.5 M instructions), which the console's first frame need not wait for.
    private var unfiled: [(generation: Int, findings: [Finding])] = []

    init(_ snapshot: StoreSnapshot, now: Date) {}

    func findings(_ edit: StoreEdit) -> [Finding] {
        for u in unfiled { byGeneration[u.generation] = u.findings }
        unfiled = []
        var checked = edit.sameShape ? last : Array(repeating: [], count: edit.services.count)
        var stale: [Int] = []
        for i in edit.sameShape ? edit.changed : Array(edit.services.indices) {
            if let f = byGeneration[edit.generations[i]] { checked[i] = f } else { stale.append(i) }
        }
        let services = edit.services
        let fresh = Parallel.map(stale) { ServiceRules.check(service: services[$0]) }
        for (i, f) in zip(stale, fresh) {
            checked[i] = f
            unfiled.append((edit.generations[i], f))
        }
        last = checked
        if byGeneration.count > checked.count * 2 + 16 {
            let live = Set(edit.generations)
            byGeneration = byGeneration.filter { live.contains($0.key) }
        }
        return edit.snapshot.positioned(checked.flatMap { $0 })
    }
}

/// The integration keys across services: an index kept up to date as services change.
final class IntegrationKeyScope: StoreScope, @unchecked Sendable {
    static func all(_ snapshot: StoreSnapshot, now: Date) -> [Finding] {
        snapshot.positioned(ServiceRules.duplicateIntegrationKeys(snapshot.services))
    }

    private var keys = IntegrationKeyIndex([])

    init(_ snapshot: StoreSnapshot, now: Date) {}

    func findings(_ edit: StoreEdit) -> [Finding] {
        if edit.sameShape {
            for i in edit.changed { keys.replace(at: i, old: edit.previous[i], new: edit.services[i]) }
        } else {
            keys = IntegrationKeyIndex(edit.services)
        }
        return edit.snapshot.positioned(keys.findings(edit.services))
    }
}
