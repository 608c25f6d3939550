import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The lock and recovery files' times, written and read without ICU, must match what
/// Foundation's ISO8601DateFormatter writes and reads.
final class ISOTimeTests: XCTestCase {
    func testSameTextAndTimesAsFoundation() {
        let f = ISO8601DateFormatter()
        var rng = seededGenerator(self)
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400),
            Date(timeIntervalSince1970: 4_107_542_399.9),
            Date(timeIntervalSince1970: -1.5), Date(),
        ]
        for _ in 0..<2000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...5_000_000_000, using: &rng)))
        }
        // Just under a whole second, where rounding decides.
        for _ in 0..<500 {
            let whole = Double(Int.random(in: -2_000_000_000...5_000_000_000, using: &rng))
            dates.append(
                Date(
                    timeIntervalSince1970: whole + [0.9994, 0.9995, 0.9996, 0.99999, 0.0004, 0.5].randomElement(
                        using: &rng)!))
        }
        for d in dates {
            let text = ISOTime.string(d)
            XCTAssertEqual(text, f.string(from: d), "\(d.timeIntervalSince1970)")
            XCTAssertEqual(ISOTime.date(text), f.date(from: text), text)
        }
        // Where Foundation reads a time, so does ISOTime, to the same instant.
        for text in [
            "2026-05-01T10:02:03Z", "2026-05-01T10:02:03+02:00", "2026-05-01T10:02:03-05:30", "2024-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z", "2026-05-01 10:02:03Z", "2026-05-01T10:02:03", "", "x",
        ] {
            XCTAssertEqual(ISOTime.date(text), f.date(from: text), text)
        }
    }

    /// A day the month does not have, or hour 24, is refused — Foundation rolls them over
    /// (2023-02-29 becomes March 1st): a typo in an expiration must not become another date.
    func testImpossibleDatesAreRefusedNotRolledOver() {
        for text in [
            "2026-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2026-04-31T10:02:03Z", "2026-05-01T24:00:00Z",
            "2026-05-01T10:02:03.Z", "2026-05-01T10:02:03+24:00", "2026-05-01T10:02:03Zx",
        ] {
            XCTAssertNil(ISOTime.date(text), text)
            XCTAssertNil(OptionValues.expiration(text), text)
        }
        XCTAssertEqual(ISOTime.seconds("2024-02-29T00:00:00Z"), 1_709_164_800)
        XCTAssertEqual(ISOTime.seconds("2028-02-29T12:30:00.250Z"), 1_835_440_200)
        XCTAssertEqual(ISOTime.seconds("2026-05-01T12:02:03+02:00"), ISOTime.seconds("2026-05-01T10:02:03Z"))
        // An expiration is written in UTC: an offset is refused there (expiration.format).
        XCTAssertNil(OptionValues.expiration("2026-05-01T12:02:03+02:00"))
        XCTAssertEqual(OptionValues.expiration("2026-12-01T00:00:00Z"), 1_796_083_200)
    }
}
