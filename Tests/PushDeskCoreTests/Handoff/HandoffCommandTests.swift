import Foundation
import XCTest

@testable import PushDeskCore

/// Drives the built `pushdesk` binary the way an operator does, on a real demo store.
final class HandoffCommandTests: XCTestCase {
    func testHandoffToStdoutAndToFileMatchTheGoldenSheets() throws {
        let store = try setUpStore()
        let md = try runPushDesk(["handoff", "neotrips", "--store", store.path])
        XCTAssertEqual(md.status, 0, md.stderr)
        XCTAssertEqual(md.stdout, try golden("neotrips.md"))
        XCTAssertEqual(md.stderr, "")

        // -o picks the format from the extension and writes atomically (no temp file left).
        let out = store.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for format in ["html", "json"] {
            let file = out.appendingPathComponent("sheet.\(format)")
            let r = try runPushDesk(["handoff", "neotrips", "--store", store.path, "-o", file.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, "")
            XCTAssertTrue(r.stderr.contains("wrote the \(format) sheet of neotrips to"), r.stderr)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), try golden("neotrips.\(format)"))
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["sheet.html", "sheet.json"])

        let one = try runPushDesk([
            "handoff", "neotrips", "--store", store.path, "--app", "neotrips-android", "--format", "md",
        ])
        XCTAssertEqual(one.stdout, try golden("neotrips-android.md"))
    }

    func testHandoffErrorsSayWhatToDo() throws {
        let store = try setUpStore()
        let unknownApp = try runPushDesk(["handoff", "neotrips", "--store", store.path, "--app", "nope"])
        XCTAssertEqual(unknownApp.status, 2)
        XCTAssertTrue(
            unknownApp.stderr.contains("no app with integration key nope; its apps are neotrips-ios-dev"),
            unknownApp.stderr)

        let unknownService = try runPushDesk(["handoff", "nosuch", "--store", store.path])
        XCTAssertEqual(unknownService.status, 2)
        XCTAssertTrue(unknownService.stderr.contains("services/nosuch.xml: error:"), unknownService.stderr)

        let badDir = try runPushDesk(["handoff", "neotrips", "--store", store.path, "-o", "/nonexistent-dir/x.md"])
        XCTAssertEqual(badDir.status, 2)
        XCTAssertTrue(badDir.stderr.contains("check that the folder exists"), badDir.stderr)

        // A broken service file is an input error (exit 1) with its position.
        try "<service format=\"1\" name=\"neotrips\" bogus=\"x\"/>\n"
            .write(to: store.appendingPathComponent("services/neotrips.xml"), atomically: true, encoding: .utf8)
        let broken = try runPushDesk(["handoff", "neotrips", "--store", store.path])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("services/neotrips.xml:1:"), broken.stderr)
    }

    // MARK: helpers

    private func setUpStore() throws -> URL {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        return root
    }

    private func golden(_ name: String) throws -> String {
        try String(
            contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/handoff/golden/\(name)"),
            encoding: .utf8)
    }
}
