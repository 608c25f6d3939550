import Foundation

public enum SendOutcome: String, Sendable, CaseIterable {
    case sent, validated, rejected, failed, skipped
}

/// One target's result (docs/SENDING.md).
public struct SendResult: Sendable, Equatable {
    public var app: String
    public var platform: Platform
    /// `apns`, `httpv1` or `legacy`.
    public var api: String
    public var profile: String?
    public var device: String?
    public var token: String
    /// The variant sent: its canonical tag; nil for the default (`<content>`).
    public var locale: String? = nil
    /// The channel id of a broadcast (docs/SENDING.md): then `token` and `device` are `null`.
    public var channel: String?
    public var endpoint: String
    /// The `_mId` this target was given (docs/SENDING.md).
    public var messageId: String
    /// A Live Activity's `aps.timestamp` as sent (docs/PAYLOADS.md); nil for other types.
    public var timestamp: Int?
    public var outcome: SendOutcome = .failed
    public var status: Int?
    public var reason: String?
    public var hint: String?
    public var apnsId: String?
    public var apnsUniqueId: String?
    public var messageName: String?
    public var attempts = 0
    public var bytes: Int
    public var ms = 0
    /// Whether a request was made (a TLS failure counts): such results go to the send log.
    public var madeRequest = false

    public var json: JSONValue {
        func s(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        return .object([
            ("app", .string(app)), ("platform", .string(platform.rawValue)), ("api", .string(api)),
            ("profile", s(profile)), ("device", s(device)),
            ("token", channel == nil ? .string(token) : .null), ("locale", s(locale)),
            ("endpoint", .string(endpoint)), ("outcome", .string(outcome.rawValue)),
            ("status", status.map(JSONValue.int) ?? .null), ("reason", s(reason)), ("hint", s(hint)),
            ("messageId", .string(messageId)), ("timestamp", timestamp.map { .number(String($0)) } ?? .null),
            ("apnsId", s(apnsId)),
            ("apnsUniqueId", s(apnsUniqueId)), ("messageName", s(messageName)),
            ("attempts", .int(attempts)), ("bytes", .int(bytes)), ("ms", .int(ms)),
            ("channel", s(channel)),
        ])
    }
}

/// Everything one `pushdesk send` did (docs/SENDING.md).
public struct SendReport: Sendable {
    public var delivery: String
    public var service: String
    public var dryRun: Bool
    public var results: [SendResult] = []
    public var blocked: [(app: String?, finding: Finding)] = []

    public func count(_ o: SendOutcome) -> Int { results.filter { $0.outcome == o }.count }

    /// 0 all sent/validated/skipped; 1 blocked, or rejected and none failed; 2 any failed.
    public var exitCode: Int32 {
        if !blocked.isEmpty { return 1 }
        if count(.failed) > 0 { return 2 }
        if count(.rejected) > 0 { return 1 }
        return 0
    }

    public var json: JSONValue {
        .object([
            ("delivery", .string(delivery)), ("service", .string(service)), ("dryRun", .bool(dryRun)),
            ("results", .array(results.map(\.json))),
            (
                "blocked",
                .array(
                    blocked.map { b in
                        guard case .object(var m) = b.finding.json else { return .null }
                        m.append(("app", b.app.map(JSONValue.string) ?? .null))
                        return .object(m)
                    })
            ),
            ("summary", .object(SendOutcome.allCases.map { ($0.rawValue, .int(count($0))) })),
        ])
    }
}
