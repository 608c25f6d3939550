import XCTest

@testable import PushDeskCore

/// The lock and recovery files' times, written and read without ICU, must match what
/// Foundation's ISO8601DateFormatter writes and reads.
final class ISOTimeTests: XCTestCase {
    func testSameTextAndTimesAsFoundation() {
        let f = ISO8601DateFormatter()
        var rng = SystemRandomNumberGenerator()
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
        for text in [
            "2026-05-01T10:02:03Z", "2026-05-01T10:02:03+02:00", "2026-05-01T10:02:03-05:30", "2024-02-29T00:00:00Z",
            "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-05-01 10:02:03Z", "2026-05-01T10:02:03", "", "x",
            "2026-05-01T24:00:00Z", "2026-05-01T10:02:03.5Z", "2026-04-31T10:02:03Z",
        ] {
            XCTAssertEqual(ISOTime.date(text), f.date(from: text), text)
        }
    }
}
