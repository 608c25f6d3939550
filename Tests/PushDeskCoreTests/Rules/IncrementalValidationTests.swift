import XCTest
@testable import PushDeskCore

/// The console's per-keystroke check must report exactly what `validate` reports.
final class IncrementalValidationTests: XCTestCase {
    func testEveryEditGivesTheFullCheck() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-incr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try DemoStore.write(to: root)
        let store = Store(root: root)
        var other = DemoStore.neotrips
        other.name = "other"
        for i in other.apps.indices { other.apps[i].integrationKey = "other-\(i)" }
        try store.save(other)
        var orphan = DemoStore.summerSale
        orphan.name = "orphan"; orphan.service = "renamed"
        try store.save(orphan)
        try Data("<service".utf8).write(to: store.url(Store.servicePath("broken")))

        let snapshot = store.loadAll()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let incremental = IncrementalValidation(snapshot, now: now)
        func full(_ services: [Service]) -> [Finding] {
            var s = snapshot; s.services = services
            return StoreValidation.findings(s, now: now)
        }
        var services = snapshot.services
        XCTAssertEqual(incremental.findings(services: services), full(services))
        XCTAssertFalse(full(services).isEmpty)

        // A rule on one service, a key shared across services, a rename its deliveries follow,
        // a service added, then everything back: each answer equals the full check.
        let n = try XCTUnwrap(services.firstIndex { $0.name == "neotrips" })
        if case .ios(var a) = services[n].apps[0] { a.connector = .binary; services[n].apps[0] = .ios(a) }
        XCTAssertEqual(incremental.findings(services: services), full(services))
        services[n].apps[2].integrationKey = "other-0"
        XCTAssertEqual(incremental.findings(services: services), full(services))
        services[n].name = "renamed"
        XCTAssertEqual(incremental.findings(services: services), full(services))
        services.append(Service(name: "new", label: ""))
        XCTAssertEqual(incremental.findings(services: services), full(services))
        XCTAssertEqual(incremental.findings(services: snapshot.services), full(snapshot.services))
    }
}
