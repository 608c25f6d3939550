import Foundation

/// Store-level rules over services (docs/RULES.md, "Service rules"). One implementation,
/// used by `pushdesk validate` and live by the console.
public enum ServiceRules {
    /// Names the apps' SDK or the push services reserve for themselves (SPEC §5).
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

    /// Every service rule over the whole snapshot (services checked in parallel, results in store order).
    public static func check(_ snapshot: StoreSnapshot) -> [Finding] {
        var findings = Parallel.map(snapshot.services) { check(service: $0) }.flatMap { $0 }
        findings += duplicateIntegrationKeys(snapshot.services)
        return snapshot.positioned(findings)
    }

    /// Rules that look at one service alone (the console runs these on every edit).
    public static func check(service s: Service) -> [Finding] {
        var out: [Finding] = []
        let file = Service.path(s.name)
        func add(_ sev: Severity, _ rule: String, _ field: FieldPath, _ msg: String) {
            out.append(Finding(sev, rule, msg, file: file, field: field))
        }

        if !Store.isValidName(s.name) {
            add(
                .error, "service.name", "name",
                "the service name \"\(Escape.inline(s.name))\" must be \(Store.nameRule); it is also the file name")
        }
        if isBlank(s.label) {
            add(.error, "field.required", "label", "the service has no label; give it the name operators know it by")
        }
        if !isSchemaName(s.targetMapping) {
            add(
                .error, "target-mapping.format", "targetMapping",
                "target mapping \"\(Escape.inline(s.targetMapping))\" is not a schema name like nms:appSubscriptionRcp")
        }
        for (field, value, what) in [
            ("marketingUrl", s.marketingUrl, "marketing"), ("trackingUrl", s.trackingUrl, "tracking"),
        ] {
            if value.isEmpty {
                add(
                    .error, "field.required", FieldPath(field),
                    "the \(what) server URL is empty; the SDK needs it (e.g. https://\(what).example.com/)")
            } else if let problem = urlProblem(value) {
                add(
                    .error, "url.format", FieldPath(field),
                    "the \(what) server URL \"\(Escape.inline(value))\" \(problem)")
            }
        }
        if s.apps.isEmpty {
            add(.warning, "service.no-apps", "apps", "the service has no app; add an iOS pair or an Android app")
        }

        for (i, app) in s.apps.enumerated() {
            var p: FieldPath { .app(i) }  // built only for a finding
            // Only messages need the app's display name.
            var name: String { appName(app) }
            if isBlank(app.label) {
                add(.error, "field.required", p.appending("label"), "\(name) has no label")
            }
            if app.integrationKey.isEmpty {
                add(
                    .error, "field.required", p.appending("integrationKey"),
                    "\(name) has no integration key; generate one and give it to the app's developers")
            } else if containsWhitespace(app.integrationKey) {
                add(
                    .error, "integration-key.format", p.appending("integrationKey"),
                    "the integration key of \(name) contains white space; the SDK sends it verbatim, so it must match exactly"
                )
            }
            checkList(
                app.variables.map(\.name), rule: "variable.duplicate", what: "variable",
                field: p.appending("variables"), add)
            for (j, v) in app.variables.enumerated() {
                if v.name.isEmpty {
                    add(
                        .error, "field.required", p.item("variables", j).appending("name"),
                        "a variable of \(name) has no name")
                } else if isReservedVariableName(v.name) {
                    add(
                        .error, "variable.reserved", p.item("variables", j).appending("name"),
                        "variable `\(Escape.inline(v.name))` of \(name) uses a name reserved by APNs, FCM or Campaign; rename it"
                    )
                } else if v.name.utf8.count > 32 {
                    add(
                        .warning, "variable.long-name", p.item("variables", j).appending("name"),
                        "variable `\(Escape.inline(v.name))` is \(v.name.utf8.count) bytes long; every byte is sent in each payload (4 KB limit): keep names short"
                    )
                }
            }
            checkList(
                app.subscriptionParams.map(\.name), rule: "param.duplicate", what: "subscription parameter",
                field: p.appending("subscriptionParams"), add)
            for (j, sp) in app.subscriptionParams.enumerated() {
                if sp.name.isEmpty {
                    add(
                        .error, "field.required", p.item("subscriptionParams", j).appending("name"),
                        "a subscription parameter of \(name) has no config name")
                }
                // Exactly `@` and an XML name (`@@x`, `@a b`, `@a/b` are no attribute).
                if !sp.field.hasPrefix("@") || !XMLName.isName(sp.field.dropFirst()) {
                    add(
                        .error, "param.field", p.item("subscriptionParams", j).appending("field"),
                        "subscription parameter `\(Escape.inline(sp.name))` maps to \"\(Escape.inline(sp.field))\"; expected one `@` and an attribute name of the extended nms:appSubscriptionRcp schema (an XML name: no space, `/` or second `@`), like @loyaltyId"
                    )
                }
            }

            switch app {
            case .ios(let a):
                checkList(
                    a.sounds.map(\.name), rule: "sound.duplicate", what: "sound", field: p.appending("sounds"), add)
                for (j, snd) in a.sounds.enumerated() where snd.name.isEmpty {
                    add(
                        .error, "field.required", p.item("sounds", j).appending("name"),
                        "a sound of \(name) has no file name")
                }
                checkChannels(a.channels, app: p, name: name, add)
                if a.bundleId.isEmpty {
                    add(
                        .error, "field.required", p.appending("bundleId"),
                        "\(name) has no bundle id (the apns-topic), e.g. com.example.app")
                } else if !isBundleId(a.bundleId) {
                    add(
                        .error, "bundle-id.format", p.appending("bundleId"),
                        "bundle id \"\(Escape.inline(a.bundleId))\" of \(name) is not reverse-DNS (letters, digits, `-`, at least two parts separated by `.`)"
                    )
                }
                if a.connector == .binary {
                    add(
                        .warning, "connector.binary", p.appending("connector"),
                        "\(name) uses the binary APNs connector, which Apple retired on 2021-03-31; switch to http2")
                }
                switch a.auth {
                case nil:
                    add(
                        .warning, "auth.missing", p.appending("auth"),
                        "\(name) has no APNs credentials; nothing can be sent until a .p8 key or a certificate is set")
                case .token(let keyId, let teamId, let keyFile)?:
                    if keyFile.isEmpty {
                        add(
                            .error, "field.required", p.appending("auth", "keyFile"),
                            "token auth of \(name) needs the .p8 key file")
                    }
                    if keyId.isEmpty {
                        add(
                            .error, "field.required", p.appending("auth", "keyId"),
                            "token auth of \(name) needs the Key ID (10 characters)")
                    }
                    if teamId.isEmpty {
                        add(
                            .error, "field.required", p.appending("auth", "teamId"),
                            "token auth of \(name) needs the Team ID (10 characters)")
                    }
                case .certificate(let certFile, _)?:
                    if certFile.isEmpty {
                        add(
                            .error, "field.required", p.appending("auth", "certificateFile"),
                            "certificate auth of \(name) needs the .p12/.pem file")
                    }
                }
            case .android(let a):
                if a.packageName.isEmpty {
                    add(
                        .error, "field.required", p.appending("packageName"),
                        "\(name) has no package name, e.g. com.example.app")
                } else if !isPackageName(a.packageName) {
                    add(
                        .error, "package-name.format", p.appending("packageName"),
                        "package name \"\(Escape.inline(a.packageName))\" of \(name) is not a Java package name (parts start with a letter; letters, digits, `_`; at least two parts)"
                    )
                }
                if a.api == .httpv1 && a.connector == .v1 {
                    add(
                        .error, "connector.v1-httpv1", p.appending("connector"),
                        "\(name) uses FCM HTTP v1 with connector v1; HTTP v1 needs connector v2")
                }
                if a.api == .legacy {
                    add(
                        .warning, "fcm.legacy-api", p.appending("api"),
                        "\(name) uses the FCM legacy HTTP API, which Google shut down in 2024; move to HTTP v1 with a service account"
                    )
                }
                if a.connector == .v1, a.maxConnectPerChild != nil {
                    add(
                        .warning, "connector.max-connect-v1", p.appending("maxConnectPerChild"),
                        "maxConnectPerChild applies to connector v2 only; \(name) uses v1")
                }
                switch a.auth {
                case nil:
                    add(
                        .warning, "auth.missing", p.appending("auth"),
                        "\(name) has no FCM credentials; nothing can be sent until a service account (or legacy server key) is set"
                    )
                case .serviceAccount(let projectId, let email, let keyFile)?:
                    if projectId.isEmpty {
                        add(
                            .error, "field.required", p.appending("auth", "projectId"),
                            "the service account of \(name) needs the Firebase project id")
                    }
                    if email.isEmpty {
                        add(
                            .error, "field.required", p.appending("auth", "clientEmail"),
                            "the service account of \(name) needs its client e-mail")
                    }
                    if keyFile.isEmpty {
                        add(
                            .error, "field.required", p.appending("auth", "keyFile"),
                            "the service account of \(name) needs its JSON key file")
                    }
                    if a.api == .legacy {
                        add(
                            .error, "auth.api-mismatch", p.appending("auth"),
                            "\(name) uses the legacy API, which needs a server key, not a service account")
                    }
                case .serverKey?:
                    if a.api == .httpv1 {
                        add(
                            .error, "auth.api-mismatch", p.appending("auth"),
                            "\(name) uses FCM HTTP v1, which needs a service account, not a legacy server key")
                    }
                }
            }
        }
        out += iosPairing(s, file: file)
        return out
    }

