import XCTest

@testable import PushDeskCore

/// Proof of the atomic save under fault: a real process saving in a loop is SIGKILLed at
/// random moments, and saves fail in write(2) under a file-size limit; after every kill the
/// store parses and the file is exactly the old or the new version.
final class CrashSafetyTests: XCTestCase {
    private var helper: URL { packageRoot.appendingPathComponent(".build/debug/pushdesk-stress") }

    private func versions() throws -> Set<Data> {
        [
            Data(try ServiceXML.encode(StressVersions.small).utf8),
            Data(try ServiceXML.encode(StressVersions.large).utf8),
        ]
    }

    func testSigkillAtRandomMomentsNeverLeavesAHalfWrittenFile() throws {
        guard FileManager.default.isExecutableFile(atPath: helper.path) else {
            throw MissingPrerequisite(
                description: "pushdesk-stress is not built; `swift build` builds it (make test does)")
        }
        let root = try makeTempDir(self)
        try Store(root: root).save(StressVersions.small)
        let allowed = try versions()
        let file = root.appendingPathComponent("services/neotrips.xml")
        var rng = SystemRandomNumberGenerator()
        let kills = 300
        var observed: [Data: Int] = [:]
        func inode() -> UInt64 {
            ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.systemFileNumber] as? NSNumber)?
                .uint64Value ?? 0
        }
        for k in 0..<kills {
            let before = inode()
            let p = Process()
            p.executableURL = helper
            p.arguments = [root.path]
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            if k % 2 == 1 {
                // Half the kills wait until a save has landed (each rename is a new inode), so
                // they strike mid-loop however slowly a loaded machine starts the process.
                let deadline = Date().addingTimeInterval(5)
                while inode() == before && Date() < deadline { usleep(200) }
                usleep(UInt32.random(in: 0...3_000, using: &rng))
            } else {
                usleep(UInt32.random(in: 1_000...15_000, using: &rng))
            }
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let bytes = try Data(contentsOf: file)
            XCTAssertTrue(allowed.contains(bytes), "after a kill the file is neither version (\(bytes.count) bytes)")
            XCTAssertNoThrow(try Store(root: root).load(Service.self, "neotrips"))
            observed[bytes, default: 0] += 1
        }
        XCTAssertEqual(
            observed.count, 2, "both versions were seen after kills, so kills landed between saves and mid-save")
        // Temp files of killed saves may remain (named .neotrips.xml.tmp-*) but are never read as records.
        XCTAssertEqual(try Store(root: root).names(Service.self), ["neotrips"])
        let report =
            "kills=\(kills) small=\(observed[allowed.first { $0.count < 2000 }!] ?? 0) large=\(observed[allowed.first { $0.count >= 2000 }!] ?? 0)"
        print("crash-safety: \(report)")
    }

    func testWritesFailingForLackOfSpaceKeepTheOldFile() throws {
        guard FileManager.default.isExecutableFile(atPath: helper.path) else {
            throw MissingPrerequisite(
                description: "pushdesk-stress is not built; `swift build` builds it (make test does)")
        }
        let root = try makeTempDir(self)
        try Store(root: root).save(StressVersions.small)
        let small = Data(try ServiceXML.encode(StressVersions.small).utf8)
        let large = Data(try ServiceXML.encode(StressVersions.large).utf8)
        XCTAssertLessThan(small.count, 4000)
        XCTAssertGreaterThan(large.count, 4000)
        let r = try runProcess(helper.path, [root.path, "200", "--fsize-limit", "4000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "saves=200 failures=100",
            "every save of the large version fails in write(2)")
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("services/neotrips.xml")), small)
        let debris = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("services").path)
        XCTAssertEqual(debris, ["neotrips.xml"], "failed saves remove their temporary file")
    }
}
