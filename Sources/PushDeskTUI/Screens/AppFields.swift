import Foundation
import PushDeskCore

/// Maps an app's model fields to form fields and back. Input checks here are about the
/// shape of what was typed (a number where a number goes); rules live in PushDeskCore.
enum AppFields {
    static func info(_ a: MobileApp) -> [FormField] {
        switch a {
        case .ios(let i):
            return [
                FormField(id: "label", label: "Label", value: i.label),
                FormField(id: "integrationKey", label: "Integration key", value: i.integrationKey, note: "Ctrl-G new"),
                FormField(id: "bundleId", label: "Bundle id", value: i.bundleId),
                FormField(id: "icon", label: "Icon", kind: .path, value: i.icon, note: "Enter: browse"),
                FormField(
                    id: "environment", label: "Environment", kind: .choice(IOSEnvironment.allCases.map(\.rawValue)),
                    value: i.environment.rawValue),
                FormField(
                    id: "connector", label: "Connector", kind: .choice(IOSConnector.allCases.map(\.rawValue)),
                    value: i.connector.rawValue),
            ]
        case .android(let x):
            return [
                FormField(id: "label", label: "Label", value: x.label),
                FormField(id: "integrationKey", label: "Integration key", value: x.integrationKey, note: "Ctrl-G new"),
                FormField(id: "packageName", label: "Package name", value: x.packageName),
                FormField(id: "icon", label: "Icon", kind: .path, value: x.icon, note: "Enter: browse"),
                FormField(
                    id: "api", label: "API", kind: .choice(AndroidAPI.allCases.map(\.rawValue)), value: x.api.rawValue),
                FormField(
                    id: "connector", label: "Connector", kind: .choice(AndroidConnector.allCases.map(\.rawValue)),
                    value: x.connector.rawValue),
                FormField(
                    id: "maxConnectPerChild", label: "Max connections",
                    value: x.maxConnectPerChild.map(String.init) ?? "", note: "per MTA child, empty = 8"),
            ]
        }
    }

    static let none = "none"

    static func credentials(_ a: MobileApp, secretSet: (String) -> Bool = { _ in false }) -> [FormField] {
        func secretField(_ id: String, _ label: String, ref: String) -> FormField {
            let set = !ref.isEmpty && secretSet(ref)
            return FormField(
                id: id, label: label, kind: .secret, value: set ? "••••••••" : "(not set)",
                note: set ? "stored in secrets/; Enter replaces it" : "Enter to type it (kept in secrets/)")
        }
        switch a {
        case .ios(let i):
            var f = [
                FormField(
                    id: "mode", label: "Auth mode", kind: .choice([none, "token", "certificate"]),
                    value: i.auth?.mode ?? none)
            ]
            switch i.auth {
            case .token(let keyId, let teamId, let keyFile):
                f += [
                    FormField(id: "keyId", label: "Key ID", value: keyId, note: "10 chars"),
                    FormField(id: "teamId", label: "Team ID", value: teamId, note: "10 chars"),
                    FormField(
                        id: "keyFile", label: "Key file (.p8)", kind: .path, value: keyFile, note: "Enter: browse"),
                ]
            case .certificate(let file, let ref):
                f += [
                    FormField(
                        id: "certificateFile", label: "Certificate", kind: .path, value: file, note: "Enter: browse"),
                    FormField(id: "passwordRef", label: "Password secret", value: ref, note: "name, not the password"),
                    secretField("password", "Password", ref: ref),
                ]
            case nil: break
            }
            return f
        case .android(let x):
            var f = [
                FormField(
                    id: "mode", label: "Auth mode", kind: .choice([none, "serviceAccount", "serverKey"]),
                    value: x.auth?.mode ?? none)
            ]
            switch x.auth {
            case .serviceAccount(let projectId, let email, let keyFile):
                f += [
                    FormField(id: "projectId", label: "Project id", value: projectId),
                    FormField(id: "clientEmail", label: "Client email", value: email),
                    FormField(
                        id: "keyFile", label: "Key file (.json)", kind: .path, value: keyFile, note: "Enter: browse"),
                ]
            case .serverKey(let ref):
                f += [
                    FormField(id: "serverKeyRef", label: "Server key secret", value: ref, note: "name, not the key"),
                    secretField("serverKey", "Server key", ref: ref),
                ]
            case nil: break
            }
            return f
        }
    }

    /// Writes one field into the app; returns an input error to show under the field.
    static func apply(_ id: String, _ v: String, to a: inout MobileApp) -> String? {
        switch a {
        case .ios(var i):
            switch id {
            case "label": i.label = v
            case "integrationKey": i.integrationKey = v
            case "bundleId": i.bundleId = v
            case "icon": i.icon = v
            case "environment": i.environment = IOSEnvironment(rawValue: v) ?? i.environment
            case "connector": i.connector = IOSConnector(rawValue: v) ?? i.connector
            case "mode":
                switch v {
                case "token": i.auth = .token(keyId: "", teamId: "", keyFile: "")
                case "certificate": i.auth = .certificate(certificateFile: "", passwordRef: "")
                default: i.auth = nil
                }
            case "keyId", "teamId", "keyFile":
                guard case .token(var k, var t, var f) = i.auth else { break }
                if id == "keyId" { k = v } else if id == "teamId" { t = v } else { f = v }
                i.auth = .token(keyId: k, teamId: t, keyFile: f)
            case "certificateFile", "passwordRef":
                guard case .certificate(var f, var r) = i.auth else { break }
                if id == "certificateFile" { f = v } else { r = v }
                i.auth = .certificate(certificateFile: f, passwordRef: r)
            default: break
            }
            a = .ios(i)
        case .android(var x):
            switch id {
            case "label": x.label = v
            case "integrationKey": x.integrationKey = v
            case "packageName": x.packageName = v
            case "icon": x.icon = v
            case "api": x.api = AndroidAPI(rawValue: v) ?? x.api
            case "connector": x.connector = AndroidConnector(rawValue: v) ?? x.connector
            case "maxConnectPerChild":
                if v.isEmpty {
                    x.maxConnectPerChild = nil
                } else if let n = Int(v), n > 0 {
                    x.maxConnectPerChild = n
                } else {
                    return "must be a whole number above 0 (or empty for the default 8)"
                }
            case "mode":
                switch v {
                case "serviceAccount": x.auth = .serviceAccount(projectId: "", clientEmail: "", keyFile: "")
                case "serverKey": x.auth = .serverKey(serverKeyRef: "")
                default: x.auth = nil
                }
            case "projectId", "clientEmail", "keyFile":
                guard case .serviceAccount(var p, var e, var f) = x.auth else { break }
                if id == "projectId" { p = v } else if id == "clientEmail" { e = v } else { f = v }
                x.auth = .serviceAccount(projectId: p, clientEmail: e, keyFile: f)
            case "serverKeyRef": x.auth = .serverKey(serverKeyRef: v)
            default: break
            }
            a = .android(x)
        }
        return nil
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
