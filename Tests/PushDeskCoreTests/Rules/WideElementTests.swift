import Foundation
import XCTest

@testable import PushDeskCore

/// One element with hundreds of thousands of attributes (a broken or hostile file) costs
/// work linear in its size. Growth is checked by counted work (`ParseCost`), not by time;
/// the seconds are `make bench`'s (the wide-attributes row).
final class WideElementTests: XCTestCase {
    /// A service file whose root has `n` more attributes, `a0="v" a1="v" …`, on one line.
    private func service(attributes n: Int) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<service format=\"1\" name=\"wide\" label=\"W\""
        for i in 0..<n { s += " a\(i)=\"v\"" }
        return s + "/>\n"
    }

    private func cost(attributes n: Int) -> ParseCost {
        let cost = ParseCost()
        _ = try? XMLReader.parse(Data(service(attributes: n).utf8), file: "services/wide.xml", cost: cost)
        return cost
    }

    func testTenTimesTheAttributesCostAtMostTwelveTimesTheWork() throws {
        let small = cost(attributes: 3_000)
        let large = cost(attributes: 30_000)
        XCTAssertGreaterThan(small.total, 0)
        let ratio = Double(large.total) / Double(small.total)
        print("wide element: 3,000 attributes \(small.total) units of work, 30,000: \(large.total), ratio \(ratio)")
        XCTAssertLessThanOrEqual(ratio, 12, "3,000 attributes: \(small.total), 30,000: \(large.total)")
    }

    /// The 3.5 MB file of the report: validation ends with one positioned error that says
    /// what is wrong, at linear cost.
    func testThreeHundredThousandAttributesAreRefusedAtTheirElement() throws {
        let small = cost(attributes: 30_000)
        guard Double(cost(attributes: 60_000).total) <= 2.4 * Double(small.total) else {
            return XCTFail("the work grows faster than the attributes: not running 300,000")
        }
        let text = service(attributes: 300_000)
        XCTAssertGreaterThan(text.utf8.count, 3_400_000)
        let big = ParseCost()
        XCTAssertThrowsError(try XMLReader.parse(Data(text.utf8), file: "services/wide.xml", cost: big))
        XCTAssertLessThanOrEqual(Double(big.total), 12 * Double(small.total), "300,000: \(big.total)")

        let root = try makeTempDir(self)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("services"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: root.appendingPathComponent("services/wide.xml"))
        let snap = Store(root: root).loadAll(readOnly: true)
        let errors = snap.positioned(StoreValidation.findings(snap)).filter { $0.severity == .error }
        XCTAssertEqual(errors.count, 1, "\(errors.map(\.formatted))")
        let e = try XCTUnwrap(errors.first)
        XCTAssertEqual(e.file, "services/wide.xml")
        XCTAssertEqual(e.line, 2)
        XCTAssertEqual(e.column, 1)
        XCTAssertEqual(
            e.message,
            "<service> has 300003 attributes; a PushDesk element has at most \(XMLReader.maxAttributes) — is this the right file?"
        )
    }

    /// At the bound, a profile with namespace declarations keeps its attributes in document
    /// order, found in one pass over the tag (not one pass per attribute).
    func testAttributesBesideNamespaceDeclarationsAreOrderedInOnePass() throws {
        let n = XMLReader.maxAttributes - 2
        let value = String(repeating: "v", count: 100)
        var tag = "<recipient xmlns:x=\"urn:example\" firstName=\"Ana\""
        for i in 0..<n { tag += " f\(i)=\"\(value)\"" }
        tag += "/>"
        let cost = ParseCost()
        let root = try XMLReader.parse(Data(tag.utf8), file: "profiles/ana.xml", cost: cost)
        XCTAssertEqual(root.attributes.count, n + 2)
        XCTAssertEqual(Array(root.attributes.prefix(3).map(\.name)), ["xmlns:x", "firstName", "f0"])
        XCTAssertEqual(root.attributes.last?.name, "f\(n - 1)")
        XCTAssertLessThanOrEqual(
            cost.tagBytesRescanned, tag.utf8.count, "one pass over a tag of \(tag.utf8.count) bytes")
    }
}
