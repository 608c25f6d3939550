import Foundation
import XCTest
@testable import PushDeskCore

/// Drives the built `pushdesk` binary the way an operator does, on a real demo store.
final class HandoffCommandTests: XCTestCase {
    func testHandoffToStdoutAndToFileMatchTheGoldenSheets() throws {
        let (bin, store) = try setUpStore()
        let md = try Tool.run(bin, ["handoff", "neotrips", "--store", store.path])
        XCTAssertEqual(md.status, 0, md.output)
        XCTAssertEqual(md.output, try golden("neotrips.md"))

        // -o picks the format from the extension and writes atomically (no temp file left).
        let out = store.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for format in ["html", "json"] {
            let file = out.appendingPathComponent("sheet.\(format)")
            let r = try Tool.run(bin, ["handoff", "neotrips", "--store", store.path, "-o", file.path])
            XCTAssertEqual(r.status, 0, r.output)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), try golden("neotrips.\(format)"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), ["sheet.html", "sheet.json"])

        let one = try Tool.run(bin, ["handoff", "neotrips", "--store", store.path, "--app", "neotrips-android", "--format", "md"])
        XCTAssertEqual(one.output, try golden("neotrips-android.md"))
    }

    func testHandoffErrorsSayWhatToDo() throws {
        let (bin, store) = try setUpStore()
        let unknownApp = try Tool.run(bin, ["handoff", "neotrips", "--store", store.path, "--app", "nope"])
        XCTAssertEqual(unknownApp.status, 2)
        XCTAssertTrue(unknownApp.output.contains("no app with integration key nope; its apps are neotrips-ios-dev"), unknownApp.output)

        let unknownService = try Tool.run(bin, ["handoff", "nosuch", "--store", store.path])
        XCTAssertEqual(unknownService.status, 2)
        XCTAssertTrue(unknownService.output.contains("services/nosuch.xml: error:"), unknownService.output)

        let badDir = try Tool.run(bin, ["handoff", "neotrips", "--store", store.path, "-o", "/nonexistent-dir/x.md"])
        XCTAssertEqual(badDir.status, 2)
        XCTAssertTrue(badDir.output.contains("check that the folder exists"), badDir.output)

        // A broken service file is an input error (exit 1) with its position.
        try "<service format=\"1\" name=\"neotrips\" bogus=\"x\"/>\n"
            .write(to: store.appendingPathComponent("services/neotrips.xml"), atomically: true, encoding: .utf8)
        let broken = try Tool.run(bin, ["handoff", "neotrips", "--store", store.path])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.output.contains("services/neotrips.xml:1:"), broken.output)
    }

    // MARK: helpers

    private func setUpStore() throws -> (URL, URL) {
        let bin = try PushdeskBinary.url()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pushdesk-cmd-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        try DemoStore.write(to: root)
        return (bin, root)
    }

    private func golden(_ name: String) throws -> String {
        try String(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/handoff/golden/\(name)"),
                   encoding: .utf8)
    }
}

/// The `pushdesk` executable built next to this test bundle (`swift test` builds it).
enum PushdeskBinary {
    static func url() throws -> URL {
        var dir = Bundle.module.bundleURL.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("pushdesk")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw XCTSkip("the pushdesk binary is not built next to the tests; run `swift build` first (make test does)")
    }
}
