import Foundation

/// Store-level rules over services (docs/RULES.md, "Service rules"). One implementation,
/// used by `pushdesk validate` and live by the console. The rules are values (below); their
/// checks are in ServiceFieldRules, AppRules, IOSAppRules, AndroidAppRules, IOSPairingRules
/// and IntegrationKeyIndex, composed by RuleCatalog.
public enum ServiceRules {
    /// Names the apps' SDK or the push services reserve for themselves (docs/RULES.md).
    public static let reservedVariableNames: Set<String> = [
        "aps", "_mId", "_dId", "_msg", "from", "message_type", "notification",
    ]

    public static func isReservedVariableName(_ name: String) -> Bool {
        // Checked for every variable of every app and delivery: most names are ruled out
        // by their first byte before any hashing or prefix comparison.
        guard let first = name.utf8.first else { return false }
        if first == UInt8(ascii: "g"), name.hasPrefix("google") || name.hasPrefix("gcm") { return true }
        return reservedFirstBytes[Int(first)] && reservedVariableNames.contains(name)
    }
    private static let reservedFirstBytes: [Bool] = {
        var t = [Bool](repeating: false, count: 256)
        for n in reservedVariableNames { if let f = n.utf8.first { t[Int(f)] = true } }
        return t
    }()

    // MARK: the rules

    public static let serviceName = Rule(
        "service.name", .error, .service, "the service name is not a valid file name")
    public static let fieldRequired = Rule(
        "field.required", .error, .service, "a required value of the service or of one of its apps is empty")
    public static let targetMappingFormat = Rule(
        "target-mapping.format", .error, .service, "target mapping is not namespace:name")
    public static let urlFormat = Rule(
        "url.format", .error, .service, "marketing or tracking URL is not an absolute http(s) URL with a host")
    public static let noApps = Rule("service.no-apps", .warning, .service, "a service with no app")
    public static let iosPairDuplicate = Rule(
        "ios.pairing", .error, .service, "two iOS apps of the same environment")
    public static let iosPairMissing = Rule(
        "ios.pairing", .warning, .service, "a sandbox iOS app without a production one, or the reverse")
    public static let iosPairBundle = Rule(
        "ios.pair-bundle", .warning, .service, "the sandbox and production apps have different bundle ids")
    public static let integrationKeyFormat = Rule(
        "integration-key.format", .error, .app, "an integration key contains white space")
    public static let variableDuplicate = Rule(
        "variable.duplicate", .error, .app, "a variable name declared twice in one app")
    public static let variableReserved = Rule(
        "variable.reserved", .error, .app, "a variable name reserved by APNs, FCM or Campaign")
    public static let variableLongName = Rule(
        "variable.long-name", .warning, .app, "a variable name over 32 bytes")
    public static let paramDuplicate = Rule(
        "param.duplicate", .error, .app, "a subscription parameter declared twice in one app")
    public static let paramField = Rule(
        "param.field", .error, .app, "a subscription parameter's field is not one @ and an XML name")
    public static let soundDuplicate = Rule("sound.duplicate", .error, .app, "a sound declared twice in one app")
    public static let bundleIdFormat = Rule("bundle-id.format", .error, .app, "iOS bundle id is not reverse-DNS")
    public static let packageNameFormat = Rule(
        "package-name.format", .error, .app, "Android package name is not a Java package name")
    public static let connectorBinary = Rule(
        "connector.binary", .warning, .app, "iOS app on the binary connector (retired by Apple)")
    public static let connectorV1HTTPv1 = Rule(
        "connector.v1-httpv1", .error, .app, "Android api=\"httpv1\" with connector=\"v1\"")
    public static let connectorMaxConnectV1 = Rule(
        "connector.max-connect-v1", .warning, .app, "maxConnectPerChild set on an app using connector v1")
    public static let fcmLegacyAPI = Rule("fcm.legacy-api", .warning, .app, "Android api=\"legacy\"")
    public static let authMissing = Rule("auth.missing", .warning, .app, "an app without credentials")
    public static let authAPIMismatch = Rule(
        "auth.api-mismatch", .error, .app, "legacy API with a service account, or HTTP v1 with a server key")
    public static let integrationKeyDuplicate = Rule(
        "integration-key.duplicate", .error, .integrationKeys, "two apps in the store share an integration key")

    /// Every service rule, in the order of docs/RULES.md.
    public static let all: [Rule] = [
        integrationKeyDuplicate, connectorBinary, connectorV1HTTPv1, connectorMaxConnectV1, fcmLegacyAPI,
        authAPIMismatch, authMissing, variableReserved, variableDuplicate, variableLongName, paramDuplicate,
        paramField, soundDuplicate, fieldRequired, serviceName, noApps, targetMappingFormat, urlFormat,
        integrationKeyFormat, bundleIdFormat, packageNameFormat, iosPairDuplicate, iosPairMissing, iosPairBundle,
    ]

    // MARK: checks

    /// Every service rule over the whole snapshot (services checked in parallel, results in store order).
    public static func check(_ snapshot: StoreSnapshot) -> [Finding] {
        ServiceScope.all(snapshot, now: Date()) + IntegrationKeyScope.all(snapshot, now: Date())
    }

    /// The rules of the service scope, app scope included (the console runs these on every edit).
    public static func check(service s: Service) -> [Finding] {
        var out: [Finding] = []
        for check in RuleCatalog.serviceChecks { check(s, into: &out) }
        return out
    }

    /// The app checks of the catalog over each app of the service, in app order.
    static let eachApp = RuleCheck<Service>(RuleCatalog.appChecks.flatMap(\.rules)) { s, out in
        let file = Service.path(s.name)
        for (i, app) in s.apps.enumerated() {
            let input = AppInput(app: app, index: i, file: file)
            for check in RuleCatalog.appChecks { check(input, into: &out) }
        }
    }

    /// `integration-key.duplicate`: each app of the store needs its own key. Every app
    /// involved gets a finding that names the other places.
    static func duplicateIntegrationKeys(_ services: [Service]) -> [Finding] {
        IntegrationKeyIndex(services).findings(services)
    }

    /// The `rule` finding for each name of `names` declared a second time.
    static func duplicates(
        _ names: [String], rule: Rule, what: String, file: String, field: @autoclosure () -> FieldPath,
        into out: inout [Finding]
    ) {
        // A set: a hostile file may list 20,000 names (comparing each with the earlier ones
        // took 24 s there).
        var seen = Set<String>(minimumCapacity: names.count)
        for (j, n) in names.enumerated() where !n.isEmpty && !seen.insert(n).inserted {
            out.append(
                rule.finding(
                    "the \(what) `\(Escape.inline(n))` is declared twice; keep one", file: file,
                    field: field().at(j).appending("name")))
        }
    }

    static func appName(_ app: MobileApp) -> String {
        let label = app.label.isEmpty ? "(no label)" : Escape.inline(app.label, limit: 40)
        switch app {
        case .ios(let a): return "iOS \(a.environment.rawValue) app “\(label)”"
        case .android: return "Android app “\(label)”"
        }
    }

}
