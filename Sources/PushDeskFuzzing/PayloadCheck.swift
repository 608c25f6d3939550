import Foundation
import PushDeskCore

/// The payload promises (docs/PAYLOADS.md) checked on one preview target, independently of the
/// writer: the compact bytes are read back by Foundation's JSONSerialization, the strings
/// it reads must be the ones the builder put in, and the byte count is recomputed from the
/// escaping rule of docs/PAYLOADS.md alone.
enum PayloadCheck {
    static func target(_ p: inout FuzzProblems, _ t: PreviewTarget) {
        let name = "\(t.api.rawValue) target \(t.app.debugDescription)"
        let compact = t.payload.compactBytes
        checkCompactForm(&p, compact, name)
        guard let parsed = PayloadFuzz.parse(&p, compact, "\(name): the payload") else { return }

        // The part that counts: the APNs payload; the FCM v1 message without `token`; the
        // legacy body without `to`.
        var model = t.payload
        var read = parsed
        switch t.api {
        case .apns: break
        case .httpv1:
            guard case .object(let top) = t.payload, top.count == 1, top[0].0 == "message",
                case .object(let message) = top[0].1, let m = (parsed as? [String: Any])?["message"] as? [String: Any]
            else {
                p.add("\(name): the payload is not {\"message\":{…}}")
                return
            }
            model = .object(message.filter { $0.0 != "token" })
            read = m.filter { $0.key != "token" }
            checkStringValues(&p, m["data"], "\(name): message.data")
        case .legacy:
            guard case .object(let body) = t.payload, let b = parsed as? [String: Any] else {
                p.add("\(name): the payload is not an object")
                return
            }
            model = .object(body.filter { $0.0 != "to" })
            read = b.filter { $0.key != "to" }
            checkStringValues(&p, b["data"], "\(name): data")
        }
        let counted = bytes(&p, model, read, path: name)
        p.check(counted == t.bytes, "\(name): bytes says \(t.bytes), the counting rule says \(counted)")
        // APNs: the push type's limit (docs/PAYLOADS.md); FCM: 4096.
        let limits = t.api == .apns ? Set(PushType.all.map(\.sizeLimit)) : [DeliveryRules.sizeLimit]
        p.check(limits.contains(t.limit), "\(name): limit \(t.limit)")
        let flagged = t.diagnostics.contains { $0.rule == DeliveryRules.payloadSize.id }
        p.check(
            flagged == (t.bytes > t.limit),
            "\(name): \(t.bytes) bytes but size.limit \(flagged ? "fired" : "did not fire")")
        if t.api == .apns, let aps = (parsed as? [String: Any])?["aps"] {
            p.check(aps is [String: Any], "\(name): aps is not an object")
        }
    }

    /// Compact means: valid UTF-8, no raw control byte, no `\/`, and `\u` only for U+0000–U+001F.
    static func checkCompactForm(_ p: inout FuzzProblems, _ b: [UInt8], _ name: String) {
        if String(validating: b, as: UTF8.self) == nil { p.add("\(name): the payload is not valid UTF-8") }
        if let i = b.firstIndex(where: { $0 < 0x20 }) {
            p.add("\(name): raw control byte 0x\(String(b[i], radix: 16)) at \(i)")
        }
        var i = 0
        while i + 1 < b.count {
            if b[i] == 0x5C {
                let e = b[i + 1]
                if e == 0x2F { p.add("\(name): `/` escaped at \(i)") }
                if e == 0x75 {
                    let hex = i + 5 < b.count ? String(decoding: b[(i + 2)...(i + 5)], as: UTF8.self) : ""
                    let v = UInt32(hex, radix: 16) ?? 0xFFFF
                    if v >= 0x20 { p.add("\(name): \\u\(hex) escape for a character that needs none") }
                }
                i += 2
            } else {
                i += 1
            }
        }
    }

    /// FCM data values are strings (docs/PAYLOADS.md).
    static func checkStringValues(_ p: inout FuzzProblems, _ data: Any?, _ what: String) {
        guard let data else { return }
        guard let d = data as? [String: Any] else {
            p.add("\(what) is not an object")
            return
        }
        for (k, v) in d where !(v is String) { p.add("\(what).\(k) is not a string") }
    }

