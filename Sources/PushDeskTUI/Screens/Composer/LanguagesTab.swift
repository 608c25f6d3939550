import Foundation
import PushDeskCore

/// The composer's Languages tab: one row per language — the default, then each variant in
/// file order — with its title, its payload size for each app of the service (the core's
/// `preview --locale all`) and its worst finding; below, which test devices get which
/// variant (each subscription's language looked up as a send looks it up). The edits are
/// the composer's (`ComposerLanguages.swift`); this holds the rows and draws them.
final class LanguagesTab {
    /// What `ScreenFocus` names the tab's table.
    static let tableID = "table"

    static func makeTable() -> TableView { TableView(columns: columns(apps: [], wide: false)) }

    /// A row a table shows.
    struct Row: Equatable {
        var language: String
        var title: String
        var sizes: [String]
        var worst: String
        var role: Role?
    }

    /// One test device: who, the language it has, the variant it gets.
    struct Device: Equatable {
        var who: String
        var language: String
        var gets: String
        var fallback: Bool
    }

    private(set) var rows: [Row] = []
    private(set) var apps: [String] = []
    private(set) var devices: [Device] = []
    /// A row to select at the next sync (after an add, a rename, a finding's jump).
    var pendingRow: Int?

    /// The columns for the apps' short names; the language's name gets room on wide screens.
    static func columns(apps: [String], wide: Bool) -> [TableView.Column] {
        [.init("Language", width: wide ? 26 : 16), .init("Title")] + apps.map { .init($0, width: 9) }
            + [.init("Worst finding", width: wide ? 30 : 16)]
    }

    /// The apps' integration keys without what they all begin with (`neotrips-ios-dev`,
    /// `neotrips-ios`, `neotrips-android` → `ios-dev`, `ios`, `android`).
    static func shortNames(_ keys: [String]) -> [String] {
        guard keys.count > 1, var prefix = keys.first else { return keys }
        for k in keys.dropFirst() { prefix = String(prefix.commonPrefix(with: k)) }
        let cut = prefix.count
        return keys.map { $0.count > cut ? String($0.dropFirst(cut)) : $0 }
    }

    /// The rows for the draft as it is now: one preview of every language (sizes and findings).
    func sync(
        _ d: Delivery, service: Service?, profiles: [Profile], profile: Profile?, now: Date, table: inout TableView
    ) {
        let p = service.map {
            PreviewEngine.preview(
                delivery: d, service: $0, profile: profile, appKey: nil, token: nil, now: now, locale: .all)
        }
        let keys = service?.apps.map(\.integrationKey) ?? []
        apps = Self.shortNames(keys)
        let languages: [DeliveryVariant?] = [nil] + d.variants
        rows = languages.map { v in
            let tag = v.map { $0.tag?.description ?? $0.locale }
            let targets = (p?.targets ?? []).filter { $0.locale == (v == nil ? nil : tag) }
            // A variant no device gets (no tag, or a second for its tag) has no request of its own.
            let reachable = v == nil || v.flatMap(\.tag).map { t in d.variants.first { $0.tag == t } == v } == true
            let sizes = keys.map { key -> String in
                guard reachable, let t = targets.first(where: { $0.app == key }) else { return "—" }
                return "\(t.bytes)/\(t.limit)"
            }
            var findings = targets.flatMap(\.diagnostics)
            findings += (p?.diagnostics ?? []).filter { ComposerFields.language(of: $0.field) == tag }
            let worst = findings.max { Self.rank($0.severity) < Self.rank($1.severity) }
            let name = v.flatMap(\.tag).flatMap(\.englishName).map { " " + $0 } ?? ""
            return Row(
                language: (tag ?? ComposerFields.defaultLanguage) + name,
                title: (v?.title ?? d.content.title).replacingOccurrences(of: "\n", with: " "),
                sizes: sizes, worst: worst.map { "\($0.severity.rawValue) \($0.rule)" } ?? "—",
                role: worst.map {
                    $0.severity == .error ? .findingError : $0.severity == .warning ? .findingWarning : nil
                }
                    ?? nil)
        }
        devices = Self.devices(d, service: service, profiles: profiles)
        let keep = pendingRow ?? table.selectedRow
        pendingRow = nil
        table.emptyText = "(no language)"
        table.setRows(rows.map { [$0.language, $0.title] + $0.sizes + [$0.worst] }, roles: rows.map(\.role))
        if let keep { table.select(row: min(keep, rows.count - 1)) }
    }

    private static func rank(_ s: Severity) -> Int {
        switch s {
        case .error: 3
        case .warning: 2
        case .info: 1
        }
    }

    /// The profiles' test devices of the service's apps and the variant each gets.
    static func devices(_ d: Delivery, service: Service?, profiles: [Profile]) -> [Device] {
        let keys = Set(service?.apps.map(\.integrationKey) ?? [])
        var out: [Device] = []
        for profile in profiles {
            for sub in profile.subscriptions where keys.contains(sub.app) {
                let tag = profile.language(of: sub)
                let gets = tag.flatMap { d.variant(for: $0) }.map { $0.tag?.description ?? $0.locale }
                out.append(
                    Device(
                        who: "\(profile.name) · \(sub.label ?? sub.shortToken) (\(sub.app))",
                        language: tag?.description ?? "no language", gets: gets ?? ComposerFields.defaultLanguage,
                        fallback: tag != nil && gets == nil))
            }
        }
        return out
    }

    /// The table, then the test devices under it.
    func draw(into buf: inout CellBuffer, _ rect: Rect, table: inout TableView, focused: Bool) {
        let shown = devices.isEmpty ? 2 : min(devices.count + 1, max(2, rect.height / 3))
        let (top, bottom) = rect.splitBottom(shown)
        table.columns = Self.columns(apps: apps, wide: rect.width >= 110)
        table.render(into: &buf, top, focused: focused)
        buf.put(
            devices.isEmpty
                ? "No test device of this service's apps: the profiles' devices show here with the language each gets."
                : "Test devices → the language each gets:", x: bottom.x, y: bottom.y, role: .header, maxX: bottom.maxX)
        let room = bottom.height - 1
        for (i, dev) in devices.prefix(room).enumerated() {
            var line = "\(dev.who)  \(dev.language) → \(dev.gets)"
            if dev.fallback { line += " (no variant: variant.fallback)" }
            if i == room - 1, devices.count > room { line = "… and \(devices.count - room + 1) more" }
            buf.put(
                TextWidth.truncate(line, to: bottom.width), x: bottom.x, y: bottom.y + 1 + i,
                role: dev.fallback ? .findingInfo : .normal, maxX: bottom.maxX)
        }
    }
}
