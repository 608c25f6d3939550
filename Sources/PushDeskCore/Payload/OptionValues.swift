/// Parsed forms of the delivery options the model keeps as text (badge, ttl, volume, …).
///
/// One place decides what is valid, so the payload builders (which leave an invalid value
/// out of the payload) and the rules (which report it on its field) never disagree.
/// Everything here is pure and allocation-light: previews run on every keystroke.
public enum OptionValues {
    /// Longest TTL FCM accepts: 4 weeks (Firebase `AndroidConfig.ttl`, legacy `time_to_live`).
    public static let maxTTLSeconds = 2_419_200
    /// APNs rejects an `apns-collapse-id` longer than this many bytes.
    public static let maxCollapseIdBytes = 64

    /// A whole number written with ASCII digits only (no sign, no spaces), at most `max`.
    public static func wholeNumber(_ text: String, max: Int = Int(Int32.max)) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 12 else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value <= max ? value : nil
    }

    /// APNs `badge`: an integer ≥ 0.
    public static func badge(_ text: String) -> Int? { wholeNumber(text) }

    /// FCM `ttl` / `time_to_live`: whole seconds in 0…2419200.
    public static func ttlSeconds(_ text: String) -> Int? { wholeNumber(text, max: maxTTLSeconds) }

    /// FCM `fcm_options.analytics_label`: `^[a-zA-Z0-9-_.~%]{1,50}$` (Firebase's own check).
    public static func isAnalyticsLabel(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard (1...50).contains(utf8.count) else { return false }
        return utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "~") || b == UInt8(ascii: "%")
        }
    }

    /// FCM v1 `notification_count` (int32 ≥ 0).
    public static func notificationCount(_ text: String) -> Int? { wholeNumber(text) }

    /// A number in 0…1 (relevance score, critical volume) as the JSON literal to send.
    /// The text must already be a JSON number (`0.8`, `1`, `5e-1`); `.8` or `0,8` are not.
    public static func unitInterval(_ text: String) -> String? {
        guard isJSONNumber(text), let v = Double(text), v.isFinite, v >= 0, v <= 1 else { return nil }
        return text
    }

    /// Any finite JSON number, as the literal to send (a Live Activity's relevance score).
    public static func number(_ text: String) -> String? {
        guard isJSONNumber(text), let v = Double(text), v.isFinite else { return nil }
        return text
    }

    /// JSON number grammar (RFC 8259 §6): `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    public static func isJSONNumber(_ text: String) -> Bool {
        let b = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let s = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - s
        }
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { return false }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { return false }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            if digits() == 0 { return false }
        }
        return i == b.count
    }

    /// Android notification colour: `#RRGGBB` (Firebase: "#rrggbb format").
    public static func isColor(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 7, b[0] == UInt8(ascii: "#") else { return false }
        return b.dropFirst().allSatisfy { isHexDigit($0) }
    }

    /// An absolute `https://` URL with a host and no whitespace or control characters:
    /// `https://` in any case, no byte ≤ 0x20 or 0x7F, and an authority (up to `/`, `?` or
    /// `#`) whose host — the last `@`-part, before any `:` — is not empty. One pass over the
    /// bytes (every delivery's image URLs are checked on each validate).
    public static func isHTTPSURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            let scheme: [UInt8] = Array("https://".utf8)
            guard b.count >= scheme.count else { return false }
            for i in 0..<scheme.count where b[i] | (i < 5 ? 0x20 : 0) != scheme[i] { return false }
            for c in b where c <= 0x20 || c == 0x7F { return false }
            // Split on `@` dropping empty parts, keep the last; split that on `:` the same
            // way, keep the first: it must exist, i.e. the last non-empty `@`-part holds a
            // byte other than `:`.
            var part = false
            var partHasHost = false
            var last = false
            var lastHasHost = false
            var i = scheme.count
            while i < b.count, b[i] != 0x2F, b[i] != 0x3F, b[i] != 0x23 {
                if b[i] == 0x40 {
                    if part {
                        last = true
                        lastHasHost = partHasHost
                    }
                    part = false
                    partHasHost = false
                } else {
                    part = true
                    if b[i] != 0x3A { partHasHost = true }
                }
                i += 1
            }
            if part {
                last = true
                lastHasHost = partHasHost
            }
            return last && lastHasHost
        }
    }

    /// APNs device tokens are hexadecimal strings.
    public static func isHexToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { isHexDigit($0) }
    }

    /// `expiration` (ISO 8601 UTC, `2026-12-01T00:00:00Z`, optional fraction) as UNIX seconds.
    public static func expiration(_ text: String) -> Int64? { ISOTime.seconds(text, utcOnly: true) }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }
}
