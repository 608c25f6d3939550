import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// A hostile file of one long line must cost linear time: finding positions were counted
/// from the start of their line (1,000 / 10,000 variables on one line: 1.5 s / over 60 s),
/// the duplicate-name check compared each name with all earlier ones, and every app sharing
/// a key named every other one.
final class LinearTimeTests: XCTestCase {
    /// One service file, one line: an iOS app with `n` variables all named `v` (n - 1
    /// `variable.duplicate` findings, each positioned).
    private func oneLine(_ n: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><service format=\"1\" name=\"wide\" label=\"W\"><iosApp environment=\"sandbox\" label=\"A\" integrationKey=\"wide-ios\" bundleId=\"com.example.wide\"><variables>"
            + String(repeating: "<variable name=\"v\" label=\"é\"/>", count: n) + "</variables></iosApp></service>\n"
    }

    private func validate(_ text: String) throws -> (seconds: Double, findings: [Finding]) {
        let root = try makeTempDir(self)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("services"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: root.appendingPathComponent("services/wide.xml"))
        // The least CPU time of three runs: the work of the validation, not the machine's load.
        var best = Double.infinity
        var findings: [Finding] = []
        for _ in 0..<3 {
            let (seconds, f) = cpuSeconds {
                let snap = Store(root: root).loadAll(readOnly: true)
                return snap.positioned(StoreValidation.findings(snap))
            }
            best = min(best, seconds)
            findings = f
        }
        return (best, findings)
    }

    /// Ten times the entries cost about ten times the work (linear); the quadratic cost
    /// this guards against is a hundred times. The limit, 30, sits between the two.
    func testTenThousandEntriesOnOneLineCostAtMostThirtyTimesOneThousand() throws {
        _ = try validate(oneLine(100))  // warm-up
        let (small, fewer) = try validate(oneLine(1_000))
        let (large, more) = try validate(oneLine(10_000))
        let dups = { (f: [Finding]) in f.filter { $0.rule == "variable.duplicate" } }
        XCTAssertEqual(dups(fewer).count, 999)
        XCTAssertEqual(dups(more).count, 9_999)
        // Positions are exact, in characters (`é` is two bytes): the last duplicate's `name`.
        let last = try XCTUnwrap(dups(more).last)
        let prefix = oneLine(10_000).components(separatedBy: "<variable ").dropLast().joined(separator: "<variable ")
        XCTAssertEqual(last.line, 1)
        XCTAssertEqual(last.column, prefix.count + "<variable ".count + 1, last.formatted)
        print(
            String(
                format: "linear-time: 1,000 entries %.3f s, 10,000 entries %.3f s, ratio %.1f", small, large,
                large / small))
        XCTAssertLessThanOrEqual(large / small, 30, "CPU time 1,000: \(small) s, 10,000: \(large) s")
    }

    func testTwoThousandAppsSharingAKeyNameThreeOthersEach() throws {
        var apps = ""
        for i in 0..<2_000 {
            apps += "<androidApp label=\"A\(i)\" integrationKey=\"same\" packageName=\"com.example.a\"/>"
        }
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><service format=\"1\" name=\"wide\" label=\"W\">\(apps)</service>\n"
        let (seconds, findings) = try validate(text)
        let dups = findings.filter { $0.rule == "integration-key.duplicate" }
        XCTAssertEqual(dups.count, 2_000)
        XCTAssertEqual(
            dups[1].message,
            "integration key \"same\" of Android app “A1” is also used by Android app “A0” in services/wide.xml, Android app “A2” in services/wide.xml, Android app “A3” in services/wide.xml and 1996 other apps; each app (sandbox and production too) needs its own key"
        )
        XCTAssertLessThan(seconds, 10)
    }
}