    /// Compact size of `model`, computed from docs/PAYLOADS.md while checking that JSONSerialization
    /// read back exactly `model` (same keys, no duplicate, same strings).
    static func bytes(_ p: inout FuzzProblems, _ model: JSONValue, _ read: Any, path: String) -> Int {
        switch model {
        case .string(let s):
            if let r = read as? String {
                p.check(
                    sameString(r, s),
                    "\(path): wrote \(s.debugDescription.prefix(200)), read back \(r.debugDescription.prefix(200))")
            } else {
                p.add("\(path): a string read back as \(type(of: read))")
            }
            return stringBytes(s)
        case .number(let n):
            p.check(read is NSNumber, "\(path): the number \(n) read back as \(type(of: read))")
            return n.utf8.count
        case .bool(let b):
            p.check((read as? Bool) == b, "\(path): the boolean \(b) read back as \(read)")
            return b ? 4 : 5
        case .null:
            p.check(read is NSNull, "\(path): null read back as \(read)")
            return 4
        case .array(let items):
            guard let r = read as? [Any], r.count == items.count else {
                p.add("\(path): the array read back differently")
                return 0
            }
            return 2 + max(0, items.count - 1)
                + zip(items, r).enumerated().reduce(0) {
                    $0 + bytes(&p, $1.element.0, $1.element.1, path: "\(path)[\($1.offset)]")
                }
        case .object(let members):
            guard let r = read as? [String: Any] else {
                p.add("\(path): the object read back as \(type(of: read))")
                return 0
            }
            p.check(Set(members.map(\.0)).count == members.count, "\(path): a key appears twice: \(members.map(\.0))")
            var n = 2 + max(0, members.count - 1)
            // Foundation reads keys that differ only by U+FEFF as one key, and which value it
            // keeps follows the process's hash order: such members are counted, not compared.
            let ambiguous = Set(members.map { stripBOM($0.0) }).count != members.count
            for (k, v) in members {
                n += stringBytes(k) + 1
                if ambiguous {
                    n += count(v)
                    continue
                }
                guard let rv = r[k] ?? r.first(where: { stripBOM($0.key) == stripBOM(k) })?.value else {
                    p.add("\(path): key \(k.debugDescription) was not read back")
                    continue
                }
                n += bytes(&p, v, rv, path: "\(path).\(k)")
            }
            return n
        }
    }

    /// The counting rule over the model alone (compact JSON: no spaces).
    static func count(_ model: JSONValue) -> Int {
        switch model {
        case .string(let s): stringBytes(s)
        case .number(let n): n.utf8.count
        case .bool(let b): b ? 4 : 5
        case .null: 4
        case .array(let items): 2 + max(0, items.count - 1) + items.reduce(0) { $0 + count($1) }
        case .object(let members):
            2 + max(0, members.count - 1) + members.reduce(0) { $0 + stringBytes($1.0) + 1 + count($1.1) }
        }
    }

    /// docs/PAYLOADS.md: `"` and `\` take 2 bytes, U+0000–U+001F take 2 (`\n` …) or 6 (`\u00XX`),
    /// everything else its UTF-8 length.
    static func stringBytes(_ s: String) -> Int {
        var n = 2
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22, 0x5C, 0x08, 0x09, 0x0A, 0x0C, 0x0D: n += 2
            case 0..<0x20: n += 6
            default: n += String(u).utf8.count
            }
        }
        return n
    }

    /// swift-corelibs JSONSerialization drops U+FEFF at the start of every run of a string
    /// it reads (the string's start, and after each escape such as `\"`): the reader's quirk,
    /// not the payload's, so BOMs are left out of the comparison. The byte count, computed
    /// from the written model, still counts them.
    static func sameString(_ read: String, _ written: String) -> Bool {
        read == written || stripBOM(read) == stripBOM(written)
    }

    static func stripBOM(_ s: String) -> String {
        var u = String.UnicodeScalarView()
        u.append(contentsOf: s.unicodeScalars.lazy.filter { $0 != "\u{FEFF}" })
        return String(u)
    }
}
