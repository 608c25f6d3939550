/// The rules of `credentials check --online` and of sends that get no answer (docs/SENDING.md,
/// docs/SENDING.md): one per connection step, named `connection.<step>`.
public enum ConnectionRules {
    public static let dns = Rule("connection.dns", .error, .connection, "the push service's host name does not resolve")
    public static let tcp = Rule("connection.tcp", .error, .connection, "no TCP connection to the push service")
    public static let tls = Rule("connection.tls", .error, .connection, "the TLS handshake with the push service fails")
    public static let auth = Rule("connection.auth", .error, .connection, "the push service refuses the credential")

    /// Every connection rule, in the order of docs/RULES.md.
    public static let all: [Rule] = [dns, tcp, tls, auth]
}

extension TransportError.Step {
    /// The rule a failure at this step reports.
    public var rule: Rule {
        switch self {
        case .dns: ConnectionRules.dns
        case .tcp: ConnectionRules.tcp
        case .tls: ConnectionRules.tls
        case .auth: ConnectionRules.auth
        }
    }
}
