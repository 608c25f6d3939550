import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// ISO 8601 UTC times (`2026-05-01T10:02:03Z`) as the lock and recovery files hold them,
/// without Foundation's `ISO8601DateFormatter`: that one starts ICU's calendar machinery,
/// over a millisecond of the console's start for one timestamp (docs/PERFORMANCE.md). Same
/// text as `ISO8601DateFormatter()` writes, and the same times read back from its default
/// form, `Z` or a `±hh:mm` offset, day and hour overflow rolling over as there
/// (`ISOTimeTests` compares the two).
enum ISOTime {
    static func string(_ date: Date) -> String {
        // To the millisecond first, as Foundation's formatter does (…02.9997 is …03).
        var t = time_t(floor((date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down) / 1000))
        var tm = tm()
        gmtime_r(&t, &tm)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = Int(tm.tm_year) + 1900
        let y =
            year < 0
            ? "-" + String(-year) : String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(y)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))T\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec))Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM`; nil for anything else.
    static func date(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 20 || b.count == 25 else { return nil }
        func num(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A,
            let year = num(0, 4), let month = num(5, 2), let day = num(8, 2),
            let hour = num(11, 2), let minute = num(14, 2), let second = num(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 59
        else { return nil }
        var offset = 0
        if b.count == 20 {
            guard b[19] == 0x5A else { return nil }
        } else {
            guard b[19] == 0x2B || b[19] == 0x2D, b[22] == 0x3A, let oh = num(20, 2), let om = num(23, 2), oh <= 23,
                om <= 59
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[19] == 0x2B ? 1 : -1)
        }
        // Like Foundation's reader, a day past the month's end or hour 24 rolls over
        // (2023-02-29 is 2023-03-01): timegm normalises the same way.
        var tm = tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month - 1)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour)
        tm.tm_min = Int32(minute)
        tm.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm) - offset))
    }
}
