/// A line diff, for showing an operator what a draft or a recovery file changes against the
/// file on disk: the standard library's `difference(from:)` (Myers: a shortest edit script,
/// so a longest common subsequence is kept), laid out with line numbers. Common leading and
/// trailing lines are matched first; a changed middle larger than `maxCells` (two files
/// rewritten throughout, where Myers' trace would grow with the square of the edits) is
/// shown as removed-then-added, still exact as an edit script, only not minimal.
public enum LineDiff {
    public enum Op: Equatable, Sendable { case same, removed, added }

    public struct Line: Equatable, Sendable {
        public var op: Op
        public var text: String
        /// 1-based line numbers in the old and the new text (nil where the line is not there).
        public var oldLine: Int?
        public var newLine: Int?
    }

    public static let maxCells = 4_000_000

    /// Splits on LF (a final newline does not make an empty last line).
    public static func lines(_ text: String) -> [String] {
        var l = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if l.last == "" { l.removeLast() }
        return l
    }

    public static func diff(_ old: String, _ new: String) -> [Line] { diff(lines(old), lines(new)) }

    public static func diff(_ a: [String], _ b: [String], maxCells: Int = maxCells) -> [Line] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let am = Array(a[prefix..<(a.count - suffix)])
        let bm = Array(b[prefix..<(b.count - suffix)])

        var out: [Line] = []
        out.reserveCapacity(a.count + b.count)
        for i in 0..<prefix { out.append(Line(op: .same, text: a[i], oldLine: i + 1, newLine: i + 1)) }
        var i = 0
        var j = 0
        let n = am.count
        let m = bm.count
        if n > 0, m > 0, (n + 1) * (m + 1) <= maxCells {
            var removed = Set<Int>()
            var inserted = Set<Int>()
            for change in bm.difference(from: am) {
                switch change {
                case .remove(let offset, _, _): removed.insert(offset)
                case .insert(let offset, _, _): inserted.insert(offset)
                }
            }
            // Removals before insertions where both happen, as diff(1) shows a changed line.
            while i < n || j < m {
                if i < n, removed.contains(i) {
                    out.append(Line(op: .removed, text: am[i], oldLine: prefix + i + 1, newLine: nil))
                    i += 1
                } else if j < m, inserted.contains(j) {
                    out.append(Line(op: .added, text: bm[j], oldLine: nil, newLine: prefix + j + 1))
                    j += 1
                } else {
                    out.append(Line(op: .same, text: am[i], oldLine: prefix + i + 1, newLine: prefix + j + 1))
                    i += 1
                    j += 1
                }
            }
        }
        while i < n {
            out.append(Line(op: .removed, text: am[i], oldLine: prefix + i + 1, newLine: nil))
            i += 1
        }
        while j < m {
            out.append(Line(op: .added, text: bm[j], oldLine: nil, newLine: prefix + j + 1))
            j += 1
        }
        for k in 0..<suffix {
            out.append(
                Line(
                    op: .same, text: a[a.count - suffix + k], oldLine: a.count - suffix + k + 1,
                    newLine: b.count - suffix + k + 1))
        }
        return out
    }

    /// Unified-diff text (`@@ -a,b +c,d @@` hunks with `context` lines around changes);
    /// empty when the texts are equal.
    public static func unified(_ lines: [Line], context: Int = 3) -> [String] {
        let changed = lines.indices.filter { lines[$0].op != .same }
        guard !changed.isEmpty else { return [] }
        // Group changes whose context windows touch into one hunk.
        var ranges: [ClosedRange<Int>] = []
        for c in changed {
            let r = max(0, c - context)...min(lines.count - 1, c + context)
            if let last = ranges.last, r.lowerBound <= last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                ranges.append(r)
            }
        }
        var out: [String] = []
        for r in ranges {
            let hunk = lines[r]
            let oldCount = hunk.filter { $0.op != .added }.count
            let newCount = hunk.filter { $0.op != .removed }.count
            // Where the hunk starts in each file (for an empty side, the line before it, as diff(1) does).
            let oldStart =
                hunk.first(where: { $0.oldLine != nil })?.oldLine
                ?? (lines[..<r.lowerBound].last(where: { $0.oldLine != nil })?.oldLine ?? 0)
            let newStart =
                hunk.first(where: { $0.newLine != nil })?.newLine
                ?? (lines[..<r.lowerBound].last(where: { $0.newLine != nil })?.newLine ?? 0)
            out.append("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@")
            for l in hunk { out.append((l.op == .same ? " " : l.op == .removed ? "-" : "+") + l.text) }
        }
        return out
    }

    /// Applies the diff to get the new text back (tests use it to prove a diff is an exact edit script).
    public static func newSide(_ lines: [Line]) -> [String] { lines.filter { $0.op != .removed }.map(\.text) }
    public static func oldSide(_ lines: [Line]) -> [String] { lines.filter { $0.op != .added }.map(\.text) }
}
