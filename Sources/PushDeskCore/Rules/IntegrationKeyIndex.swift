/// Where each integration key of a service list is used — (service, app) positions in list
/// order — and which keys are used more than once. `ServiceRules.duplicateIntegrationKeys`
/// builds it for a list; the console's `IncrementalValidation` keeps one up to date as a
/// service is edited (a few keys change, the other thousands stay), so both report the
/// same `integration-key.duplicate` findings from the same code.
struct IntegrationKeyIndex {
    typealias Place = (service: Int, app: Int)
    private(set) var owners: [String: [Place]] = [:]
    private(set) var duplicated: Set<String> = []

    init(_ services: [Service]) {
        owners.reserveCapacity(services.count * 3)
        for (si, s) in services.enumerated() {
            for (i, app) in s.apps.enumerated() where !app.integrationKey.isEmpty {
                owners[app.integrationKey, default: []].append((si, i))
                if owners[app.integrationKey]!.count == 2 { duplicated.insert(app.integrationKey) }
            }
        }
    }

    /// The service at `position` changed from `old` to `new`: its keys move.
    mutating func replace(at position: Int, old: Service, new: Service) {
        for (i, app) in old.apps.enumerated() where !app.integrationKey.isEmpty {
            remove(app.integrationKey, (position, i))
        }
        for (i, app) in new.apps.enumerated() where !app.integrationKey.isEmpty {
            add(app.integrationKey, (position, i))
        }
    }

    private mutating func add(_ key: String, _ place: Place) {
        var list = owners[key] ?? []
        // Kept in list order, as a fresh index would have them.
        let at =
            list.firstIndex { $0.service > place.service || ($0.service == place.service && $0.app > place.app) }
            ?? list.count
        list.insert(place, at: at)
        owners[key] = list
        if list.count == 2 { duplicated.insert(key) }
    }

    private mutating func remove(_ key: String, _ place: Place) {
        guard var list = owners[key], let at = list.firstIndex(where: { $0 == place }) else { return }
        list.remove(at: at)
        owners[key] = list.isEmpty ? nil : list
        if list.count == 1 { duplicated.remove(key) }
    }

    static let othersShown = 3

    /// One finding per app involved in a duplicate, keys in order; names and paths are
    /// built for duplicates only.
    func findings(_ services: [Service]) -> [Finding] {
        var out: [Finding] = []
        for key in duplicated.sorted() {
            let named = owners[key]!.map { p in
                (
                    file: Service.path(services[p.service].name),
                    field: FieldPath.app(p.app).appending("integrationKey"),
                    app: ServiceRules.appName(services[p.service].apps[p.app])
                )
            }
            for (k, place) in named.enumerated() {
                // At most three others by name: 2,000 apps sharing a key would otherwise give
                // 2,000 messages of 2,000 names each (minutes, gigabytes).
                let shown = named.indices.lazy.filter { $0 != k }.prefix(Self.othersShown)
                    .map { "\(named[$0].app) in \(named[$0].file)" }
                let more = named.count - 1 - shown.count
                let others =
                    shown.joined(separator: ", ") + (more > 0 ? " and \(more) other app\(more == 1 ? "" : "s")" : "")
                out.append(
                    ServiceRules.integrationKeyDuplicate.finding(
                        "integration key \"\(Escape.inline(key))\" of \(place.app) is also used by \(others); each app (sandbox and production too) needs its own key",
                        file: place.file, field: place.field))
            }
        }
        return out
    }
}
