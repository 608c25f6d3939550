/// Apple's key scopes (docs/CREDENTIALS.md): since February 2025 an APNs key may be limited to one
/// environment and to a list of topics. A key used outside its scope passes every other
/// offline check and fails at Apple with a 403, so these are errors that block `send`.
extension CredentialRules {
    public static let tokenEnvironment = Rule(
        "token.environment", .error, .credential, "the app's environment is not the one its token-auth key allows")
    public static let tokenTopic = Rule(
        "token.topic", .error, .credential, "a topic-specific key whose topics lack the app's bundle id")

    /// The scope findings of an app's token auth: its `keyEnvironment` against the app's
    /// environment, its `keyTopics` (when any) against the bundle id.
    public static func keyScope(_ app: IOSApp, file: String, index: Int) -> [Finding] {
        guard let auth = app.auth, case .token = auth else { return [] }
        let keyEnvironment = auth.keyScope
        var out: [Finding] = []
        let name = Escape.inline(app.integrationKey)
        if keyEnvironment != .both, keyEnvironment.rawValue != app.environment.rawValue {
            out.append(
                tokenEnvironment.finding(
                    "the key of \(name) is limited to \(keyEnvironment.rawValue), but the app is the \(app.environment.rawValue) app: APNs refuses it (403 BadEnvironmentKeyIdInToken); use a key allowed for \(app.environment.rawValue) or both, or correct keyEnvironment",
                    file: file, field: FieldPath.app(index).appending("auth", "keyEnvironment")))
        }
        let topics = app.auth?.keyTopicList ?? []
        if !topics.isEmpty, !app.bundleId.isEmpty, !topics.contains(app.bundleId) {
            out.append(
                tokenTopic.finding(
                    "the key of \(name) is topic-specific (\(topics.map { Escape.inline($0) }.joined(separator: ", "))) and does not list the bundle id \(Escape.inline(app.bundleId)): APNs refuses it (TopicDisallowed); add the bundle id to the key in the developer account and to keyTopics, or use a team key",
                    file: file, field: FieldPath.app(index).appending("auth", "keyTopics")))
        }
        return out
    }
}
