import Foundation

/// `services/<name>.xml` ⇄ `Service` (SPEC §3.1). Attribute order here is the file's fixed order.
public enum ServiceXML {
    static let serviceAttributes = ["format", "name", "label", "targetMapping", "marketingUrl", "trackingUrl"]
    static let iosAppAttributes = ["environment", "label", "integrationKey", "bundleId", "connector", "icon"]
    static let androidAppAttributes = [
        "label", "integrationKey", "packageName", "api", "connector", "maxConnectPerChild", "icon",
    ]
    static let iosAuthAttributes = ["mode", "keyId", "teamId", "keyFile", "certificateFile", "passwordRef"]
    static let androidAuthAttributes = ["mode", "projectId", "clientEmail", "keyFile", "serverKeyRef"]

    // MARK: reading

    /// The service, and where its fields stand (found again from `data` when first asked).
    public static func decode(_ data: Data, file: String) throws -> (Service, SourceMap) {
        try SourceMap.decoding(data, file: file) { try decode($0, file: $1, recording: $2) }
    }

    static func decode(_ data: Data, file: String, recording map: SourceMapRecorder?) throws -> Service {
        let root = try XMLReader.parse(data, file: file)
        let r = ElementReader(root, file: file, sourceMap: map)
        try r.checkRoot("service")
        try r.checkAttributes(serviceAttributes)
        try r.checkChildren(["iosApp", "androidApp"], repeatable: ["iosApp", "androidApp"])
        var service = Service(
            name: try r.required("name"), label: r.optional("label") ?? "",
            targetMapping: r.optional("targetMapping") ?? Service.defaultTargetMapping,
            marketingUrl: r.optional("marketingUrl") ?? "",
            trackingUrl: r.optional("trackingUrl") ?? "")
        for (i, child) in root.children.enumerated() {
            let a = r.reader(for: child, path: "apps[\(i)].")
            service.apps.append(child.name == "iosApp" ? .ios(try iosApp(a)) : .android(try androidApp(a)))
        }
        return service
    }

