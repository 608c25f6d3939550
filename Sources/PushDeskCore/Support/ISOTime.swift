import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one ISO 8601 codec: lock and recovery files' times, certificate dates, and a
/// delivery's `expiration`. Written without Foundation's `ISO8601DateFormatter`: that one
/// starts ICU's calendar machinery, over a millisecond of the console's start for one
/// timestamp (docs/PERFORMANCE.md), and the composer reads an expiration on every keystroke.
/// Writes the same text as `ISO8601DateFormatter()`; reads `YYYY-MM-DDTHH:MM:SS`, an
/// optional fraction, then `Z` or `±HH:MM`, and refuses a day the month does not have or
/// hour 24 (Foundation rolls 2023-02-29 over to March 1st: a typo must not become another
/// date).
public enum ISOTime {
    public static func string(_ date: Date) -> String {
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

    /// The time `text` names, to the whole second; nil for anything else.
    static func date(_ text: String) -> Date? {
        seconds(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// UNIX seconds of `text` (a fraction is dropped); nil when it is not such a time.
    /// `utcOnly` refuses an offset (`expiration` is written in UTC, docs/FORMATS.md).
    static func seconds(_ text: String, utcOnly: Bool = false) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
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
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        // Optional fraction: `.` then at least one digit.
        var i = 19
        if b[i] == 0x2E {
            i += 1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            guard i > start, i < b.count else { return nil }
        }
        var offset = 0
        if b[i] == 0x5A, i + 1 == b.count {
            offset = 0
        } else {
            guard !utcOnly, i + 6 == b.count, b[i] == 0x2B || b[i] == 0x2D, b[i + 3] == 0x3A,
                let oh = num(i + 1, 2), let om = num(i + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == 0x2B ? 1 : -1)
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
