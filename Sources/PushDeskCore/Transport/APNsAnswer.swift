import Foundation

/// What one APNs answer says, read the same way from every APNs endpoint (docs/SENDING.md).
/// The device endpoint names the request `apns-id`; the channel management and broadcast
/// endpoints name it `apns-request-id`: either is the result's `apnsId`.
public struct APNsAnswer: Sendable, Equatable {
    public var status: Int
    public var apnsId: String?
    /// Development environment only: the id the Push Notifications Console's delivery log uses.
    public var apnsUniqueId: String?
    /// `reason` from the JSON body, as given.
    public var reason: String?
    /// `timestamp` (milliseconds since 1970) of a 410: since when the token is inactive.
    public var timestamp: Date?

    public init(_ response: HTTPResponse) {
        status = response.status
        apnsId = response.header("apns-id") ?? response.header("apns-request-id")
        apnsUniqueId = response.header("apns-unique-id")
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        reason = json?["reason"] as? String
        let ms = json?["timestamp"] as? Double ?? (json?["timestamp"] as? Int).map(Double.init)
        timestamp = ms.map { Date(timeIntervalSince1970: $0 / 1000) }
    }
}
