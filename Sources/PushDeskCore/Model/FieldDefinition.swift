/// How a field's value is written in the file and edited in the console.
public enum FieldKind: Equatable, Sendable {
    /// Kept as written, numbers too: the rules report a malformed one on its field.
    case text
    /// A file, relative to the store unless absolute.
    case path
    /// A secret, typed in the console and kept in secrets/, never in the file.
    case secret
    /// A whole number ≥ `min`; empty means `default`.
    case number(min: Int, default: Int?)
    /// `true|false`; only `true` is sent (APNs flags: the key is 1 or absent).
    case flag
    /// `true|false`, sent as a JSON boolean either way (FCM).
    case bool
    /// One of `values`; `default` is what an absent attribute means, if anything.
    case choice([String], default: String?)
}

/// Where the console's editor shows a field: an app's identity first, then how it connects.
public enum FieldSection: Sendable {
    case main, connection
}

/// Which app a field belongs to, or the service itself.
public enum FieldPlatform: String, Sendable {
    case ios, android
    /// A service's own field (`<service marketingUrl>`): its path is its name alone.
    case service
    /// A delivery's `<liveActivity>` (docs/PAYLOADS.md): sent inside `aps` like an iOS option.
    case liveActivity
    /// `<content><localized>`'s keys: paths `content.localized.NAME`.
    case localized
}

/// One field of a record, defined once: its name (the XML attribute and the leaf of its
/// field path), what the console shows, how it is typed, where it lives in the model, and
/// facts the rules and the console share. Reading, writing, recovery and the console's
/// form all walk these tables, so a new field is one row (plus what it means to APNs or
/// FCM, which the payload builders and rules say by hand).
public struct FieldDefinition<Record>: Sendable {
    public let name: String
    public let label: String
    /// The console's hint beside the field.
    public let note: String
    public let kind: FieldKind
    public let platform: FieldPlatform
    /// Sent only in an Android notification message, not in a data message. (Which iOS
    /// options a push type sends is the type's row, `PushType.options`.)
    public let notificationOnly: Bool
    /// The FCM legacy API carries it (Android only; always true on iOS).
    public let legacy: Bool
    public var section: FieldSection = .main
    /// What a finding says is missing when the field is empty ("the .p8 key file"); nil = optional.
    /// The required-field rule reads it from the auth modes' rows (`AuthMode`).
    public var required: String? = nil
    /// The value as the file writes it; nil = not set.
    public let text: @Sendable (Record) -> String?
    /// Sets the value from its file text (nil clears it; a value the kind refuses clears it too).
    public let set: @Sendable (inout Record, String?) -> Void
    /// Reads the attribute into a record that starts empty (decoders make a fresh one),
    /// refusing a value the kind does not allow (positioned error). An absent attribute
    /// writes nothing: key-path writes are what a table costs over hand-written decoding,
    /// and most options of most files are absent.
    let decode: @Sendable (ElementReader, inout Record) throws -> Void

    /// The field path of findings (`ios.sound`, `android.ttl`, a service's `marketingUrl`).
    public var field: FieldPath {
        switch platform {
        case .service: FieldPath(name)
        case .localized: FieldPath("content", "localized", name)
        default: FieldPath(platform.rawValue, name)
        }
    }

    /// Whether the option would be sent: a non-empty value (a flag only when `true`).
    public func isSet(in r: Record) -> Bool {
        guard let t = text(r), !t.isEmpty else { return false }
        return kind == .flag ? t == "true" : true
    }

    /// A required text (an app's label, bundle id…); `omitEmpty` leaves an empty one out of the file.
    public static func string(
        _ name: String, _ label: String, note: String = "", _ platform: FieldPlatform, path: Bool = false,
        omitEmpty: Bool = false, _ kp: WritableKeyPath<Record, String> & Sendable
    ) -> Self {
        Self(
            name: name, label: label, note: note, kind: path ? .path : .text, platform: platform,
            notificationOnly: false,
            legacy: true, text: { omitEmpty && $0[keyPath: kp].isEmpty ? nil : $0[keyPath: kp] },
            set: { $0[keyPath: kp] = $1 ?? "" }, decode: { r, o in if let v = r.optional(name) { o[keyPath: kp] = v } })
    }