    private static func iosApp(_ r: ElementReader) throws -> IOSApp {
        try r.checkAttributes(iosAppAttributes)
        try r.checkChildren(["auth", "variables", "subscriptionParams", "sounds"])
        guard let env = try r.enumValue("environment", IOSEnvironment.self) else {
            throw r.error("<iosApp> needs `environment` (sandbox|production)")
        }
        var app = IOSApp(
            environment: env, label: r.optional("label") ?? "",
            integrationKey: r.optional("integrationKey") ?? "",
            bundleId: r.optional("bundleId") ?? "",
            connector: try r.enumValue("connector", IOSConnector.self) ?? .http2,
            icon: r.optional("icon") ?? "")
        if let auth = r.child(named: "auth") {
            let a = r.reader(for: auth, path: r.path + "auth.")
            try a.checkAttributes(iosAuthAttributes)
            try a.checkChildren([])
            switch try a.required("mode") {
            case "token":
                try onlyAttributes(a, ["mode", "keyId", "teamId", "keyFile"], mode: "token")
                app.auth = .token(
                    keyId: a.optional("keyId") ?? "", teamId: a.optional("teamId") ?? "",
                    keyFile: a.optional("keyFile") ?? "")
            case "certificate":
                try onlyAttributes(a, ["mode", "certificateFile", "passwordRef"], mode: "certificate")
                app.auth = .certificate(
                    certificateFile: a.optional("certificateFile") ?? "",
                    passwordRef: a.optional("passwordRef") ?? "")
            case let other:
                throw a.error(
                    attribute: "mode",
                    "auth mode \"\(Escape.inline(other))\" is not an iOS mode; expected token|certificate")
            }
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
        return app
    }

    private static func androidApp(_ r: ElementReader) throws -> AndroidApp {
        try r.checkAttributes(androidAppAttributes)
        try r.checkChildren(["auth", "variables", "subscriptionParams"])
        var app = AndroidApp(
            label: r.optional("label") ?? "", integrationKey: r.optional("integrationKey") ?? "",
            packageName: r.optional("packageName") ?? "",
            api: try r.enumValue("api", AndroidAPI.self) ?? .httpv1,
            connector: try r.enumValue("connector", AndroidConnector.self) ?? .v2,
            maxConnectPerChild: try r.int("maxConnectPerChild", min: 1),
            icon: r.optional("icon") ?? "")
        if let auth = r.child(named: "auth") {
            let a = r.reader(for: auth, path: r.path + "auth.")
            try a.checkAttributes(androidAuthAttributes)
            try a.checkChildren([])
            switch try a.required("mode") {
            case "serviceAccount":
                try onlyAttributes(a, ["mode", "projectId", "clientEmail", "keyFile"], mode: "serviceAccount")
                app.auth = .serviceAccount(
                    projectId: a.optional("projectId") ?? "",
                    clientEmail: a.optional("clientEmail") ?? "",
                    keyFile: a.optional("keyFile") ?? "")
            case "serverKey":
                try onlyAttributes(a, ["mode", "serverKeyRef"], mode: "serverKey")
                app.auth = .serverKey(serverKeyRef: a.optional("serverKeyRef") ?? "")
            case let other:
                throw a.error(
                    attribute: "mode",
                    "auth mode \"\(Escape.inline(other))\" is not an Android mode; expected serviceAccount|serverKey")
            }
        }
        (app.variables, app.subscriptionParams) = try lists(r)
        return app
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
        try w.start(
            "service",
            [
                ("format", "1"), ("name", s.name), ("label", s.label), ("targetMapping", s.targetMapping),
                ("marketingUrl", s.marketingUrl), ("trackingUrl", s.trackingUrl),
            ])
        for app in s.apps {
            switch app {
            case .ios(let a):
                try w.start(
                    "iosApp",
                    [
                        ("environment", a.environment.rawValue), ("label", a.label),
                        ("integrationKey", a.integrationKey), ("bundleId", a.bundleId),
                        ("connector", a.connector.rawValue), ("icon", nonEmpty(a.icon)),
                    ])
                switch a.auth {
                case .token(let keyId, let teamId, let keyFile)?:
                    try w.empty(
                        "auth", [("mode", "token"), ("keyId", keyId), ("teamId", teamId), ("keyFile", keyFile)])
                case .certificate(let file, let ref)?:
                    try w.empty(
                        "auth", [("mode", "certificate"), ("certificateFile", file), ("passwordRef", nonEmpty(ref))])
                case nil: break
                }
                try writeLists(&w, a.variables, a.subscriptionParams)
                if !a.sounds.isEmpty {
                    try w.start("sounds")
                    for snd in a.sounds { try w.empty("sound", [("name", snd.name), ("label", nonEmpty(snd.label))]) }
                    w.end()
                }
                w.end()
            case .android(let a):
                try w.start(
                    "androidApp",
                    [
                        ("label", a.label), ("integrationKey", a.integrationKey),
                        ("packageName", a.packageName), ("api", a.api.rawValue),
                        ("connector", a.connector.rawValue),
                        ("maxConnectPerChild", a.maxConnectPerChild.map(String.init)),
                        ("icon", nonEmpty(a.icon)),
                    ])
                switch a.auth {
                case .serviceAccount(let projectId, let email, let keyFile)?:
                    try w.empty(
                        "auth",
                        [
                            ("mode", "serviceAccount"), ("projectId", projectId),
                            ("clientEmail", email), ("keyFile", keyFile),
                        ])
                case .serverKey(let ref)?:
                    try w.empty("auth", [("mode", "serverKey"), ("serverKeyRef", ref)])
                case nil: break
                }
                try writeLists(&w, a.variables, a.subscriptionParams)
                w.end()
            }
        }
        w.end()
        return w.output
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