    /// iOS apps come as a sandbox + production pair with distinct keys and one bundle id.
    static func iosPairing(_ s: Service, file: String) -> [Finding] {
        var out: [Finding] = []
        let ios = s.apps.enumerated().compactMap { (i, app) -> (Int, IOSApp)? in
            if case .ios(let a) = app { return (i, a) } else { return nil }
        }
        guard !ios.isEmpty else { return [] }
        for env in IOSEnvironment.allCases {
            let count = ios.filter { $0.1.environment == env }.count
            if count == 0 {
                let other = env == .sandbox ? "production" : "sandbox"
                out.append(
                    Finding(
                        .warning, "ios.pairing",
                        "the iOS app has a \(other) version but no \(env.rawValue) one; iOS apps come as a sandbox + production pair",
                        file: file, field: FieldPath.app(ios[0].0).appending("environment")))
            } else if count > 1 {
                let second = ios.filter { $0.1.environment == env }[1]
                out.append(
                    Finding(
                        .error, "ios.pairing",
                        "the service has \(count) \(env.rawValue) iOS apps; keep one sandbox and one production app",
                        file: file, field: FieldPath.app(second.0).appending("environment")))
            }
        }
        if let sb = ios.first(where: { $0.1.environment == .sandbox }),
            let pr = ios.first(where: { $0.1.environment == .production }),
            !sb.1.bundleId.isEmpty, !pr.1.bundleId.isEmpty, sb.1.bundleId != pr.1.bundleId
        {
            out.append(
                Finding(
                    .warning, "ios.pair-bundle",
                    "the sandbox app's bundle id \(Escape.inline(sb.1.bundleId)) differs from the production app's \(Escape.inline(pr.1.bundleId)); a pair is one app",
                    file: file, field: FieldPath.app(pr.0).appending("bundleId")))
        }
        return out
    }

