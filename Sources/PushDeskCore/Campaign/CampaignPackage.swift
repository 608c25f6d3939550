import Foundation

/// Services ⇄ an Adobe Campaign data package (`<package><entities schema="…">…`).
///
/// What Campaign names publicly is written under Campaign's names: the `nms:service` entity
/// (`name`, `label`, `type="40"` = mobile application service) and one `nms:mobileApp` entity per
/// app (`uuid` = integration key, `label`, `pushPlatform` 0 = iOS / 1 = Android, linked to its
/// service by the high-level key `<service _operation="none" name="…"/>`, variables under
/// `notificationCustomFields`, sounds under `notificationSounds`). Everything Campaign has no
/// public name for is carried in `pushdesk:` attributes and elements (namespace `urn:pushdesk`),
/// so that ours → package → ours is lossless. docs/HANDOFF.md has the mapping table.
///
/// Secrets are never exported: there are none in a service. Credential *references* (file
/// paths, secret names, key/team/project ids) stay out too unless asked for
/// (`includeCredentialRefs`), because a package usually leaves this machine.
public enum CampaignPackage {
    public static let namespace = "urn:pushdesk"
    static let p = "pushdesk:"
    /// `nms:service/@type` of a mobile application service.
    public static let mobileServiceType = "40"
    public static let ignored = Rule(
        "package.ignored", .warning, .package, "Campaign data PushDesk does not model, skipped on import")

    /// Fields Campaign's own attributes carry (`name`/`label` of a service, `uuid`/`label` of
    /// an app); every other row of the field tables is written in our namespace.
    static let campaignCarried: Set<String> = ["name", "label", "integrationKey"]
    static let serviceFields = Service.definitions.filter { !campaignCarried.contains($0.name) }
    /// The rows of a table in our namespace (Campaign's own attributes carry the rest).
    static func ours<R>(_ table: [FieldDefinition<R>]) -> [FieldDefinition<R>] {
        table.filter { !campaignCarried.contains($0.name) }
    }
    static func oursNames<R>(_ table: [FieldDefinition<R>]) -> [String] { ours(table).names() }
    typealias AuthModes = AuthModeTable
    /// `mode` and a mode's reference attributes (never a secret), from its table.
    static func authAttributes(_ mode: String, _ modes: AuthModes) -> [String] { ["mode"] + modes.stored(mode) }

    // MARK: writing

    public static func encode(_ services: [Service], includeCredentialRefs: Bool = false) throws -> String {
        var w = XMLWriter()
        try w.start("package", [("xmlns:pushdesk", namespace), (p + "format", "1")])
        try w.start("entities", [("schema", "nms:service")])
        for s in services {
            // Campaign's own name and label; the other fields as ours, an empty one left out
            // unless absence would mean something else (the target mapping's default).
            let ours = serviceFields.map { d -> (String, String?) in
                let v = d.text(s) ?? ""
                return (p + d.name, v.isEmpty && d.name != "targetMapping" ? nil : v)
            }
            try w.empty(
                "service", [("name", s.name), ("label", s.label), ("type", mobileServiceType)] + ours)
        }
        w.end()
        if services.contains(where: { !$0.apps.isEmpty }) {
            try w.start("entities", [("schema", "nms:mobileApp")])
            for s in services {
                for app in s.apps {
                    try writeApp(&w, app, service: s.name, includeCredentialRefs: includeCredentialRefs)
                }
            }
            w.end()
        }
        w.end()
        return w.output
    }