    /// An enumeration that always has a value: `default` when absent, else the file must give it.
    public static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ label: String, note: String = "", _ platform: FieldPlatform, section: FieldSection = .main,
        default dflt: E? = nil, _ kp: WritableKeyPath<Record, E> & Sendable
    ) -> Self where E.RawValue == String {
        var d = Self(
            name: name, label: label, note: note, kind: .choice(E.allCases.map(\.rawValue), default: dflt?.rawValue),
            platform: platform, notificationOnly: false, legacy: true, text: { $0[keyPath: kp].rawValue },
            set: { o, t in if let v = t.flatMap(E.init(rawValue:)) { o[keyPath: kp] = v } },
            decode: { r, o in
                if let v = try r.enumValue(name, E.self) ?? dflt {
                    o[keyPath: kp] = v
                } else {
                    let allowed = E.allCases.map(\.rawValue).joined(separator: "|")
                    throw r.error("<\(r.node.name)> needs `\(name)` (\(allowed))")
                }
            })
        d.section = section
        return d
    }

    /// A whole number ≥ `min`; nil = not set (`default` applies).
    public static func number(
        _ name: String, _ label: String, note: String = "", _ platform: FieldPlatform, section: FieldSection = .main,
        min: Int, default dflt: Int?, _ kp: WritableKeyPath<Record, Int?> & Sendable
    ) -> Self {
        var d = Self(
            name: name, label: label, note: note, kind: .number(min: min, default: dflt), platform: platform,
            notificationOnly: false, legacy: true, text: { $0[keyPath: kp].map(String.init) },
            set: { o, t in o[keyPath: kp] = t.flatMap { Int($0) }.flatMap { $0 >= min ? $0 : nil } },
            decode: { r, o in if let v = try r.int(name, min: min) { o[keyPath: kp] = v } })
        d.section = section
        return d
    }

    /// A credential attribute of one auth mode, read from and written to its `<auth>`
    /// element through the mode's values (`IOSAuth.values`); `.secret` ones are not in the file.
    /// A `.choice` leaves its default out of the file and refuses a value it does not list.
    public static func credential(
        _ name: String, _ label: String, note: String = "", _ platform: FieldPlatform, kind: FieldKind = .text,
        omitEmpty: Bool = false, required: String? = nil
    ) -> Self where Record == [String: String] {
        let (omitted, allowed): (String?, [String]?) =
            if case .choice(let values, let dflt) = kind { (dflt, values) } else { (nil, nil) }
        var d = Self(
            name: name, label: label, note: note, kind: kind, platform: platform, notificationOnly: false, legacy: true,
            text: {
                let v = $0[name] ?? ""
                return (omitEmpty || allowed != nil) && v.isEmpty || v == omitted ? nil : v
            },
            set: { $0[name] = $1 },
            decode: { r, o in
                let v = try allowed.map { try r.oneOf(name, $0) } ?? r.optional(name)
                if let v { o[name] = v }
            })
        d.required = required
        return d
    }

    public static func text(
        _ name: String, _ label: String, note: String = "", _ platform: FieldPlatform, notificationOnly: Bool = false,
        legacy: Bool = true, _ kp: WritableKeyPath<Record, String?> & Sendable
    ) -> Self {
        Self(
            name: name, label: label, note: note, kind: .text, platform: platform, notificationOnly: notificationOnly,
            legacy: legacy, text: { $0[keyPath: kp] }, set: { $0[keyPath: kp] = $1 },
            decode: { r, o in if let v = r.optional(name) { o[keyPath: kp] = v } })
    }

    /// A boolean: `.flag` when only `true` is sent, `.bool` when `false` is sent too.
    public static func bool(
        _ name: String, _ label: String, note: String = "", _ platform: FieldPlatform, notificationOnly: Bool = false,
        legacy: Bool = true, _ kp: WritableKeyPath<Record, Bool?> & Sendable
    ) -> Self {
        Self(
            name: name, label: label, note: note, kind: platform == .android ? .bool : .flag, platform: platform,
            notificationOnly: notificationOnly, legacy: legacy, text: { $0[keyPath: kp].map { $0 ? "true" : "false" } },
            set: { o, t in o[keyPath: kp] = t == "true" ? true : (t == "false" ? false : nil) },
            decode: { r, o in if let v = try r.bool(name) { o[keyPath: kp] = v } })
    }

    public static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ label: String, note: String = "", _ platform: FieldPlatform, default dflt: E? = nil,
        notificationOnly: Bool = false, legacy: Bool = true, _ kp: WritableKeyPath<Record, E?> & Sendable
    ) -> Self where E.RawValue == String {
        Self(
            name: name, label: label, note: note, kind: .choice(E.allCases.map(\.rawValue), default: dflt?.rawValue),
            platform: platform, notificationOnly: notificationOnly, legacy: legacy, text: { $0[keyPath: kp]?.rawValue },
            set: { o, t in o[keyPath: kp] = t.flatMap(E.init(rawValue:)) },
            decode: { r, o in if let v = try r.enumValue(name, E.self) { o[keyPath: kp] = v } })
    }
}

extension Array {
    /// The table's names in order: the element's attributes in the file's fixed order.
    public func names<R>() -> [String] where Element == FieldDefinition<R> { map(\.name) }

    /// The row named `name`.
    public func named<R>(_ name: String) -> FieldDefinition<R>? where Element == FieldDefinition<R> {
        first { $0.name == name }
    }

    /// The record's attributes as the file writes them, in table order (nil = left out).
    func attributes<R>(of r: R) -> [(String, String?)] where Element == FieldDefinition<R> {
        map { ($0.name, $0.text(r)) }
    }

    /// Reads every attribute of the table from `reader` into a record.
    func decode<R>(_ reader: ElementReader, into r: inout R) throws where Element == FieldDefinition<R> {
        // By index: a borrowed element, not a copy of every closure of each row per file.
        for i in indices { try self[i].decode(reader, &r) }
    }
}
