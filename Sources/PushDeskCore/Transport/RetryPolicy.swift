import Foundation

/// Which answers are retried and after how long (docs/SENDING.md): at most 3 attempts per target;
/// 429 and 5xx after 1 s × 2^(attempt−1) ± 25 % or after `Retry-After` (seconds or an HTTP
/// date), capped at 60 s; FCM `QUOTA_EXCEEDED` at least its `Retry-After`; nothing else.
public enum RetryPolicy {
    public static let maxAttempts = 3
    public static let cap: TimeInterval = 60

    public static func isRetryable(status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// The wait before attempt `attempt + 1`. `jitter` in -1...1 scales the ±25 %.
    public static func delay(
        afterAttempt attempt: Int, retryAfter: String?, quotaExceeded: Bool, now: Date, jitter: Double
    ) -> TimeInterval {
        let backoff = pow(2, Double(attempt - 1)) * (1 + 0.25 * max(-1, min(1, jitter)))
        guard let given = retryAfter.flatMap({ parseRetryAfter($0, now: now) }) else { return min(cap, backoff) }
        return min(cap, quotaExceeded ? max(given, backoff) : given)
    }

    /// `Retry-After`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); nil when neither.
    public static func parseRetryAfter(_ text: String, now: Date) -> TimeInterval? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let s = Int(t), s >= 0 { return TimeInterval(s) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            f.dateFormat = format
            if let d = f.date(from: t) { return max(0, d.timeIntervalSince(now)) }
        }
        return nil
    }
}
