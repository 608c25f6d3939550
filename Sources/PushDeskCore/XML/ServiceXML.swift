import Foundation

/// `services/<name>.xml` ⇄ `Service` (docs/FORMATS.md). Attribute order here is the file's fixed order.
public enum ServiceXML {
    static let serviceAttributes = ["format"] + Service.definitions.names()
    static let iosAppAttributes = IOSApp.definitions.names()
    static let androidAppAttributes = AndroidApp.definitions.names()
    static let channelAttributes = BroadcastChannel.definitions.names()
    static let iosAuthAttributes = authAttributes(IOSAuth.modes)
    static let androidAuthAttributes = authAttributes(AndroidAuth.modes)

    /// `mode`, then every mode's attributes that the file holds, once each.
    private static func authAttributes(_ modes: AuthModeTable) -> [String] {
        var names = ["mode"]
        for f in modes.flatMap(\.stored) where !names.contains(f.name) { names.append(f.name) }
        return names
    }

    // MARK: reading

    /// The service, and where its fields stand (found again from `data` when first asked).
    public static func decode(_ data: Data, file: String) throws -> (Service, SourceMap) {
        try SourceMap.decoding(data, file: file) { try decode($0, file: $1, recording: $2) }
    }

    static func decode(_ data: Data, file: String, recording map: SourceMapRecorder?) throws -> Service {
        try decode(XMLReader.parse(data, file: file), file: file, recording: map)
    }

    /// An already parsed file (the merge driver parses each version once).
    static func decode(_ root: XMLNode, file: String, recording map: SourceMapRecorder? = nil) throws -> Service {
        let r = ElementReader(root, file: file, sourceMap: map)
        try r.checkRoot(RecordKind.service.rootElement)
        try r.checkAttributes(serviceAttributes)
        try r.checkChildren(["iosApp", "androidApp"], repeatable: ["iosApp", "androidApp"])
        var service = Service(name: try r.required("name"), label: "")
        try Service.definitions.decode(r, into: &service)
        for (i, child) in root.children.enumerated() {
            let a = r.reader(for: child, path: "apps[\(i)].")
            service.apps.append(child.name == "iosApp" ? .ios(try iosApp(a)) : .android(try androidApp(a)))
        }
        return service
    }

    private static func iosApp(_ r: ElementReader) throws -> IOSApp {
        try r.checkAttributes(iosAppAttributes)
        try r.checkChildren(["auth", "variables", "subscriptionParams", "sounds", "channels"])
        var app = IOSApp(environment: .sandbox, label: "", integrationKey: "", bundleId: "")
        try IOSApp.definitions.decode(r, into: &app)
        if let auth = r.child(named: "auth") {
            let a = r.reader(for: auth, path: r.path + "auth.")
            try a.checkAttributes(iosAuthAttributes)
            try a.checkChildren([])
            let mode = try a.required("mode")
            guard let fields = iosAuthModes[mode] else {
                throw a.error(
                    attribute: "mode",
                    "auth mode \"\(Escape.inline(mode))\" is not an iOS mode; expected token|certificate")
            }
            app.auth = IOSAuth(mode: mode, values: try authValues(a, fields, mode: mode))
        }
        (app.variables, app.subscriptionParams) = try lists(r)
        if let sounds = r.child(named: "sounds") {
            let s = r.reader(for: sounds, path: r.path + "sounds")
            try s.checkAttributes([])
            try s.checkChildren(["sound"], repeatable: ["sound"])
            for (j, node) in sounds.children.enumerated() {
                let e = r.reader(for: node, path: r.path + "sounds[\(j)].")
                try e.checkAttributes(["name", "label"])
                try e.checkChildren([])
                app.sounds.append(Sound(name: e.optional("name") ?? "", label: e.optional("label") ?? ""))
            }
        }
        if let channels = r.child(named: "channels") {
            let c = r.reader(for: channels, path: r.path + "channels")
            try c.checkAttributes([])
            try c.checkChildren(["channel"], repeatable: ["channel"])
            for (j, node) in channels.children.enumerated() {
                let e = r.reader(for: node, path: r.path + "channels[\(j)].")
                try e.checkAttributes(channelAttributes)
                try e.checkChildren([])
                var channel = BroadcastChannel(id: "")
                try BroadcastChannel.definitions.decode(e, into: &channel)
                app.channels.append(channel)
            }
        }
        return app
    }

    private static func androidApp(_ r: ElementReader) throws -> AndroidApp {
        try r.checkAttributes(androidAppAttributes)
        try r.checkChildren(["auth", "variables", "subscriptionParams"])
        var app = AndroidApp(label: "", integrationKey: "", packageName: "")
        try AndroidApp.definitions.decode(r, into: &app)
        if let auth = r.child(named: "auth") {
            let a = r.reader(for: auth, path: r.path + "auth.")
            try a.checkAttributes(androidAuthAttributes)
            try a.checkChildren([])
            let mode = try a.required("mode")
            guard let fields = androidAuthModes[mode] else {
                throw a.error(
                    attribute: "mode",
                    "auth mode \"\(Escape.inline(mode))\" is not an Android mode; expected serviceAccount|serverKey")
            }
            app.auth = AndroidAuth(mode: mode, values: try authValues(a, fields, mode: mode))
        }
        (app.variables, app.subscriptionParams) = try lists(r)
        return app
    }

