import Foundation

/// Where requests go and how (docs/SENDING.md): endpoint base URLs, extra trust anchors, the proxy,
/// and the time-outs. Read from the environment once per run.
public struct TransportSettings: Sendable {
    public static let defaultAPNsSandbox = "https://api.sandbox.push.apple.com"
    public static let defaultAPNsProduction = "https://api.push.apple.com"
    public static let defaultFCM = "https://fcm.googleapis.com"
    /// Apple's channel management API (docs/SENDING.md), one host per environment.
    public static let defaultAPNsManageSandbox = "https://api-manage-broadcast.sandbox.push.apple.com:2195"
    public static let defaultAPNsManageProduction = "https://api-manage-broadcast.push.apple.com:2196"

    public var apnsSandbox: Endpoint
    public var apnsProduction: Endpoint
    public var fcm: Endpoint
    /// Channel management (`PUSHDESK_APNS_MANAGE_*_URL`) and broadcasts
    /// (`PUSHDESK_APNS_BROADCAST_*_URL`, by default APNs' own hosts), docs/SENDING.md.
    public var apnsManageSandbox = Endpoint(defaultAPNsManageSandbox)!
    public var apnsManageProduction = Endpoint(defaultAPNsManageProduction)!
    public var apnsBroadcastSandbox = Endpoint(defaultAPNsSandbox)!
    public var apnsBroadcastProduction = Endpoint(defaultAPNsProduction)!
    /// `PUSHDESK_CA_FILE`: PEM trust anchors added to the system's.
    public var caFile: String?
    /// `PUSHDESK_SYSTEM_TRUST=0`: the system's trust anchors are left out, so only
    /// `PUSHDESK_CA_FILE`'s are trusted (the test suite runs so: no public server can pass).
    public var systemTrust = true
    public var proxy: Proxy?
    /// `no_proxy` entries: host names, `.suffix` domains, `*`.
    public var noProxy: [String]
    /// TCP connect and TLS handshake together (docs/SENDING.md: 10 s).
    public var connectTimeout: TimeInterval = 10
    /// From the request to the whole answer (docs/SENDING.md: 30 s).
    public var responseTimeout: TimeInterval = 30

    /// An `https://HOST[:PORT]` base URL.
    public struct Endpoint: Sendable, Equatable {
        public var host: String
        public var port: Int
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
        public var baseURL: String {
            let h = host.contains(":") ? "[\(host)]" : host
            return port == 443 ? "https://\(h)" : "https://\(h):\(port)"
        }

        /// nil unless `text` is `https://HOST[:PORT]` with nothing after but an optional `/`.
        public init?(_ text: String) {
            guard let u = URLComponents(string: text), u.scheme?.lowercased() == "https", let h = u.host, !h.isEmpty,
                u.path.isEmpty || u.path == "/", u.query == nil, u.user == nil
            else { return nil }
            host = h.hasPrefix("[") ? String(h.dropFirst().dropLast()) : h
            port = u.port ?? 443
        }
    }

    /// `http://[user:password@]HOST:PORT`: HTTP CONNECT, basic authentication.
    public struct Proxy: Sendable, Equatable {
        public var host: String
        public var port: Int
        /// `user:password`, percent-decoded; only ever sent base64 in `proxy-authorization`.
        var credentials: String?

        public init?(_ text: String) {
            guard let u = URLComponents(string: text.contains("://") ? text : "http://" + text),
                u.scheme?.lowercased() == "http", let h = u.host, !h.isEmpty
            else { return nil }
            host = h
            port = u.port ?? 80
            if let user = u.user {
                credentials = (user.removingPercentEncoding ?? user) + ":" + (u.password?.removingPercentEncoding ?? "")
            }
        }

        /// The proxy without its credentials, for messages.
        public var shown: String { "http://\(host):\(port)" }
    }

    public struct SettingsError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public init(
        apnsSandbox: Endpoint, apnsProduction: Endpoint, fcm: Endpoint, caFile: String? = nil,
        proxy: Proxy? = nil, noProxy: [String] = []
    ) {
        self.apnsSandbox = apnsSandbox
        self.apnsProduction = apnsProduction
        self.fcm = fcm
        self.caFile = caFile
        self.proxy = proxy
        self.noProxy = noProxy
    }

    /// From `PUSHDESK_APNS_SANDBOX_URL`, `PUSHDESK_APNS_PRODUCTION_URL`, `PUSHDESK_FCM_URL`,
    /// `PUSHDESK_APNS_MANAGE_{SANDBOX,PRODUCTION}_URL`, `PUSHDESK_APNS_BROADCAST_{SANDBOX,PRODUCTION}_URL`,
    /// `PUSHDESK_CA_FILE`, `PUSHDESK_SYSTEM_TRUST`, `https_proxy`/`HTTPS_PROXY`, `no_proxy`/`NO_PROXY`.
    public static func fromEnvironment(_ env: [String: String]) throws -> TransportSettings {
        func endpoint(_ name: String, _ fallback: String) throws -> Endpoint {
            let text = env[name].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
            guard let e = Endpoint(text) else {
                throw SettingsError(
                    description: "\(name)=\(Escape.inline(text)) is not a base URL like https://HOST[:PORT]")
            }
            return e
        }
        var s = TransportSettings(
            apnsSandbox: try endpoint("PUSHDESK_APNS_SANDBOX_URL", defaultAPNsSandbox),
            apnsProduction: try endpoint("PUSHDESK_APNS_PRODUCTION_URL", defaultAPNsProduction),
            fcm: try endpoint("PUSHDESK_FCM_URL", defaultFCM))
        s.apnsManageSandbox = try endpoint("PUSHDESK_APNS_MANAGE_SANDBOX_URL", defaultAPNsManageSandbox)
        s.apnsManageProduction = try endpoint("PUSHDESK_APNS_MANAGE_PRODUCTION_URL", defaultAPNsManageProduction)
        s.apnsBroadcastSandbox = try endpoint("PUSHDESK_APNS_BROADCAST_SANDBOX_URL", defaultAPNsSandbox)
        s.apnsBroadcastProduction = try endpoint("PUSHDESK_APNS_BROADCAST_PRODUCTION_URL", defaultAPNsProduction)
        if let ca = env["PUSHDESK_CA_FILE"], !ca.isEmpty {
            guard FileManager.default.isReadableFile(atPath: ca) else {
                throw SettingsError(description: "PUSHDESK_CA_FILE=\(Escape.inline(ca)): no readable file there")
            }
            s.caFile = ca
        }
        s.systemTrust = env["PUSHDESK_SYSTEM_TRUST"] != "0"
        if let p = (env["https_proxy"] ?? env["HTTPS_PROXY"]), !p.isEmpty {
            guard let proxy = Proxy(p) else {
                throw SettingsError(description: "https_proxy is not http://[user:password@]HOST:PORT")
            }
            s.proxy = proxy
        }
        s.noProxy = (env["no_proxy"] ?? env["NO_PROXY"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return s
    }

    /// The proxy for `host`, nil when none is set or `no_proxy` matches it.
    public func proxy(for host: String) -> Proxy? {
        guard let proxy else { return nil }
        let h = host.lowercased()
        for entry in noProxy {
            if entry == "*" || entry == h { return nil }
            let suffix = entry.hasPrefix(".") ? entry : "." + entry
            if h.hasSuffix(suffix) { return nil }
        }
        return proxy
    }
}
