import PushDeskCore
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// A store of 20,000 services with a finding each: the loaded rows must replace the
/// placeholders at once (the list once filtered every finding per service: 20,000² on the
/// input loop, minutes during which quit and hang-up went unanswered).
final class LargeStoreScaleTests: XCTestCase {
    func testTwentyThousandServicesWithFindingsFillTheListQuickly() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let app = ConsoleApp(store: ConsoleStore.open(Store(root: root)), loadNow: false)
        let n = 20_000
        let services = (0..<n).map { Service(name: String(format: "svc-%05d", $0), label: "Label \($0)") }
        let findings = services.enumerated().map { i, s in
            Finding(
                i % 2 == 0 ? .warning : .error, "test.rule", "finding of \(s.name)", file: Service.path(s.name))
        }
        let loaded = LoadedStore(services: services, errors: [], deliveries: [], profiles: [], findings: findings)
        // CPU time, not wall time: the work of filling the rows (a fraction of a second in a
        // debug build), where the quadratic fill took minutes.
        let (seconds, buf) = cpuSeconds {
            app.finishLoading(loaded)
            return app.render(width: 80, height: 24)
        }
        XCTAssertLessThan(seconds, 20, "rows filled in \(seconds) s of CPU time")
        // Each row with its label and its findings (svc-00000 a warning, svc-00001 an error).
        assertScreen(buf, "filled")
    }

    private func makeTempDir(_ test: XCTestCase) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pd-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }
}
