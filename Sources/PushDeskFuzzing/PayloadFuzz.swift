import Foundation
import PushDeskCore

/// Fuzz target (b): bytes → a service, a delivery, a profile, a token (`FuzzModels`) →
/// `PreviewEngine.preview`, then every payload promise of docs/PAYLOADS.md checked against an
/// independent reading by Foundation's JSONSerialization (`PayloadCheck`).
public enum PayloadFuzz {
    public static func check(_ data: Data) -> FuzzProblems {
        var p = FuzzProblems()
        var input = FuzzBytes([UInt8](data))
        let m = FuzzModels.make(&input)
        let preview = PreviewEngine.preview(
            delivery: m.delivery, service: m.service, profile: m.profile,
            appKey: m.appKey, token: m.token, now: LoaderFuzz.now)
        let again = PreviewEngine.preview(
            delivery: m.delivery, service: m.service, profile: m.profile,
            appKey: m.appKey, token: m.token, now: LoaderFuzz.now)
        p.check(preview == again, "the same input previewed twice gave different results")
        checkPreview(&p, preview)
        if m.appKey == nil {
            // An iOS-only push type has no Android target (docs/PAYLOADS.md).
            let expected = m.service.apps.filter { !(m.delivery.ios.effectiveType.iosOnly && $0.platform == .android) }
            p.check(
                preview.targets.count == expected.count,
                "\(expected.count) apps but \(preview.targets.count) targets")
        }
        // What the console would save must load back as the same record (never a file we cannot read).
        LoaderFuzz.roundTrip(&p, m.service, "service", encode: ServiceXML.encode) {
            try ServiceXML.decode($0, file: LoaderFuzz.serviceFile).0
        }
        LoaderFuzz.roundTrip(&p, m.delivery, "delivery", encode: DeliveryXML.encode) {
            try DeliveryXML.decode($0, file: LoaderFuzz.deliveryFile).0
        }
        if let profile = m.profile {
            LoaderFuzz.roundTrip(&p, profile, "profile", encode: ProfileXML.encode) {
                try ProfileXML.decode($0, file: LoaderFuzz.profileFile, name: "fuzz")
            }
        }
        for f in ServiceRules.check(service: m.service) { p.checkSafe(f.formatted, "finding [\(f.rule)]") }
        return p
    }

    /// The promises every preview keeps, whatever the delivery holds.
    public static func checkPreview(_ p: inout FuzzProblems, _ preview: Preview) {
        for f in preview.allFindings { p.checkSafe(f.formatted, "finding [\(f.rule)]") }
        // The preview document (docs/PAYLOADS.md) is JSON, compact and pretty alike.
        let compactDoc = parse(&p, preview.json.compactBytes, "the preview document")
        let prettyDoc = parse(&p, Array(preview.json.pretty.utf8), "the pretty preview document")
        // The printed form writes U+FEFF as `\uFEFF` (Escape.json); Foundation's reader
        // drops a raw U+FEFF inside a string but keeps the escaped one, so both readings are
        // compared without it — unless that makes two keys of one object the same (a content
        // state with keys "" and "\u{FEFF}"): which one Foundation's compact reading kept is
        // then lost, and the documents are not compared.
        if let a = compactDoc as? NSDictionary, let b = prettyDoc as? NSDictionary,
            let a = withoutBOM(a) as? NSDictionary, let b = withoutBOM(b) as? NSDictionary
        {
            p.check(a == b, "the compact and pretty preview documents differ")
        }
        for t in preview.targets { PayloadCheck.target(&p, t) }
    }

    /// A parsed JSON value with every U+FEFF removed from its strings and keys; nil when that
    /// makes two keys of an object one (which value it should keep is not known).
    static func withoutBOM(_ v: Any) -> Any? {
        if let s = v as? String { return s.replacingOccurrences(of: "\u{FEFF}", with: "") }
        if let a = v as? [Any] {
            var out: [Any] = []
            for x in a {
                guard let y = withoutBOM(x) else { return nil }
                out.append(y)
            }
            return out as NSArray
        }
        if let d = v as? [String: Any] {
            var out: [String: Any] = [:]
            for (k, x) in d {
                let key = k.replacingOccurrences(of: "\u{FEFF}", with: "")
                guard out[key] == nil, let y = withoutBOM(x) else { return nil }
                out[key] = y
            }
            return out as NSDictionary
        }
        return v
    }

    static func parse(_ p: inout FuzzProblems, _ bytes: [UInt8], _ what: String) -> Any? {
        do { return try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
            p.add(
                "\(what) is not JSON (\(error)): \(String(decoding: bytes.prefix(400), as: UTF8.self).debugDescription)"
            )
            return nil
        }
    }
}
