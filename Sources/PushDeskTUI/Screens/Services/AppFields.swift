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
        for d in modes.first(where: { $0.mode == mode })?.fields ?? [] {
            if d.kind == .secret {
                // A secret is kept under the reference field just before it.
                let set = !ref.isEmpty && secretSet(ref)
                f.append(
                    FormField(
                        id: d.name, label: d.label, kind: .secret, value: set ? "••••••••" : "(not set)",
                        note: set ? "stored in secrets/; Enter replaces it" : "Enter to type it (kept in secrets/)"))
            } else {
                ref = values[d.name] ?? ""
                f.append(field(d, ref))
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
            } else if var values = i.auth?.values, let mode = i.auth?.mode, values[id] != nil {
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
            } else if var values = x.auth?.values, let mode = x.auth?.mode, values[id] != nil {
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

/// The three tables of an app: variables, subscription parameters, sounds (iOS only).
enum ItemKind: CaseIterable {
    case variables, params, sounds

    var columns: [TableView.Column] {
        switch self {
        case .variables: [.init("Name", width: 24), .init("Label")]
        case .params: [.init("Name", width: 20), .init("Label"), .init("Field", width: 20)]
        case .sounds: [.init("Name (file or system sound)", width: 30), .init("Label")]
        }
    }
    var noun: String {
        switch self {
        case .variables: "variable"
        case .params: "subscription parameter"
        case .sounds: "sound"
        }
    }

    func rows(_ a: MobileApp) -> [[String]] {
        switch self {
        case .variables: a.variables.map { [$0.name, $0.label] }
        case .params: a.subscriptionParams.map { [$0.name, $0.label, $0.field] }
        case .sounds: a.sounds.map { [$0.name, $0.label] }
        }
    }

    func form(_ row: [String]) -> Form {
        var f = [
            FormField(id: "name", label: "Name", value: row[0]), FormField(id: "label", label: "Label", value: row[1]),
        ]
        if self == .params {
            f.append(FormField(id: "field", label: "Schema field", value: row[2], note: "e.g. @loyaltyId"))
        }
        return Form(f)
    }

    func add(to a: inout MobileApp) {
        switch self {
        case .variables: a.variables.append(AppVariable(name: ""))
        // The field starts empty and is typed whole: a pre-filled `@` made `@loyaltyId` `@@loyaltyId`.
        case .params: a.subscriptionParams.append(SubscriptionParam(name: "", field: ""))
        case .sounds:
            if case .ios(var i) = a {
                i.sounds.append(Sound(name: ""))
                a = .ios(i)
            }
        }
    }

    func count(_ a: MobileApp) -> Int { rows(a).count }

    func set(_ row: Int, _ id: String, _ v: String, in a: inout MobileApp) {
        switch self {
        case .variables:
            if id == "name" { a.variables[row].name = v } else { a.variables[row].label = v }
        case .params:
            if id == "name" {
                a.subscriptionParams[row].name = v
            } else if id == "label" {
                a.subscriptionParams[row].label = v
            } else {
                a.subscriptionParams[row].field = v
            }
        case .sounds:
            guard case .ios(var i) = a else { return }
            if id == "name" { i.sounds[row].name = v } else { i.sounds[row].label = v }
            a = .ios(i)
        }
    }

    func remove(_ row: Int, from a: inout MobileApp) {
        switch self {
        case .variables: a.variables.remove(at: row)
        case .params: a.subscriptionParams.remove(at: row)
        case .sounds:
            if case .ios(var i) = a {
                i.sounds.remove(at: row)
                a = .ios(i)
            }
        }
    }

    func swap(_ r1: Int, _ r2: Int, in a: inout MobileApp) {
        switch self {
        case .variables: a.variables.swapAt(r1, r2)
        case .params: a.subscriptionParams.swapAt(r1, r2)
        case .sounds:
            if case .ios(var i) = a {
                i.sounds.swapAt(r1, r2)
                a = .ios(i)
            }
        }
    }
}
