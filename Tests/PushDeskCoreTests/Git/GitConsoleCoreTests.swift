import Foundation
import XCTest

@testable import PushDeskCore

/// What the console's git features rest on: `git status --porcelain=v2` read into states,
/// and a conflict resolved for THEIRS field by field (the rest keeps OURS, as the driver).
final class GitConsoleCoreTests: XCTestCase {
    func testPorcelainV2ReadsBranchAheadBehindAndStatesUnderTheStore() {
        let text =
            [
                "# branch.oid 0123", "# branch.head main", "# branch.upstream origin/main", "# branch.ab +2 -3",
                "1 .M N... 100644 100644 100644 a b store/services/neotrips.xml",
                "1 A. N... 000000 100644 100644 a b store/deliveries/summer-sale.xml",
                "2 R. N... 100644 100644 100644 a b R100 store/services/new name.xml", "store/services/old.xml",
                "u UU N... 100644 100644 100644 100644 a b c store/profiles/ann.xml", "? store/services/draft.xml",
                "? elsewhere/services/x.xml",
            ].joined(separator: "\0") + "\0"
        let s = GitStatus.parse(text, prefix: "store/")
        XCTAssertEqual(s.branch, "main")
        XCTAssertEqual(s.upstream, "origin/main")
        XCTAssertEqual(s.summary, "main ↑2 ↓3")
        XCTAssertEqual(
            s.files,
            [
                "services/neotrips.xml": .changed, "deliveries/summer-sale.xml": .new,
                "services/new name.xml": .changed,
                "profiles/ann.xml": .conflicted, "services/draft.xml": .new,
            ])
        XCTAssertEqual(GitStatus.parse("# branch.head (detached)\0", prefix: "").summary, "detached")
        XCTAssertEqual(GitStatus.parse("# branch.head dev\0", prefix: "").summary, "dev (no upstream)")
    }

    func testAConflictResolvedForTheirsTakesTheirsThereAndOursElsewhere() throws {
        let base = DemoStore.neotrips
        var ours = base
        ours.label = "Ours"
        ours.apps[0].label = "Ours app"
        var theirs = base
        theirs.label = "Theirs"
        theirs.apps[0].label = "Theirs app"
        let data = { (s: Service) in Data(try ServiceXML.encode(s).utf8) }
        let path = "services/neotrips.xml"
        let both = try RecordMerge.merge(
            base: data(base), ours: data(ours), theirs: data(theirs), path: path, kind: .service)
        XCTAssertEqual(both.conflicts.map(\.field), ["label", "apps[0].label"])
        let resolved = try RecordMerge.merge(
            base: data(base), ours: data(ours), theirs: data(theirs), path: path, kind: .service,
            theirsWins: ["label"])
        XCTAssertEqual(resolved.conflicts.map(\.field), ["apps[0].label"])
        var expected = ours
        expected.label = "Theirs"
        XCTAssertEqual(resolved.text, try ServiceXML.encode(expected))
        let all = try RecordMerge.merge(
            base: data(base), ours: data(ours), theirs: data(theirs), path: path, kind: .service,
            theirsWins: ["label", "apps[0].label"])
        XCTAssertEqual(all.conflicts, [])
        XCTAssertEqual(all.text, try ServiceXML.encode(theirs))
    }
}
