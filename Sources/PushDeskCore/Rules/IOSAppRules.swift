/// An iOS app: sounds, bundle id, connector, APNs credentials.
enum IOSAppRules {
    typealias R = ServiceRules

    static let check = RuleCheck<AppInput>(
        [
            R.soundDuplicate, R.fieldRequired, R.bundleIdFormat, R.connectorBinary, R.authMissing,
            CredentialRules.tokenEnvironment, CredentialRules.tokenTopic,
        ]
    ) { input, out in
        guard case .ios(let a) = input.app else { return }
        var p: FieldPath { input.path }  // built only for a finding
        var name: String { input.name }
        func add(_ rule: Rule, _ field: FieldPath, _ message: String) {
            out.append(input.finding(rule, field, message))
        }
        R.duplicates(
            a.sounds.map(\.name), rule: R.soundDuplicate, what: "sound", file: input.file,
            field: p.appending("sounds"), into: &out)
        for (j, snd) in a.sounds.enumerated() where snd.name.isEmpty {
            add(R.fieldRequired, p.item("sounds", j).appending("name"), "a sound of \(name) has no file name")
        }
        if a.bundleId.isEmpty {
            add(
                R.fieldRequired, p.appending("bundleId"),
                "\(name) has no bundle id (the apns-topic), e.g. com.example.app")
        } else if !R.isBundleId(a.bundleId) {
            add(
                R.bundleIdFormat, p.appending("bundleId"),
                "bundle id \"\(Escape.inline(a.bundleId))\" of \(name) is not reverse-DNS (letters, digits, `-`, at least two parts separated by `.`)"
            )
        }
        if a.connector == .binary {
            add(
                R.connectorBinary, p.appending("connector"),
                "\(name) uses the binary APNs connector, which Apple retired on 2021-03-31; switch to http2")
        }
        switch a.auth {
        case nil:
            add(
                R.authMissing, p.appending("auth"),
                "\(name) has no APNs credentials; nothing can be sent until a .p8 key or a certificate is set")
        case let auth?:
            out += AuthRequired.check(IOSAuth.modes, mode: auth.mode, values: auth.values, input: input)
            // Apple's key scopes need no file read: every check that runs the app rules
            // (validate, the console, preview, send) reports them.
            out += CredentialRules.keyScope(a, file: input.file, index: input.index)
            for topic in auth.keyTopicList where !R.isBundleId(topic) {
                add(
                    R.bundleIdFormat, p.appending("auth", "keyTopics"),
                    "key topic \"\(Escape.inline(topic))\" of \(name) is not a bundle id; list the bundle ids the key was made for, separated by spaces"
                )
            }
        }
    }
}
