import Foundation
import XCTest

/// `make bench` measures the large store only if it loads clean (`pushdesk validate` exit 0):
/// its generator promises "every record is valid", checked here on a small one, demo profile
/// with its test devices included.
final class BenchFixtureTests: XCTestCase {
    func testTheGeneratedLargeStoreValidatesWithoutAnError() throws {
        let bench = packageRoot.appendingPathComponent(".build/debug/pushdesk-bench")
        guard FileManager.default.isExecutableFile(atPath: bench.path) else {
            throw MissingPrerequisite(
                description: "pushdesk-bench is not built at \(bench.path); run `swift build` first (make test does)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-fixture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try runProcess(bench.path, ["generate", dir.path, "--services", "3", "--deliveries", "5"])
        XCTAssertEqual(g.status, 0, g.stderr)
        let profile = try String(contentsOf: dir.appendingPathComponent("profiles/ana.xml"), encoding: .utf8)
        XCTAssertTrue(profile.contains("app=\"svc-0000-ios-dev\""), profile)
        let v = try runPushDesk(["validate", "--store", dir.path])
        XCTAssertEqual(v.status, 0, v.stdout + v.stderr)
        XCTAssertFalse((v.stdout + v.stderr).contains("error:"), v.stdout + v.stderr)
        XCTAssertTrue(v.stdout.contains("3 services, 5 deliveries: 0 errors"), v.stdout)
    }
}