    /// Each auth mode's attributes in the file (its secrets live in secrets/), found once.
    private typealias AuthAttributes = (fields: [FieldDefinition<[String: String]>], allowed: [String])
    private static let iosAuthModes = inFile(IOSAuth.modes)
    private static let androidAuthModes = inFile(AndroidAuth.modes)
    private static func inFile(_ modes: AuthModeTable) -> [String: AuthAttributes] {
        var out: [String: AuthAttributes] = [:]
        for m in modes { out[m.mode] = (m.stored, ["mode"] + m.stored.names()) }
        return out
    }

    /// The values of one auth mode's attributes; one of another mode is refused.
    private static func authValues(_ a: ElementReader, _ attributes: AuthAttributes, mode: String) throws
        -> [String: String]
    {
        try onlyAttributes(a, attributes.allowed, mode: mode)
        var values: [String: String] = [:]
        try attributes.fields.decode(a, into: &values)
        return values
    }

    /// An attribute that belongs to the other auth mode is a mistake worth stopping on.
    private static func onlyAttributes(_ a: ElementReader, _ allowed: [String], mode: String) throws {
        for attr in a.node.attributes where !allowed.contains(attr.name) {
            throw a.error(
                attribute: attr.name,
                "`\(attr.name)` does not belong to auth mode \"\(mode)\"; expected: \(allowed.dropFirst().joined(separator: ", "))"
            )
        }
    }

    private static func lists(_ r: ElementReader) throws -> ([AppVariable], [SubscriptionParam]) {
        var variables: [AppVariable] = []
        var params: [SubscriptionParam] = []
        if let node = r.child(named: "variables") {
            let v = r.reader(for: node, path: r.path + "variables")
            try v.checkAttributes([])
            try v.checkChildren(["variable"], repeatable: ["variable"])
            for (j, child) in node.children.enumerated() {
                let e = r.reader(for: child, path: r.path + "variables[\(j)].")
                try e.checkAttributes(["name", "label"])
                try e.checkChildren([])
                variables.append(AppVariable(name: e.optional("name") ?? "", label: e.optional("label") ?? ""))
            }
        }
        if let node = r.child(named: "subscriptionParams") {
            let p = r.reader(for: node, path: r.path + "subscriptionParams")
            try p.checkAttributes([])
            try p.checkChildren(["param"], repeatable: ["param"])
            for (j, child) in node.children.enumerated() {
                let e = r.reader(for: child, path: r.path + "subscriptionParams[\(j)].")
                try e.checkAttributes(["name", "label", "field"])
                try e.checkChildren([])
                params.append(
                    SubscriptionParam(
                        name: e.optional("name") ?? "", label: e.optional("label") ?? "",
                        field: e.optional("field") ?? ""))
            }
        }
        return (variables, params)
    }

    // MARK: writing

    public static func encode(_ s: Service) throws -> String {
        var w = XMLWriter()
        try w.start("service", [("format", "1")] + Service.definitions.attributes(of: s))
        for app in s.apps {
            switch app {
            case .ios(let a):
                try w.start("iosApp", IOSApp.definitions.attributes(of: a))
                if let auth = a.auth { try writeAuth(&w, auth.mode, auth.values, IOSAuth.modes) }
                try writeLists(&w, a.variables, a.subscriptionParams)
                if !a.sounds.isEmpty {
                    try w.start("sounds")
                    for snd in a.sounds { try w.empty("sound", [("name", snd.name), ("label", nonEmpty(snd.label))]) }
                    w.end()
                }
                if !a.channels.isEmpty {
                    try w.start("channels")
                    for c in a.channels { try w.empty("channel", BroadcastChannel.definitions.attributes(of: c)) }
                    w.end()
                }
                w.end()
            case .android(let a):
                try w.start("androidApp", AndroidApp.definitions.attributes(of: a))
                if let auth = a.auth { try writeAuth(&w, auth.mode, auth.values, AndroidAuth.modes) }
                try writeLists(&w, a.variables, a.subscriptionParams)
                w.end()
            }
        }
        w.end()
        return w.output
    }

    private static func writeAuth(
        _ w: inout XMLWriter, _ mode: String, _ values: [String: String],
        _ modes: AuthModeTable
    ) throws {
        let fields = modes[mode: mode]?.stored ?? []
        try w.empty("auth", [("mode", mode)] + fields.attributes(of: values))
    }

    private static func writeLists(_ w: inout XMLWriter, _ vars: [AppVariable], _ params: [SubscriptionParam]) throws {
        if !vars.isEmpty {
            try w.start("variables")
            for v in vars { try w.empty("variable", [("name", v.name), ("label", nonEmpty(v.label))]) }
            w.end()
        }
        if !params.isEmpty {
            try w.start("subscriptionParams")
            for p in params {
                try w.empty("param", [("name", p.name), ("label", nonEmpty(p.label)), ("field", p.field)])
            }
            w.end()
        }
    }
}

/// nil for an empty string, so optional attributes are left out rather than written empty.
func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }
