import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

final class LineDiffTests: XCTestCase {
    func ops(_ d: [LineDiff.Line]) -> String {
        d.map { ($0.op == .same ? " " : $0.op == .removed ? "-" : "+") + $0.text }.joined(separator: "|")
    }

    func testKnownSmallCases() {
        XCTAssertEqual(ops(LineDiff.diff(["a", "b", "c"], ["a", "b", "c"])), " a| b| c")
        XCTAssertEqual(ops(LineDiff.diff([], ["x"])), "+x")
        XCTAssertEqual(ops(LineDiff.diff(["x"], [])), "-x")
        XCTAssertEqual(ops(LineDiff.diff(["a", "b", "c"], ["a", "X", "c"])), " a|-b|+X| c")
        // LCS of ABCBDAB and BDCABA has length 4: seven kept-or-changed lines, four kept.
        let d = LineDiff.diff("ABCBDAB".map(String.init), "BDCABA".map(String.init))
        XCTAssertEqual(d.filter { $0.op == .same }.count, 4)
        XCTAssertEqual(LineDiff.oldSide(d), "ABCBDAB".map(String.init))
        XCTAssertEqual(LineDiff.newSide(d), "BDCABA".map(String.init))
    }

    func testLineNumbersAndUnifiedHunks() {
        let old = (1...20).map { "line \($0)" }
        var new = old
        new[4] = "line five"
        new.insert("inserted", at: 15)
        let d = LineDiff.diff(old, new)
        let removed = d.first { $0.op == .removed }!
        XCTAssertEqual(removed.oldLine, 5)
        XCTAssertNil(removed.newLine)
        XCTAssertEqual(d.first { $0.text == "inserted" }?.newLine, 16)
        let u = LineDiff.unified(d, context: 2)
        XCTAssertEqual(u.filter { $0.hasPrefix("@@") }, ["@@ -3,5 +3,5 @@", "@@ -14,4 +14,5 @@"])
        XCTAssertEqual(u[1...5], [" line 3", " line 4", "-line 5", "+line five", " line 6"])
        XCTAssertEqual(LineDiff.unified(LineDiff.diff(old, old)), [])
    }

    /// Random edits: the diff is always an exact edit script, and never longer than the
    /// naive remove-all-add-all.
    func testRandomEditsRoundTrip() {
        var rng = seededGenerator(self)
        for _ in 0..<300 {
            let a = (0..<Int.random(in: 0...30, using: &rng)).map { _ in String(Int.random(in: 0...5, using: &rng)) }
            var b = a
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                switch Int.random(in: 0...2, using: &rng) {
                case 0 where !b.isEmpty: b.remove(at: Int.random(in: 0..<b.count, using: &rng))
                case 1:
                    b.insert(String(Int.random(in: 0...5, using: &rng)), at: Int.random(in: 0...b.count, using: &rng))
                default: if !b.isEmpty { b[Int.random(in: 0..<b.count, using: &rng)] = "z" }
                }
            }
            let d = LineDiff.diff(a, b)
            XCTAssertEqual(LineDiff.oldSide(d), a)
            XCTAssertEqual(LineDiff.newSide(d), b)
            XCTAssertEqual(
                d.filter { $0.op == .same }.count, lcsLength(a, b), "minimal: keeps a longest common subsequence")
        }
    }

    /// A changed middle too big for the table is removed-then-added, still exact, and bounded:
    /// the middle shares 5,000 lines, which the table would keep, so a result that keeps
    /// only the head and the tail proves the table (25 million cells) was never built.
    func testHugeRewriteIsBoundedAndExact() {
        let common = (0..<5000).map { "line \($0)" }
        let a = ["head", "old first"] + common + ["old last", "tail"]
        let b = ["head", "new first"] + common + ["new last", "tail"]
        XCTAssertGreaterThan((common.count + 3) * (common.count + 3), LineDiff.maxCells)
        let d = LineDiff.diff(a, b)
        XCTAssertEqual(d.filter { $0.op == .same }.map(\.text), ["head", "tail"])
        XCTAssertEqual(d.filter { $0.op == .removed }.count, 5_002)
        XCTAssertEqual(d.filter { $0.op == .added }.count, 5_002)
        XCTAssertEqual(LineDiff.oldSide(d), a)
        XCTAssertEqual(LineDiff.newSide(d), b)
        // Under the limit the same shape keeps the shared lines (the table was used).
        let small = LineDiff.diff(Array(a.prefix(50)) + ["tail"], Array(b.prefix(50)) + ["tail"])
        XCTAssertEqual(small.filter { $0.op == .same }.count, 50)
    }

    func testTextSplitting() {
        XCTAssertEqual(LineDiff.lines("a\nb\n"), ["a", "b"])
        XCTAssertEqual(LineDiff.lines("a\n\nb"), ["a", "", "b"])
        XCTAssertEqual(LineDiff.lines(""), [])
    }

    private func lcsLength(_ a: [String], _ b: [String]) -> Int {
        var t = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0..<a.count {
            for j in 0..<b.count { t[i + 1][j + 1] = a[i] == b[j] ? t[i][j] + 1 : max(t[i][j + 1], t[i + 1][j]) }
        }
        return t[a.count][b.count]
    }
}