    private static func writeApp(_ w: inout XMLWriter, _ app: MobileApp, service: String, includeCredentialRefs: Bool)
        throws
    {
        // Campaign's own uuid and label carry the integration key and label; the rest of the
        // app's table goes in our namespace.
        func ours<R>(_ table: [FieldDefinition<R>], _ r: R) -> [(String, String?)] {
            Self.ours(table).map { (p + $0.name, $0.text(r)) }
        }
        switch app {
        case .ios(let a):
            try w.start(
                "mobileApp",
                [("uuid", a.integrationKey), ("label", a.label), ("pushPlatform", "0")] + ours(IOSApp.definitions, a))
        case .android(let a):
            try w.start(
                "mobileApp",
                [("uuid", a.integrationKey), ("label", a.label), ("pushPlatform", "1")]
                    + ours(AndroidApp.definitions, a))
        }
        try w.empty("service", [("_operation", "none"), ("name", service)])
        if includeCredentialRefs {
            // The mode's reference attributes from its table, as the service file writes them.
            func auth(_ mode: String, _ values: [String: String], _ modes: AuthModes) throws {
                let fields = modes[mode: mode]?.stored ?? []
                try w.empty(p + "auth", [("mode", mode)] + fields.map { ($0.name, $0.text(values)) })
            }
            switch app {
            case .ios(let a): if let x = a.auth { try auth(x.mode, x.values, IOSAuth.modes) }
            case .android(let a): if let x = a.auth { try auth(x.mode, x.values, AndroidAuth.modes) }
            }
        }
        if !app.variables.isEmpty {
            try w.start("notificationCustomFields")
            for v in app.variables { try w.empty(p + "variable", [("name", v.name), ("label", nonEmpty(v.label))]) }
            w.end()
        }
        if !app.subscriptionParams.isEmpty {
            try w.start(p + "subscriptionParams")
            for sp in app.subscriptionParams {
                try w.empty(p + "param", [("name", sp.name), ("label", nonEmpty(sp.label)), ("field", sp.field)])
            }
            w.end()
        }
        if !app.sounds.isEmpty {
            try w.start("notificationSounds")
            for snd in app.sounds { try w.empty(p + "sound", [("name", snd.name), ("label", nonEmpty(snd.label))]) }
            w.end()
        }
        w.end()
    }

    // MARK: reading

    /// What a package holds, and what was left out of it (each with its position).
    public struct Contents: Sendable {
        public var services: [Service]
        /// Warnings (`package.ignored`): Campaign data PushDesk does not model, skipped.
        public var notes: [Finding]
    }

    /// Reads a package. Our own `pushdesk:` names are read strictly (an unknown one is an error);
    /// Campaign's other entities and attributes are skipped with a note, never silently.
    public static func decode(_ data: Data, file: String) throws -> Contents {
        let root = try XMLReader.parse(data, file: file)
        var reader = PackageReader(file: file)
        return try reader.read(root)
    }
}

/// The reading side of `CampaignPackage`, keeping the notes as it goes.
struct PackageReader {
    let file: String
    var notes: [Finding] = []
    let map = SourceMapRecorder()
    static let p = CampaignPackage.p

    init(file: String) { self.file = file }

    mutating func read(_ root: XMLNode) throws -> CampaignPackage.Contents {
        let r = ElementReader(root, file: file, sourceMap: map)
        guard root.name == "package" else {
            throw r.error("the root element is <\(Escape.inline(root.name))>; a Campaign package starts with <package>")
        }
        if let uri = root.attribute("xmlns:pushdesk"), uri != CampaignPackage.namespace {
            throw r.error(
                attribute: "xmlns:pushdesk",
                "the pushdesk prefix is bound to \"\(Escape.inline(uri))\"; PushDesk's namespace is \(CampaignPackage.namespace)"
            )
        }
        if let format = root.attribute(Self.p + "format"), format != "1" {
            throw r.error(
                attribute: Self.p + "format",
                "package format \"\(Escape.inline(format))\" is not supported; this PushDesk reads format 1")
        }
        try ours(r, allowed: ["format"])
        note(
            r,
            unknownCampaignAttributes: root.attributes.map(\.name).filter {
                !$0.hasPrefix(Self.p) && !$0.hasPrefix("xmlns")
            })

        var services: [Service] = []
        var pendingApps: [(service: String, app: MobileApp, node: XMLNode)] = []
        for entities in root.children {
            let e = ElementReader(entities, file: file, sourceMap: map)
            guard entities.name == "entities" else {
                note(e, "<\(Escape.inline(entities.name))> is not <entities>; skipped")
                continue
            }
            switch entities.attribute("schema") {
            case "nms:service":
                for node in entities.children {
                    if let s = try service(node) { services.append(s) }
                }
            case "nms:mobileApp":
                for node in entities.children {
                    if let (svc, app) = try mobileApp(node) { pendingApps.append((svc, app, node)) }
                }
            case let other:
                note(e, "entities of schema \"\(Escape.inline(other ?? ""))\" are not services or mobile apps; skipped")
            }
        }
        for (name, app, node) in pendingApps {
            guard let i = services.firstIndex(where: { $0.name == name }) else {
                throw StoreError(
                    file: file, line: node.line, column: node.column,
                    "mobile app \(Escape.inline(app.integrationKey)) links to service \"\(Escape.inline(name))\", which is not a mobile application service of this package; export the service with its apps"
                )
            }
            services[i].apps.append(app)
        }
        return CampaignPackage.Contents(services: services, notes: notes)
    }

