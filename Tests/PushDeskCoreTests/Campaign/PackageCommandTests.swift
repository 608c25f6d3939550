import Foundation
import XCTest
@testable import PushDeskCore

/// export-package / import-package driven through the built binary, store to store.
final class PackageCommandTests: XCTestCase {
    func testExportThenImportIntoAnotherStoreGivesTheSameServiceFile() throws {
        let bin = try PushdeskBinary.url()
        let a = try tempStore(demo: true), b = try tempStore(demo: false)
        let package = a.appendingPathComponent("neotrips-package.xml")

        let export = try Tool.run(bin, ["export-package", "neotrips", "--store", a.path, "-o", package.path,
                                        "--include-credential-refs"])
        XCTAssertEqual(export.status, 0, export.output)
        XCTAssertTrue(export.output.contains("wrote 1 services and 3 apps"), export.output)

        let dry = try Tool.run(bin, ["import-package", package.path, "--store", b.path, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.output)
        XCTAssertTrue(dry.output.contains("would add services/neotrips.xml (3 apps)"), dry.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: b.appendingPathComponent("services/neotrips.xml").path))

        let imported = try Tool.run(bin, ["import-package", package.path, "--store", b.path])
        XCTAssertEqual(imported.status, 0, imported.output)
        XCTAssertEqual(try Data(contentsOf: b.appendingPathComponent("services/neotrips.xml")),
                       try Data(contentsOf: a.appendingPathComponent("services/neotrips.xml")))

        let again = try Tool.run(bin, ["import-package", package.path, "--store", b.path])
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.output.contains("already has services/neotrips.xml; pass --replace"), again.output)
        let replaced = try Tool.run(bin, ["import-package", package.path, "--store", b.path, "--replace"])
        XCTAssertEqual(replaced.status, 0, replaced.output)
        XCTAssertTrue(replaced.output.contains("replace services/neotrips.xml"), replaced.output)

        let validate = try Tool.run(bin, ["validate", "--store", b.path])
        XCTAssertEqual(validate.status, 0, validate.output)
    }

    func testDefaultExportToStdoutHasNoCredentials() throws {
        let bin = try PushdeskBinary.url()
        let a = try tempStore(demo: true)
        let r = try Tool.run(bin, ["export-package", "neotrips", "--store", a.path, "-o", "-"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("<mobileApp uuid=\"neotrips-android\""))
        for secret in HandoffFixtures.neotripsCredentialValues { XCTAssertFalse(r.output.contains(secret), secret) }
    }

    func testBrokenPackageIsAnInputErrorAndWritesNothing() throws {
        let bin = try PushdeskBinary.url()
        let b = try tempStore(demo: false)
        let bad = b.appendingPathComponent("bad.xml")
        try "<package>\n  <entities schema=\"nms:service\"><service name=\"s\" type=\"40\"/></entities>\n  <entities schema=\"nms:mobileApp\"><mobileApp uuid=\"k\" pushPlatform=\"9\"><service name=\"s\"/></mobileApp></entities>\n</package>\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let r = try Tool.run(bin, ["import-package", bad.path, "--store", b.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.output.contains("bad.xml:3:"), r.output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: b.appendingPathComponent("services").path), [])

        let missing = try Tool.run(bin, ["import-package", b.appendingPathComponent("nope.xml").path, "--store", b.path])
        XCTAssertEqual(missing.status, 2)
    }

    private func tempStore(demo: Bool) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pushdesk-pkg-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        if demo { try DemoStore.write(to: root) } else {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("services"), withIntermediateDirectories: true)
        }
        return root
    }
}
