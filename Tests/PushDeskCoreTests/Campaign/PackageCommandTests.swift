import Foundation
import XCTest

@testable import PushDeskCore

/// export-package / import-package driven through the built binary, store to store.
final class PackageCommandTests: XCTestCase {
    func testExportThenImportIntoAnotherStoreGivesTheSameServiceFile() throws {
        let a = try tempStore(demo: true)
        let b = try tempStore(demo: false)
        let package = a.appendingPathComponent("neotrips-package.xml")

        let export = try runPushDesk([
            "export-package", "neotrips", "--store", a.path, "-o", package.path,
            "--include-credential-refs",
        ])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stderr.contains("wrote 1 services and 3 apps"), export.stderr)

        let dry = try runPushDesk(["import-package", package.path, "--store", b.path, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stdout)
        XCTAssertTrue(dry.stdout.contains("would add services/neotrips.xml (3 apps)"), dry.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: b.appendingPathComponent("services/neotrips.xml").path))

        let imported = try runPushDesk(["import-package", package.path, "--store", b.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(
            try Data(contentsOf: b.appendingPathComponent("services/neotrips.xml")),
            try Data(contentsOf: a.appendingPathComponent("services/neotrips.xml")))

        let again = try runPushDesk(["import-package", package.path, "--store", b.path])
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains("already has services/neotrips.xml; pass --replace"), again.stderr)
        let replaced = try runPushDesk(["import-package", package.path, "--store", b.path, "--replace"])
        XCTAssertEqual(replaced.status, 0, replaced.stdout)
        XCTAssertTrue(replaced.stdout.contains("replace services/neotrips.xml"), replaced.stdout)

        let validate = try runPushDesk(["validate", "--store", b.path])
        XCTAssertEqual(validate.status, 0, validate.stderr)
    }

    func testDefaultExportToStdoutHasNoCredentials() throws {
        let a = try tempStore(demo: true)
        let r = try runPushDesk(["export-package", "neotrips", "--store", a.path, "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains("<mobileApp uuid=\"neotrips-android\""))
        for secret in HandoffFixtures.neotripsCredentialValues { XCTAssertFalse(r.stdout.contains(secret), secret) }
    }

    func testBrokenPackageIsAnInputErrorAndWritesNothing() throws {
        let b = try tempStore(demo: false)
        let bad = b.appendingPathComponent("bad.xml")
        try
            "<package>\n  <entities schema=\"nms:service\"><service name=\"s\" type=\"40\"/></entities>\n  <entities schema=\"nms:mobileApp\"><mobileApp uuid=\"k\" pushPlatform=\"9\"><service name=\"s\"/></mobileApp></entities>\n</package>\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let r = try runPushDesk(["import-package", bad.path, "--store", b.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.xml:3:"), r.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: b.appendingPathComponent("services").path), [])

        let missing = try runPushDesk(["import-package", b.appendingPathComponent("nope.xml").path, "--store", b.path])
        XCTAssertEqual(missing.status, 2)
    }

    private func tempStore(demo: Bool) throws -> URL {
        let root = try makeTempDir(self, demo ? "a" : "b")
        if demo {
            try DemoStore.write(to: root)
        } else {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("services"), withIntermediateDirectories: true)
        }
        return root
    }
}
