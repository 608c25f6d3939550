import Foundation

@testable import PushDeskCore

/// A seeded generator (SplitMix64): every property-test case can be replayed from its seed.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ upperBound: Int) -> Int { Int(next() % UInt64(max(upperBound, 1))) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
}

/// The rules of docs/TEAMS.md written a second time, on a plain record shape (fields by name,
/// lists of entries by identity) rather than on XML trees, so the property tests check the
/// driver against the rules and not against itself.
struct OracleEntry: Equatable, Sendable {
    /// Identity within its list ("" for the record itself).
    var id: String
    var fields: [String: String]
    /// List name → entries; the path style of each list is given by `OracleRules`.
    var lists: [String: [OracleEntry]]

    init(id: String = "", fields: [String: String?] = [:], lists: [String: [OracleEntry]] = [:]) {
        self.id = id
        // An empty value is no value (services and deliveries read "" as not set).
        self.fields = fields.compactMapValues { $0 }.filter { !$0.value.isEmpty }
        self.lists = lists.filter { !$0.value.isEmpty }
    }
}

struct OracleRules: Sendable {
    /// How an entry of `list` is named in a field path under `parent`.
    var entryPath: @Sendable (_ parent: String, _ list: String, _ entry: OracleEntry, _ index: Int) -> String

    func merge(_ b: OracleEntry?, _ o: OracleEntry, _ t: OracleEntry) -> (OracleEntry, [String]) {
        var conflicts: [String] = []
        let merged = entry(b, o, t, path: "", conflicts: &conflicts)
        return (merged, conflicts)
    }

    private func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "." + b }

    private func entry(_ b: OracleEntry?, _ o: OracleEntry?, _ t: OracleEntry?, path: String, conflicts: inout [String])
        -> OracleEntry
    {
        var out = OracleEntry(id: (o ?? t ?? b)!.id)
        let names = Set((b?.fields.keys).map(Array.init) ?? []).union(o?.fields.keys ?? [:].keys)
            .union(t?.fields.keys ?? [:].keys)
        for name in names {
            let bv = b?.fields[name]
            let ov = o?.fields[name]
            let tv = t?.fields[name]
            if ov != tv, bv != ov, bv != tv { conflicts.append(name.isEmpty ? path : join(path, name)) }
            out.fields[name] = ov == tv ? ov : (bv == ov ? tv : ov)
        }
        let lists = Set((b?.lists.keys).map(Array.init) ?? []).union(o?.lists.keys ?? [:].keys)
            .union(t?.lists.keys ?? [:].keys)
        for list in lists {
            let merged = self.list(
                b?.lists[list] ?? [], o?.lists[list] ?? [], t?.lists[list] ?? [], list: list, parent: path,
                conflicts: &conflicts)
            if !merged.isEmpty { out.lists[list] = merged }
        }
        return out
    }

    private func occurrenceKeys(_ entries: [OracleEntry]) -> [String] {
        var count: [String: Int] = [:]
        return entries.map { e in
            defer { count[e.id, default: 0] += 1 }
            return "\(e.id)#\(count[e.id, default: 0])"
        }
    }

    private func list(
        _ b: [OracleEntry], _ o: [OracleEntry], _ t: [OracleEntry], list: String, parent: String,
        conflicts: inout [String]
    ) -> [OracleEntry] {
        let (bk, ok, tk) = (occurrenceKeys(b), occurrenceKeys(o), occurrenceKeys(t))
        func find(_ keys: [String], _ key: String) -> Int? { keys.firstIndex(of: key) }
        // (key, entry, added by OURS)
        var result: [(String, OracleEntry, Bool)] = []
        for (i, e) in o.enumerated() {
            let bi = find(bk, ok[i])
            let ti = find(tk, ok[i])
            let path = entryPath(parent, list, e, i)
            if let bi, ti == nil {
                if b[bi] == e { continue }  // THEIRS removed it, OURS left it alone
                conflicts.append(path)
                result.append((ok[i], e, false))
            } else {
                result.append(
                    (ok[i], entry(bi.map { b[$0] }, e, ti.map { t[$0] }, path: path, conflicts: &conflicts), bi == nil))
            }
        }
        for (j, e) in t.enumerated() where find(ok, tk[j]) == nil {
            if let bi = find(bk, tk[j]) {
                if b[bi] != e { conflicts.append(entryPath(parent, list, e, j)) }
                continue
            }
            // After the nearest earlier THEIRS entry in the result, past OURS' additions there.
            var at = 0
            for k in stride(from: j - 1, through: 0, by: -1) {
                if let r = result.firstIndex(where: { $0.0 == tk[k] }) {
                    at = r + 1
                    break
                }
            }
            while at < result.count, result[at].2 { at += 1 }
            result.insert((tk[j], e, false), at: at)
        }
        return result.map(\.1)
    }
}

// MARK: services as oracle records

extension OracleEntry {
    init(_ s: Service) {
        self.init(
            fields: [
                "label": s.label, "targetMapping": s.targetMapping, "marketingUrl": s.marketingUrl,
                "trackingUrl": s.trackingUrl,
            ],
            lists: ["apps": s.apps.map(OracleEntry.init)])
    }

    init(_ app: MobileApp) {
        func named(_ name: String, _ fields: [String: String?]) -> OracleEntry { OracleEntry(id: name, fields: fields) }
        func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }
        var lists: [String: [OracleEntry]] = [
            "variables": app.variables.map { named($0.name, ["name": $0.name, "label": nonEmpty($0.label)]) },
            "subscriptionParams": app.subscriptionParams.map {
                named($0.name, ["name": $0.name, "label": nonEmpty($0.label), "field": $0.field])
            },
        ]
        switch app {
        case .ios(let a):
            lists["sounds"] = a.sounds.map { named($0.name, ["name": $0.name, "label": nonEmpty($0.label)]) }
            lists["channels"] = a.channels.map {
                named($0.id, ["id": $0.id, "label": nonEmpty($0.label), "storage": $0.storage.rawValue])
            }
            self.init(
                id: "ios " + a.integrationKey,
                fields: [
                    "environment": a.environment.rawValue, "label": a.label, "integrationKey": a.integrationKey,
                    "bundleId": a.bundleId, "connector": a.connector.rawValue, "icon": nonEmpty(a.icon),
                    "auth": a.auth.map { "\($0)" },
                ], lists: lists)
        case .android(let a):
            self.init(
                id: "android " + a.integrationKey,
                fields: [
                    "label": a.label, "integrationKey": a.integrationKey, "packageName": a.packageName,
                    "api": a.api.rawValue, "connector": a.connector.rawValue,
                    "maxConnectPerChild": a.maxConnectPerChild.map(String.init), "icon": nonEmpty(a.icon),
                    "auth": a.auth.map { "\($0)" },
                ], lists: lists)
        }
    }

    /// Services' field paths: `apps[2]`, `apps[0].variables[1]` (docs/RULES.md).
    static let serviceRules = OracleRules { parent, list, _, index in
        (list == "apps" ? "apps" : parent + "." + list) + "[\(index)]"
    }
}
