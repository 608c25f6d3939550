import Foundation

/// One scope of the store check, as both store checks use it. `all` checks every record of
/// the scope (`pushdesk validate`, `StoreValidation`); an instance keeps what it found for
/// the console (`IncrementalValidation`) and, given an edit, reruns the scope's checks only
/// for the records the edit changed. `RuleCatalog.storeScopes` lists them in report order.
/// Instances are used under `IncrementalValidation`'s lock only, hence `@unchecked Sendable`.
protocol StoreScope: AnyObject, Sendable {
    /// Every finding of the scope over the store, positioned.
    static func all(_ snapshot: StoreSnapshot, now: Date) -> [Finding]
    init(_ snapshot: StoreSnapshot, now: Date)
    /// The same findings as `all` over the snapshot with the edit's services and
    /// deliveries, rechecking only what changed since the last call.
    func findings(_ edit: StoreEdit) -> [Finding]
}

/// The services and deliveries being checked, and what changed in the services since the
/// last check: what a scope needs to know which of its records to check again.
struct StoreEdit {
    /// The loaded store (profiles, source maps, load errors).
    let snapshot: StoreSnapshot
    let services: [Service]
    let deliveries: [Delivery]
    let now: Date
    /// The services of the last check.
    let previous: [Service]
    /// Whether there are as many services as last time (positions can be compared).
    var sameShape: Bool { services.count == previous.count }
    /// Positions whose service differs from the last check's at that position (every
    /// position when the count changed).
    let changed: [Int]
    /// Per position, a number that changes whenever the service there changes value.
    let generations: [Int]
    /// The position and generation of the service each name resolves to: the first with
    /// that name, as in `DeliveryRules.check(_:now:)`.
    let resolved: [String: (index: Int, generation: Int)]
}

/// The console's versions of the services: a generation number per (name, value), so the
/// scopes can tell a changed service from one they have checked before.
final class ServiceVersions {
    private var byName: [String: (service: Service, generation: Int)] = [:]
    private var nextGeneration = 1
    private var last: [Service] = []
    private var lastGenerations: [Int] = []

    func edit(_ snapshot: StoreSnapshot, services list: [Service], deliveries: [Delivery], now: Date) -> StoreEdit {
        // Same position and value as last time, else same name and value, else a new version.
        let sameShape = list.count == last.count
        var generations: [Int] = []
        generations.reserveCapacity(list.count)
        var changed: [Int] = []
        for (i, s) in list.enumerated() {
            if sameShape, last[i] == s {
                generations.append(lastGenerations[i])
                continue
            }
            changed.append(i)
            if let v = byName[s.name], v.service == s {
                generations.append(v.generation)
                continue
            }
            byName[s.name] = (s, nextGeneration)
            generations.append(nextGeneration)
            nextGeneration += 1
        }
        var resolved: [String: (index: Int, generation: Int)] = [:]
        resolved.reserveCapacity(list.count)
        for (i, s) in list.enumerated() where resolved[s.name] == nil { resolved[s.name] = (i, generations[i]) }
        let edit = StoreEdit(
            snapshot: snapshot, services: list, deliveries: deliveries, now: now, previous: last, changed: changed,
            generations: generations, resolved: resolved)
        last = list
        lastGenerations = generations
        // Forget services gone from the list so the versions stay the size of the store.
        if byName.count > list.count * 2 + 16 {
            let names = Set(list.map(\.name))
            byName = byName.filter { names.contains($0.key) }
        }
        return edit
    }
}
