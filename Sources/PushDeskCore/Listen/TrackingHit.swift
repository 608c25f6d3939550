import Foundation

/// A tracking request's `id` (docs/LISTEN.md): `h<messageId>,<deliveryId>,<tag>` — the push's
/// `_mId` as sent when it is a UUID (v8), or the lowercase hex of a decimal `_mId` (v7);
/// its `_dId`; tag 1 received, 2 clicked.
public struct TrackingHit: Equatable, Sendable {
    public enum Event: String, Sendable {
        case received, clicked
    }
    public var messageId: String
    public var deliveryId: String
    public var event: Event

    /// nil when the text is not of that shape or the tag is not 1 or 2.
    public init?(id: String) {
        guard id.hasPrefix("h") else { return nil }
        let parts = id.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].utf8.allSatisfy({ Self.isHex($0) || $0 == 0x2D }),
            parts[1].unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return nil }
        switch parts[2] {
        case "1": event = .received
        case "2": event = .clicked
        default: return nil
        }
        messageId = String(parts[0])
        deliveryId = String(parts[1])
    }

    /// The `id` query parameter of a tracking request's query string.
    public static func idParameter(query: String?) -> String? {
        guard let query else { return nil }
        for pair in FormBody.decode(Array(query.utf8)) ?? [] where pair.name == "id" { return pair.value }
        return nil
    }

    /// The tracking form of a sent `_mId`: a UUID as it is (lower case), a decimal as hex (v7).
    public static func trackingForm(of sentId: String) -> String {
        if let n = UInt64(sentId) { return String(n, radix: 16) }
        if let n = Int64(sentId), n < 0 { return String(UInt32(truncatingIfNeeded: n), radix: 16) }
        return sentId.lowercased()
    }

    static func isHex(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) }
}

/// The send log (docs/SENDING.md) read for tracking (docs/LISTEN.md): which send gave a `messageId`.
/// Read again only when the file changed, so a send made while listening is found.
public final class SendLogIndex: @unchecked Sendable {
    public struct Send: Sendable, Equatable {
        public var time: Date
        public var delivery: String
        public var app: String
        public var profile: String?
        /// Shortened as logged.
        public var token: String?
        public var messageId: String
    }
    let url: URL
    private var size: Int64 = -1
    private var modified: Date?
    private var byId: [String: Send] = [:]

    public init(storeRoot: URL) {
        url = storeRoot.appendingPathComponent(SendLog.relativePath)
    }

    /// The send whose `_mId`, in tracking form, is `messageId`.
    public func send(messageId: String) -> Send? {
        refresh()
        return byId[messageId.lowercased()]
    }

    private func refresh() {
        let attrs = try? FileManager.default.attributesOfItem(atPath: url.path)
        let s = (attrs?[.size] as? NSNumber)?.int64Value ?? -1
        let m = attrs?[.modificationDate] as? Date
        guard s != size || m != modified else { return }
        size = s
        modified = m
        byId = [:]
        guard s > 0, let data = FileManager.default.contents(atPath: url.path) else { return }
        for line in data.split(separator: 0x0A) {
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
                let id = o["messageId"] as? String, let delivery = o["delivery"] as? String,
                let app = o["app"] as? String
            else { continue }
            let time = (o["time"] as? String).flatMap(ISOTime.date) ?? .distantPast
            // The newest send of an id wins (ids are random: a repeat is a copied log).
            byId[TrackingHit.trackingForm(of: id)] = Send(
                time: time, delivery: delivery, app: app, profile: o["profile"] as? String,
                token: o["token"] as? String, messageId: id)
        }
    }
}