    /// `integration-key.duplicate`: each app of the store needs its own key. Every app
    /// involved gets a finding that names the other places.
    static func duplicateIntegrationKeys(_ services: [Service]) -> [Finding] {
        IntegrationKeyIndex(services).findings(services)
    }

    private static func checkList(
        _ names: [String], rule: String, what: String, field: @autoclosure () -> FieldPath,
        _ add: (Severity, String, FieldPath, String) -> Void
    ) {
        // A set: a hostile file may list 20,000 names (comparing each with the earlier ones
        // took 24 s there).
        var seen = Set<String>(minimumCapacity: names.count)
        for (j, n) in names.enumerated() where !n.isEmpty && !seen.insert(n).inserted {
            add(
                .error, rule, field().at(j).appending("name"),
                "the \(what) `\(Escape.inline(n))` is declared twice; keep one")
        }
    }

    static func appName(_ app: MobileApp) -> String {
        let label = app.label.isEmpty ? "(no label)" : Escape.inline(app.label, limit: 40)
        switch app {
        case .ios(let a): return "iOS \(a.environment.rawValue) app “\(label)”"
        case .android: return "Android app “\(label)”"
        }
    }

    // MARK: syntax checks

    /// Empty or only spaces and tabs (Foundation's `.whitespaces`), without building a trimmed copy.
    static func isBlank(_ s: String) -> Bool {
        for u in s.unicodeScalars {
            if u == " " || u == "\t" { continue }
            if u.isASCII || !CharacterSet.whitespaces.contains(u) { return false }
        }
        return true
    }

