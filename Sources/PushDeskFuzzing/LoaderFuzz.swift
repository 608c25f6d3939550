import Foundation
import PushDeskCore

/// Fuzz target (a): any bytes as a service, a delivery and a profile file, through the
/// public loaders (`ServiceXML` / `DeliveryXML` / `ProfileXML.decode`, whatever parser
/// sits behind them), then the rules and the payloads of what loaded; and as a recovery
/// file and a Campaign package, the other XML PushDesk reads.
///
/// Promises checked: a file either loads or throws a `StoreError` that names the file and
/// a line:column inside it; no message or finding carries a character the terminal would
/// act on; what loads saves and reloads to the same record, byte-identical on a second save;
/// the rules and the previews of a loaded delivery keep the payload promises (`PayloadFuzz`).
/// Hangs and memory are libFuzzer's (`-timeout`, `-rss_limit_mb`, see scripts/fuzz).
public enum LoaderFuzz {
    /// A fixed clock, so a replay is exact (`expiration.past` depends on it).
    public static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let serviceFile = Service.path("fuzz")
    static let deliveryFile = Delivery.path("fuzz")
    static let profileFile = Profile.path("fuzz")

    public static func check(_ data: Data) -> FuzzProblems {
        var p = FuzzProblems()
        let bytes = [UInt8](data)
        let service = load(&p, bytes, serviceFile) { try ServiceXML.decode(data, file: serviceFile) }
        let delivery = load(&p, bytes, deliveryFile) { try DeliveryXML.decode(data, file: deliveryFile) }
        let profile = load(&p, bytes, profileFile) { try ProfileXML.decode(data, file: profileFile, name: "fuzz") }

        checkOtherLoaders(&p, data, bytes)
        if let (s, _) = service {
            roundTrip(&p, s, "service", encode: ServiceXML.encode) { try ServiceXML.decode($0, file: serviceFile).0 }
        }
        if let (d, _) = delivery {
            roundTrip(&p, d, "delivery", encode: DeliveryXML.encode) {
                try DeliveryXML.decode($0, file: deliveryFile).0
            }
        }
        if let pr = profile {
            roundTrip(&p, pr, "profile", encode: ProfileXML.encode) {
                try ProfileXML.decode($0, file: profileFile, name: "fuzz")
            }
        }
        guard service != nil || delivery != nil || profile != nil else { return p }

        // What `pushdesk validate` would report on a store holding what loaded. A delivery
        // is pointed at a service that exists (the loaded one, else the demo's) so its
        // previews run on real apps.
        var snap = StoreSnapshot(profiles: profile.map { [$0] } ?? [])
        let target = service?.0 ?? DemoStore.neotrips
        snap.services = [target]
        if let (s, map) = service { snap.sourceMaps[Service.path(s.name)] = map }
        if case (var d, let map)? = delivery {
            d.service = target.name
            snap.deliveries = [d]
            snap.sourceMaps[Delivery.path(d.name)] = map
        }
        for f in StoreValidation.findings(snap, now: now) { p.checkSafe(f.formatted, "finding [\(f.rule)]") }
        if let d = snap.deliveries.first {
            let preview = PreviewEngine.preview(
                delivery: d, service: target, profile: profile ?? DemoStore.ana,
                appKey: nil, token: nil, now: now)
            PayloadFuzz.checkPreview(&p, preview)
        }
        return p
    }

    static let recoveryFile = ".pushdesk/recovery/fuzz.xml"
    static let packageFile = "package.xml"

    /// The other XML files PushDesk reads that an operator (or a crash) may leave anywhere:
    /// a recovery file (each draft inside is decoded as the console would offer it) and a
    /// Campaign package for `pushdesk import-package`.
    static func checkOtherLoaders(_ p: inout FuzzProblems, _ data: Data, _ bytes: [UInt8]) {
        if let r = load(&p, bytes, recoveryFile, { try RecoveryFile.decode(data, file: recoveryFile) }) {
            for e in r.entries {
                p.checkSafe(e.summary, "recovery entry summary")
                let file = e.kind.path("draft")
                _ = load(&p, e.xml, file) {
                    switch e.kind {
                    case .service: _ = try ServiceXML.decode(Data(e.xml), file: file)
                    case .delivery: _ = try DeliveryXML.decode(Data(e.xml), file: file)
                    case .profile: _ = try ProfileXML.decode(Data(e.xml), file: file, name: "draft")
                    }
                }
            }
        }
        if let c = load(&p, bytes, packageFile, { try CampaignPackage.decode(data, file: packageFile) }) {
            for n in c.notes { p.checkSafe(n.formatted, "package note") }
            for s in c.services {
                for f in ServiceRules.check(service: s) {
                    p.checkSafe(f.formatted, "finding [\(f.rule)] of an imported service")
                }
            }
        }
    }

    /// Loads, or checks the error is a positioned `StoreError` about this file.
    static func load<T>(_ p: inout FuzzProblems, _ bytes: [UInt8], _ file: String, _ decode: () throws -> T) -> T? {
        do {
            return try decode()
        } catch let e as StoreError {
            p.check(e.file == file, "\(file): the error names \(e.file.debugDescription)")
            p.check(e.kind == .invalidContent, "\(file): a content error reported as I/O: \(e)")
            p.check(!e.message.isEmpty, "\(file): an empty error message")
            p.checkSafe(e.description, "\(file): the error")
            guard let line = e.line, let column = e.column else {
                p.add("\(file): the error has no line:column: \(e)")
                return nil
            }
            let lines = Self.lines(bytes)
            p.check(
                line >= 1 && line <= lines.count, "\(file): line \(line) outside the file's \(lines.count) lines: \(e)")
            if line >= 1 && line <= lines.count {
                // Columns count characters; the parser's own positions may count bytes, so
                // only a column past the line's end in bytes is certainly wrong.
                p.check(
                    column >= 1 && column <= lines[line - 1] + 1,
                    "\(file): column \(column) outside line \(line) (\(lines[line - 1]) bytes): \(e)")
            }
        } catch {
            p.add("\(file): not a StoreError but \(type(of: error)): \(error)")
        }
        return nil
    }

    /// Byte length of each line (without its LF).
    static func lines(_ bytes: [UInt8]) -> [Int] {
        var out: [Int] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            out.append(i - start)
            start = i + 1
        }
        out.append(bytes.count - start)
        return out
    }

    /// A loaded record saves (or is refused with a reason) and reloads to itself; saving
    /// the reloaded record writes the same bytes (the writer is deterministic).
    static func roundTrip<T: Equatable>(
        _ p: inout FuzzProblems, _ value: T, _ what: String,
        encode: (T) throws -> String, decode: (Data) throws -> T
    ) {
        let text: String
        do { text = try encode(value) } catch {
            p.checkSafe("\(error)", "\(what): the refusal to save")
            return
        }
        do {
            let again = try decode(Data(text.utf8))
            p.check(again == value, "\(what): saved and reloaded, the record changed:\n\(text.prefix(2000))")
            p.check((try? encode(again)) == text, "\(what): a second save wrote different bytes")
        } catch {
            p.add("\(what): the file PushDesk writes does not load back: \(error)\n\(text.prefix(2000))")
        }
    }
}
