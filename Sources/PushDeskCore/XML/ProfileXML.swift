import Foundation

/// `profiles/<name>.xml`: `<recipient field="value" …>` (any attribute names, in file order)
/// holding `<subscription app token userKey label kind>` test devices (docs/FORMATS.md), in
/// file order.
public enum ProfileXML {
    static let subscriptionAttributes = ["app", "token", "userKey", "label", "kind", "locale"]

    public static func decode(_ data: Data, file: String, name: String) throws -> Profile {
        try decode(data, file: file, name: name, recording: nil)
    }

    static func decode(_ data: Data, file: String, name: String, recording map: SourceMapRecorder?) throws -> Profile {
        try decode(XMLReader.parse(data, file: file), file: file, name: name, recording: map)
    }

    /// An already parsed file (the merge driver parses each version once).
    static func decode(_ root: XMLNode, file: String, name: String, recording map: SourceMapRecorder? = nil) throws
        -> Profile
    {
        let r = ElementReader(root, file: file, sourceMap: map)
        guard root.name == RecordKind.profile.rootElement else {
            throw r.error("the root element is <\(root.name)>; a profile file is <recipient firstName=\"…\" …/>")
        }
        try r.checkChildren(["subscription"], repeatable: ["subscription"])
        if let map {
            for a in root.attributes { map.record(a.name, root.position(ofAttribute: a.name)) }
        }
        var subscriptions: [Subscription] = []
        for (i, child) in root.children.enumerated() {
            let s = r.reader(for: child, path: "subscriptions[\(i)].")
            try s.checkAttributes(subscriptionAttributes)
            try s.checkChildren([])
            subscriptions.append(
                Subscription(
                    app: try s.required("app"), token: try s.required("token"), userKey: s.optional("userKey"),
                    label: s.optional("label"), kind: try s.enumValue("kind", TokenKind.self) ?? .device,
                    locale: s.optional("locale")))
        }
        return Profile(name: name, fields: root.attributes.map { ($0.name, $0.value) }, subscriptions: subscriptions)
    }

    /// What a profile field may be called (it becomes an attribute name): an ASCII letter or
    /// `_` first, then letters, digits, `_`, `-` and `.`.
    public static func isFieldName(_ name: String) -> Bool {
        func letter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" }
        guard let first = name.unicodeScalars.first, letter(first) else { return false }
        return name.unicodeScalars.allSatisfy { letter($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }
    }

    public static func encode(_ p: Profile) throws -> String {
        // Field names become attribute names: plain XML names, once each.
        var seen = Set<String>()
        for f in p.fields {
            guard isFieldName(f.name) else {
                throw XMLEncodeError(
                    "the profile field name \"\(Escape.inline(f.name))\" is not usable; use letters, digits, _, - and . (a letter or _ first)"
                )
            }
            if !seen.insert(f.name).inserted {
                throw XMLEncodeError("the profile field `\(f.name)` is given twice; keep one")
            }
        }
        var w = XMLWriter()
        let attributes = p.fields.map { ($0.name, Optional($0.value)) }
        if p.subscriptions.isEmpty {
            try w.empty("recipient", attributes)
        } else {
            try w.start("recipient", attributes)
            for s in p.subscriptions {
                try w.empty(
                    "subscription",
                    [
                        ("app", s.app), ("token", s.token), ("userKey", s.userKey), ("label", s.label),
                        ("kind", s.kind == .device ? nil : s.kind.rawValue),
                        // A tag is written canonically; one that is not is kept for its rule.
                        ("locale", s.locale.map { LocaleTag($0)?.description ?? $0 }),
                    ])
            }
            w.end()
        }
        return w.output
    }
}