    private mutating func service(_ node: XMLNode) throws -> Service? {
        let r = ElementReader(node, file: file, sourceMap: map)
        guard node.name == "service" else {
            note(r, "<\(Escape.inline(node.name))> inside nms:service entities; skipped")
            return nil
        }
        if let type = node.attribute("type"), type != CampaignPackage.mobileServiceType {
            note(
                r,
                "service \(Escape.inline(node.attribute("name") ?? "")) has type \(Escape.inline(type)), not a mobile application service (40); skipped"
            )
            return nil
        }
        try ours(r, allowed: CampaignPackage.serviceFields.names())
        note(r, unknownCampaignAttributes: campaignAttributes(node).filter { !["name", "label", "type"].contains($0) })
        for child in node.children {
            note(
                ElementReader(child, file: file, sourceMap: map),
                "<\(Escape.inline(child.name))> inside <service> is not modelled by PushDesk; skipped")
        }
        let name = try r.required("name")
        guard Store.isValidName(name) else {
            throw r.error(
                attribute: "name",
                "service name \"\(Escape.inline(name))\" cannot be a file name in the store (\(Store.nameRule)); rename it in the package"
            )
        }
        // Campaign's name and label; the rest of the service's table in our namespace.
        var service = Service(name: name, label: node.attribute("label") ?? "")
        try CampaignPackage.serviceFields.decode(r.prefixed(Self.p), into: &service)
        return service
    }

    private mutating func mobileApp(_ node: XMLNode) throws -> (String, MobileApp)? {
        let r = ElementReader(node, file: file, sourceMap: map)
        guard node.name == "mobileApp" else {
            note(r, "<\(Escape.inline(node.name))> inside nms:mobileApp entities; skipped")
            return nil
        }
        note(
            r,
            unknownCampaignAttributes: campaignAttributes(node).filter {
                !["uuid", "label", "pushPlatform"].contains($0)
            })
        let key = try r.required("uuid")
        let label = node.attribute("label") ?? ""
        var serviceName: String?
        var auth: XMLNode?
        var variables: [AppVariable] = []
        var params: [SubscriptionParam] = []
        var sounds: [Sound] = []
        for child in node.children {
            let c = ElementReader(child, file: file, sourceMap: map)
            switch child.name {
            case "service":
                serviceName = try c.required("name")
            case Self.p + "auth":
                auth = child
            case "notificationCustomFields":
                variables = try items(child, Self.p + "variable", ["name", "label"]).map {
                    AppVariable(name: $0.attribute("name") ?? "", label: $0.attribute("label") ?? "")
                }
            case Self.p + "subscriptionParams":
                params = try items(child, Self.p + "param", ["name", "label", "field"]).map {
                    SubscriptionParam(
                        name: $0.attribute("name") ?? "", label: $0.attribute("label") ?? "",
                        field: $0.attribute("field") ?? "")
                }
            case "notificationSounds":
                sounds = try items(child, Self.p + "sound", ["name", "label"]).map {
                    Sound(name: $0.attribute("name") ?? "", label: $0.attribute("label") ?? "")
                }
            case let other where other.hasPrefix(Self.p):
                throw c.error(
                    "unknown element <\(Escape.inline(other))> inside <mobileApp>; expected pushdesk:auth or pushdesk:subscriptionParams"
                )
            default:
                note(c, "<\(Escape.inline(child.name))> inside <mobileApp> is not modelled by PushDesk; skipped")
            }
        }
        guard let serviceName else {
            throw r.error(
                "mobile app \(Escape.inline(key)) has no <service name=\"…\"/> link; every app belongs to a service")
        }
        switch node.attribute("pushPlatform") {
        case "0":
            try ours(r, allowed: CampaignPackage.oursNames(IOSApp.definitions))
            guard let env = try r.enumValue(Self.p + "environment", IOSEnvironment.self) else {
                throw r.error(
                    "iOS mobile app \(Escape.inline(key)) needs pushdesk:environment=\"sandbox|production\" (Campaign has no public name for it)"
                )
            }
            var app = IOSApp(
                environment: env, label: label, integrationKey: key, bundleId: "", variables: variables,
                subscriptionParams: params, sounds: sounds)
            try CampaignPackage.ours(IOSApp.definitions).decode(r.prefixed(Self.p), into: &app)
            if let auth { app.auth = try self.auth(auth, IOSAuth.modes, "an iOS", IOSAuth.init(mode:values:)) }
            return (serviceName, .ios(app))
        case "1":
            try ours(r, allowed: CampaignPackage.oursNames(AndroidApp.definitions))
            if let first = node.children.first(where: { $0.name == "notificationSounds" }), !sounds.isEmpty {
                throw StoreError(
                    file: file, line: first.line, column: first.column,
                    "Android app \(Escape.inline(key)) has sounds; sounds belong to iOS apps only")
            }
            var app = AndroidApp(
                label: label, integrationKey: key, packageName: "", variables: variables, subscriptionParams: params)
            try CampaignPackage.ours(AndroidApp.definitions).decode(r.prefixed(Self.p), into: &app)
            if let auth {
                app.auth = try self.auth(auth, AndroidAuth.modes, "an Android", AndroidAuth.init(mode:values:))
            }
            return (serviceName, .android(app))
        case let other:
            throw r.error(
                attribute: "pushPlatform",
                "pushPlatform is \"\(Escape.inline(other ?? ""))\" on mobile app \(Escape.inline(key)); expected 0 (iOS) or 1 (Android)"
            )
        }
    }

