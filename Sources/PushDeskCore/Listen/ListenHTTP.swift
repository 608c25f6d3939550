import Foundation

/// One request as the listener received it (docs/LISTEN.md): every byte is untrusted.
public struct ListenHTTPRequest: Sendable {
    public var method: String
    /// The request target in origin form (path and query): an absolute-form target
    /// (`https://host:port/path?query`, RFC 9112 §3.2.2) is routed by its path and query.
    public var uri: String
    /// Names in lower case.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// `address:port` of the client.
    public var remote: String
    /// The body's size when it was over `ListenServer.maxBodyBytes` (then `body` is empty):
    /// the declared `Content-Length`, or what arrived before the answer.
    public var oversizedBody: Int?

    public init(
        method: String, uri: String, headers: [(name: String, value: String)], body: [UInt8], remote: String,
        oversizedBody: Int? = nil
    ) {
        self.method = method
        self.uri = Self.originForm(uri)
        self.headers = headers
        self.body = body
        self.remote = remote
        self.oversizedBody = oversizedBody
    }

    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    /// The path without the query.
    public var path: String { uri.firstIndex(of: "?").map { String(uri[..<$0]) } ?? uri }
    public var query: String? { uri.firstIndex(of: "?").map { String(uri[uri.index(after: $0)...]) } }

    /// The origin form of a request target: an absolute-form one (`scheme://authority` then
    /// the path and query, RFC 9112 §3.2.2, which a server must accept) loses its scheme and
    /// authority (`/` when it has no path); any other target is kept as sent.
    public static func originForm(_ target: String) -> String {
        guard let colon = target.firstIndex(of: ":"), target[colon...].hasPrefix("://") else { return target }
        let scheme = target[..<colon]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return target }
        let authorityStart = target.index(colon, offsetBy: 3)
        guard let end = target[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = target[end...]
        return rest.hasPrefix("?") ? "/" + rest : String(rest)
    }
}

public struct ListenHTTPResponse: Sendable {
    public var status: Int
    public var body: String
    public init(status: Int, body: String = "") {
        self.status = status
        self.body = body
    }
}
