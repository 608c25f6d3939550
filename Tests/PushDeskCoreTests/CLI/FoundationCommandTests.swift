import XCTest

@testable import PushDeskCore

/// `pushdesk init / list / validate` as an operator runs them, with the exit codes of README.md.
final class FoundationCommandTests: XCTestCase {
    func testInitDemoThenValidateExitsZero() throws {
        let root = try makeTempDir(self, "demo")
        try FileManager.default.removeItem(at: root)
        let i = try runPushDesk(["init", "--demo", root.path])
        XCTAssertEqual(i.status, 0, i.stderr)
        let v = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(v.status, 0, v.stderr + v.stdout)
        XCTAssertTrue(v.stdout.contains("1 services, 2 deliveries: 0 errors"), v.stdout)
        let again = try runPushDesk(["init", "--demo", root.path])
        XCTAssertEqual(again.status, 2, "init never overwrites a store")
    }

    func testDuplicateIntegrationKeyExitsOneAndNamesBothFiles() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        var copy = DemoStore.neotrips
        copy.name = "neotrips-copy"
        copy.apps = [copy.apps[2]]
        try Store(root: root).save(copy)
        let v = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(v.status, 1)
        XCTAssertTrue(v.stderr.contains("services/neotrips.xml:"), v.stderr)
        XCTAssertTrue(v.stderr.contains("services/neotrips-copy.xml:"), v.stderr)
        XCTAssertTrue(v.stderr.contains("[integration-key.duplicate]"))
        let j = try runPushDesk(["validate", "--json", "--store", root.path])
        XCTAssertEqual(j.status, 1)
        let doc = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any]
        let rules = (doc?["findings"] as? [[String: Any]])?.compactMap { $0["rule"] as? String }
        XCTAssertEqual(rules?.filter { $0 == "integration-key.duplicate" }.count, 2)
    }

    func testMalformedFilesGiveOnePositionedLineExitOneAndChangeNothing() throws {
        let cases: [(String, Data, String)] = [
            ("truncated", Data(try ServiceXML.encode(DemoStore.neotrips).utf8.prefix(700)), "truncated"),
            (
                "wrong root", Data("<?xml version=\"1.0\"?>\n<delivery format=\"1\" name=\"neotrips\"/>".utf8),
                "root element"
            ),
            (
                "dtd entity",
                Data(
                    "<?xml version=\"1.0\"?>\n<!DOCTYPE s [<!ENTITY e \"x\">]>\n<service format=\"1\" name=\"neotrips\"/>"
                        .utf8), "DTD"
            ),
            ("invalid utf-8", Data([0x3C, 0x73, 0xFF, 0x3E]), "UTF-8"),
            (
                "50 MB nesting",
                Data(
                    ("<?xml version=\"1.0\"?><service format=\"1\" name=\"neotrips\">"
                        + String(repeating: "<a>", count: 17_500_000)).utf8), "at most"
            ),
        ]
        for (what, bytes, expected) in cases {
            let root = try makeTempDir(self)
            try DemoStore.write(to: root)
            try bytes.write(to: root.appendingPathComponent("services/neotrips.xml"))
            let before = try snapshotFiles(root)
            let v = try runPushDesk(["validate", "--store", root.path])
            XCTAssertEqual(v.status, 1, what)
            let lines = v.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(what): \(v.stderr)")
            XCTAssertNotNil(
                lines.first?.range(of: #"^services/neotrips\.xml:\d+:\d+: error: "#, options: .regularExpression),
                "\(what): \(v.stderr)")
            XCTAssertTrue(v.stderr.contains(expected), "\(what): \(v.stderr)")
            XCTAssertEqual(try snapshotFiles(root), before, "\(what): validate changed a file")
        }
    }

    func testExplicitMissingStoreIsExitTwo() throws {
        let root = try makeTempDir(self)
        let v = try runPushDesk(["validate", "--store", root.appendingPathComponent("nope").path])
        XCTAssertEqual(v.status, 2)
        XCTAssertTrue(v.stderr.contains("pushdesk init"), v.stderr)
    }

    func testDefaultStoreIsCreatedWithTheDemoOnFirstUse() throws {
        let home = try makeTempDir(self, "xdg")
        let r = try runPushDesk(["list", "--json"], environment: ["XDG_DATA_HOME": home.path, "PUSHDESK_STORE": ""])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: home.appendingPathComponent("pushdesk/services/neotrips.xml").path))
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let apps = ((doc?["services"] as? [[String: Any]])?.first?["apps"] as? [[String: Any]])?.compactMap {
            $0["integrationKey"] as? String
        }
        XCTAssertEqual(apps, ["neotrips-ios-dev", "neotrips-ios", "neotrips-android"])
    }

    func testPushdeskStoreEnvironmentVariable() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let r = try runPushDesk(["list"], environment: ["PUSHDESK_STORE": root.path])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("neotrips-android"))
    }

    func testUsageErrorsExitTwo() throws {
        for args in [["--no-such-option"], ["validate", "--bogus"], ["list", "extra-argument"]] {
            let r = try runPushDesk(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("Usage: pushdesk"), r.stderr)
        }
        XCTAssertEqual(try runPushDesk(["--version"]).status, 0)
    }
}
