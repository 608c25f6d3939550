/// An Android app: package name, FCM API and connector, FCM credentials.
enum AndroidAppRules {
    typealias R = ServiceRules

    static let check = RuleCheck<AppInput>(
        [
            R.fieldRequired, R.packageNameFormat, R.connectorV1HTTPv1, R.fcmLegacyAPI, R.connectorMaxConnectV1,
            R.authMissing, R.authAPIMismatch,
        ]
    ) { input, out in
        guard case .android(let a) = input.app else { return }
        var p: FieldPath { input.path }  // built only for a finding
        var name: String { input.name }
        func add(_ rule: Rule, _ field: FieldPath, _ message: String) {
            out.append(input.finding(rule, field, message))
        }
        if a.packageName.isEmpty {
            add(R.fieldRequired, p.appending("packageName"), "\(name) has no package name, e.g. com.example.app")
        } else if !R.isPackageName(a.packageName) {
            add(
                R.packageNameFormat, p.appending("packageName"),
                "package name \"\(Escape.inline(a.packageName))\" of \(name) is not a Java package name (parts start with a letter; letters, digits, `_`; at least two parts)"
            )
        }
        if a.api == .httpv1 && a.connector == .v1 {
            add(
                R.connectorV1HTTPv1, p.appending("connector"),
                "\(name) uses FCM HTTP v1 with connector v1; HTTP v1 needs connector v2")
        }
        if a.api == .legacy {
            add(
                R.fcmLegacyAPI, p.appending("api"),
                "\(name) uses the FCM legacy HTTP API, which Google shut down in 2024; move to HTTP v1 with a service account"
            )
        }
        if a.connector == .v1, a.maxConnectPerChild != nil {
            add(
                R.connectorMaxConnectV1, p.appending("maxConnectPerChild"),
                "maxConnectPerChild applies to connector v2 only; \(name) uses v1")
        }
        switch a.auth {
        case nil:
            add(
                R.authMissing, p.appending("auth"),
                "\(name) has no FCM credentials; nothing can be sent until a service account (or legacy server key) is set"
            )
        case let auth?:
            out += AuthRequired.check(AndroidAuth.modes, mode: auth.mode, values: auth.values, input: input)
            if case .serviceAccount = auth, a.api == .legacy {
                add(
                    R.authAPIMismatch, p.appending("auth"),
                    "\(name) uses the legacy API, which needs a server key, not a service account")
            }
            if case .serverKey = auth, a.api == .httpv1 {
                add(
                    R.authAPIMismatch, p.appending("auth"),
                    "\(name) uses FCM HTTP v1, which needs a service account, not a legacy server key")
            }
        }
    }
}