    /// ASCII letters and digits: what `CharacterSet.alphanumerics` holds among ASCII scalars.
    private static func isASCIIAlphanumeric(_ u: Unicode.Scalar) -> Bool {
        (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9")
    }
    private static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
    }
    private static func isASCIILetter(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A)
    }

    /// nil when `s` is an absolute http(s) URL with a host, else what is wrong with it.
    /// Plain URLs are recognised by a byte scan (`URLCheck`); anything else goes through
    /// Foundation's RFC 3986 parser, which words the problem.
    public static func urlProblem(_ s: String) -> String? {
        if URLCheck.isPlainHTTPURL(s) { return nil }
        return foundationURLProblem(s)
    }

    /// `urlProblem` by `URLComponents` alone (about 30,000 instructions a URL).
    static func foundationURLProblem(_ s: String) -> String? {
        guard let c = URLComponents(string: s), let scheme = c.scheme?.lowercased() else {
            return "is not a URL; expected e.g. https://host:port/"
        }
        guard scheme == "https" || scheme == "http" else { return "must start with https:// (or http://)" }
        guard let host = c.host, !host.isEmpty else { return "has no host name" }
        if s.contains(where: { $0.isWhitespace }) { return "contains white space" }
        return nil
    }

    /// Reverse-DNS bundle id: at least two parts of letters, digits and `-`.
    public static func isBundleId(_ s: String) -> Bool {
        dotted(
            s, separator: UInt8(ascii: "."), first: { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") },
            rest: { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") },
            parts: { $0 >= 2 }
        )
    }

    /// Java package name: at least two parts, each a letter then letters, digits, `_`.
    public static func isPackageName(_ s: String) -> Bool {
        dotted(
            s, separator: UInt8(ascii: "."), first: isASCIILetter,
            rest: { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") },
            parts: { $0 >= 2 }
        )
    }

    static func isSchemaName(_ s: String) -> Bool {
        dotted(s, separator: UInt8(ascii: ":"), first: isASCIIAlphanumeric, rest: isASCIIAlphanumeric) { $0 == 2 }
    }

    /// `s` split on `separator` (empty parts kept): every part non-empty, its first byte
    /// passing `first` and the others `rest`, and `parts(count)` true. Non-ASCII bytes pass
    /// neither, as no non-ASCII scalar is an ASCII letter or digit.
    private static func dotted(
        _ s: String, separator: UInt8, first: (UInt8) -> Bool, rest: (UInt8) -> Bool,
        parts: (Int) -> Bool
    ) -> Bool {
        var count = 1
        var partLength = 0
        for b in s.utf8 {
            if b == separator {
                if partLength == 0 { return false }
                count += 1
                partLength = 0
            } else {
                if !(partLength == 0 ? first(b) : rest(b)) { return false }
                partLength += 1
            }
        }
        return partLength > 0 && parts(count)
    }

    /// `Character.isWhitespace` anywhere in `s`; ASCII text is checked byte by byte.
    static func containsWhitespace(_ s: String) -> Bool {
        var ascii = true
        for b in s.utf8 {
            if b >= 0x80 {
                ascii = false
                break
            }
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) { return true }
        }
        return ascii ? false : s.contains(where: { $0.isWhitespace })
    }
}