    /// Reference attributes only: a secret value has no attribute here, so it is refused as
    /// unknown. The mode's attributes are its table's (`IOSAuth.modes`, `AndroidAuth.modes`).
    private func auth<Auth>(
        _ node: XMLNode, _ modes: CampaignPackage.AuthModes, _ platform: String,
        _ make: (String, [String: String]) -> Auth?
    ) throws -> Auth {
        let a = ElementReader(node, file: file, sourceMap: map)
        let mode = try a.required("mode")
        guard let fields = modes[mode: mode]?.stored else {
            throw a.error(
                attribute: "mode",
                "auth mode \"\(Escape.inline(mode))\" is not \(platform) mode; expected \(modes.map(\.mode).joined(separator: "|"))"
            )
        }
        try strict(a, CampaignPackage.authAttributes(mode, modes))
        var values: [String: String] = [:]
        try fields.decode(a, into: &values)
        return make(mode, values)!
    }

    private func strict(_ a: ElementReader, _ allowed: [String]) throws {
        for attr in a.node.attributes where !allowed.contains(attr.name) {
            throw a.error(
                attribute: attr.name,
                "`\(Escape.inline(attr.name))` is not allowed on <pushdesk:auth mode=\"\(Escape.inline(a.node.attribute("mode") ?? ""))\">; expected: \(allowed.dropFirst().joined(separator: ", ")) (references only, never a secret)"
            )
        }
        try a.checkChildren([])
    }

    /// Items of a list container: only `itemName` elements with the given attributes.
    private func items(_ container: XMLNode, _ itemName: String, _ attributes: [String]) throws -> [XMLNode] {
        for item in container.children {
            let e = ElementReader(item, file: file, sourceMap: map)
            guard item.name == itemName else {
                throw e.error(
                    "unknown element <\(Escape.inline(item.name))> inside <\(container.name)>; expected <\(itemName)>")
            }
            try e.checkAttributes(attributes)
            try e.checkChildren([])
        }
        return Array(container.children)
    }

    /// Our own attributes must be known: a typo in `pushdesk:` would otherwise lose data.
    private func ours(_ r: ElementReader, allowed: [String]) throws {
        for a in r.node.attributes where a.name.hasPrefix(Self.p) {
            let local = String(a.name.dropFirst(Self.p.count))
            guard allowed.contains(local) else {
                throw r.error(
                    attribute: a.name,
                    "unknown attribute `\(Escape.inline(a.name))` on <\(r.node.name)>; expected one of: \(allowed.map { Self.p + $0 }.joined(separator: ", "))"
                )
            }
        }
    }

    private func campaignAttributes(_ node: XMLNode) -> [String] {
        node.attributes.map(\.name).filter { !$0.hasPrefix(Self.p) && !$0.hasPrefix("xmlns") }
    }

    private mutating func note(_ r: ElementReader, unknownCampaignAttributes names: [String]) {
        guard !names.isEmpty else { return }
        let p = r.node.position(ofAttribute: names[0])
        notes.append(
            CampaignPackage.ignored.finding(
                "attributes not modelled by PushDesk were skipped: \(names.map { Escape.inline($0) }.joined(separator: ", "))",
                file: file, field: FieldPath(r.node.name), line: p.line, column: p.column))
    }

    private mutating func note(_ r: ElementReader, _ message: String) {
        notes.append(
            CampaignPackage.ignored.finding(
                message, file: file, field: FieldPath(r.node.name),
                line: r.node.line, column: r.node.column))
    }
}
