import Foundation
import PushDeskCore

/// Maps an app's model fields to form fields and back. Input checks here are about the
/// shape of what was typed (a number where a number goes); rules live in PushDeskCore.
enum AppFields {
    static func info(_ a: MobileApp) -> [FormField] {
        // The app's identity first, then how it connects; each section in the file's order.
        func fields<R>(_ table: [FieldDefinition<R>], _ r: R) -> [FormField] {
            let main = table.filter { $0.section == .main }
            let connection = table.filter { $0.section == .connection }
            return (main + connection).map { field($0, $0.text(r) ?? "") }
        }
        switch a {
        case .ios(let i): return fields(IOSApp.definitions, i)
        case .android(let x): return fields(AndroidApp.definitions, x)
        }
    }

    static let none = "none"

    /// The auth mode, then the fields of the app's mode (secrets shown as set or not, never their value).
    static func credentials(_ a: MobileApp, secretSet: (String) -> Bool = { _ in false }) -> [FormField] {
        let (modes, mode, values) =
            switch a {
            case .ios(let i): (IOSAuth.modes, i.auth?.mode, i.auth?.values ?? [:])
            case .android(let x): (AndroidAuth.modes, x.auth?.mode, x.auth?.values ?? [:])
            }
        var f = [
            FormField(
                id: "mode", label: "Auth mode", kind: .choice([none] + modes.map(\.mode)), value: mode ?? none)
        ]
        var ref = ""
        for d in mode.flatMap({ modes[mode: $0] })?.fields ?? [] {
            if d.kind == .secret {
                // A secret is kept under the reference field just before it.
                let set = !ref.isEmpty && secretSet(ref)
                f.append(
                    FormField(
                        id: d.name, label: d.label, kind: .secret, value: set ? "••••••••" : "(not set)",
                        note: set ? "stored in secrets/; Enter replaces it" : "Enter to type it (kept in secrets/)"))
            } else {
                ref = values[d.name] ?? ""
                if ref.isEmpty, case .choice(_, let dflt?) = d.kind {
                    f.append(field(d, dflt))  // an absent scope shows what it means
                } else {
                    f.append(field(d, ref))
                }
            }
        }
        return f
    }

    /// Every credential field name of either platform (the editor's Credentials tab).
    static let credentialNames: Set<String> = Set(
        (IOSAuth.modes + AndroidAuth.modes).flatMap(\.fields).filter { $0.kind != .secret }.map(\.name))

    private static func field<R>(_ d: FieldDefinition<R>, _ value: String) -> FormField {
        switch d.kind {
        case .choice(let values, _):
            FormField(id: d.name, label: d.label, kind: .choice(values), value: value, note: d.note)
        case .path: FormField(id: d.name, label: d.label, kind: .path, value: value, note: d.note)
        default: FormField(id: d.name, label: d.label, value: value, note: d.note)
        }
    }

    /// Writes one field into the app; returns an input error to show under the field.
    static func apply(_ id: String, _ v: String, to a: inout MobileApp) -> String? {
        switch a {
        case .ios(var i):
            if id == "mode" {
                i.auth = IOSAuth(mode: v, values: [:])
            } else if let d = IOSApp.definitions.named(id) {
                if let e = inputError(d, v) { return e }
                d.set(&i, v)
            } else if var values = i.auth?.values, let mode = i.auth?.mode, IOSAuth.modes.stored(mode).contains(id) {
                values[id] = v
                i.auth = IOSAuth(mode: mode, values: values)
            }
            a = .ios(i)
        case .android(var x):
            if id == "mode" {
                x.auth = AndroidAuth(mode: v, values: [:])
            } else if let d = AndroidApp.definitions.named(id) {
                if let e = inputError(d, v) { return e }
                d.set(&x, v)
            } else if var values = x.auth?.values, let mode = x.auth?.mode, AndroidAuth.modes.stored(mode).contains(id)
            {
                values[id] = v
                x.auth = AndroidAuth(mode: mode, values: values)
            }
            a = .android(x)
        }
        return nil
    }

    /// The shape of what was typed: a number where a number goes (empty = the default).
    private static func inputError<R>(_ d: FieldDefinition<R>, _ v: String) -> String? {
        guard case .number(let min, let dflt) = d.kind, !v.isEmpty else { return nil }
        if let n = Int(v), n >= min { return nil }
        return "must be a whole number above \(min - 1)" + (dflt.map { " (or empty for the default \($0))" } ?? "")
    }

    /// A new integration key: a UUID, unique without coordination.
    static func generatedKey() -> String { UUID().uuidString.lowercased() }
}
