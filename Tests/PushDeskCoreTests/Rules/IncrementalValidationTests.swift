import PushDeskTestSupport
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
        orphan.name = "orphan"
        orphan.service = "renamed"
        try store.save(orphan)
        try Data("<service".utf8).write(to: store.url(Service.path("broken")))

        let snapshot = store.loadAll()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let incremental = IncrementalValidation(snapshot, now: now)
        func full(_ services: [Service]) -> [Finding] {
            var s = snapshot
            s.services = services
            return StoreValidation.findings(s, now: now)
        }
        var services = snapshot.services
        XCTAssertEqual(incremental.findings(services: services), full(services))
        XCTAssertFalse(full(services).isEmpty)

        // A rule on one service, a key shared across services, a rename its deliveries follow,
        // a service added, then everything back: each answer equals the full check.
        let n = try XCTUnwrap(services.firstIndex { $0.name == "neotrips" })
        if case .ios(var a) = services[n].apps[0] {
            a.connector = .binary
            services[n].apps[0] = .ios(a)
        }
        XCTAssertEqual(incremental.findings(services: services), full(services))
        services[n].apps[2].integrationKey = "other-0"
        XCTAssertEqual(incremental.findings(services: services), full(services))
        services[n].name = "renamed"
        XCTAssertEqual(incremental.findings(services: services), full(services))
        services.append(Service(name: "new", label: ""))
        XCTAssertEqual(incremental.findings(services: services), full(services))
        XCTAssertEqual(incremental.findings(services: snapshot.services), full(snapshot.services))
    }

    /// The profiles' test devices follow the apps they name: a key changed away and back, an
    /// app replaced by one of the other platform under the same key, a label edit between.
    func testTestDevicesFollowTheirAppsKeysAndPlatforms() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-incr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try DemoStore.write(to: root)
        let snapshot = Store(root: root).loadAll()
        XCTAssertFalse(snapshot.profiles.flatMap(\.subscriptions).isEmpty, "the demo's Ana has test devices")
        let incremental = IncrementalValidation(snapshot)
        func rules(_ services: [Service]) -> [String] {
            let found = incremental.findings(services: services)
            var s = snapshot
            s.services = services
            XCTAssertEqual(found, StoreValidation.findings(s, now: Date()))
            return found.filter { $0.file.hasPrefix("profiles/") }.map(\.rule)
        }
        var services = snapshot.services
        XCTAssertEqual(rules(services), [])
        let android = try XCTUnwrap(services[0].apps.firstIndex { $0.integrationKey == "neotrips-android" })
        services[0].apps[android].integrationKey = "neotrips-android-2"
        XCTAssertEqual(rules(services), ["subscription.unknown-app"])
        services[0].label = "Neotrips (edited)"
        XCTAssertEqual(rules(services), ["subscription.unknown-app"])
        services[0].apps[android].integrationKey = "neotrips-android"
        XCTAssertEqual(rules(services), [])
        // The iOS sandbox app's key on an Android app: Ana's iPhone token is no FCM token problem,
        // but her Pixel's token is not an APNs token once its key names an iOS app.
        let ios = try XCTUnwrap(services[0].apps.firstIndex { $0.integrationKey == "neotrips-ios-dev" })
        let (a, b) = (services[0].apps[ios], services[0].apps[android])
        services[0].apps[ios] = b
        services[0].apps[android] = a
        services[0].apps[ios].integrationKey = "neotrips-ios-dev"
        services[0].apps[android].integrationKey = "neotrips-android"
        XCTAssertEqual(rules(services), ["subscription.token-format"])
        XCTAssertEqual(rules(snapshot.services), [])
    }

    /// Delivery drafts (what the composer edits) too: changed, added, removed, renamed, a
    /// service edited while its delivery was out of the list, two drafts with one name.
    func testDeliveryEditsGiveTheFullCheck() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-incr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try DemoStore.write(to: root)
        let snapshot = Store(root: root).loadAll()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let incremental = IncrementalValidation(snapshot, now: now)
        func full(_ services: [Service], _ deliveries: [Delivery]) -> [Finding] {
            var s = snapshot
            s.services = services
            s.deliveries = deliveries
            return StoreValidation.findings(s, now: now)
        }
        func same(_ services: [Service], _ deliveries: [Delivery], file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(
                incremental.findings(services: services, deliveries: deliveries), full(services, deliveries),
                file: file, line: line)
        }
        let services = snapshot.services
        var deliveries = snapshot.deliveries
        same(services, deliveries)
        let i = try XCTUnwrap(deliveries.firstIndex { $0.name == "summer-sale" })

        // A body over the size limit, then a sound the app does not ship, then back.
        deliveries[i].content.body = String(repeating: "é", count: 3000)
        same(services, deliveries)
        XCTAssertTrue(
            incremental.findings(services: services, deliveries: deliveries).contains { $0.rule == "size.limit" })
        deliveries[i].ios.sound = "no-such-sound.caf"
        same(services, deliveries)
        deliveries[i] = snapshot.deliveries[i]
        same(services, deliveries)

        // A new delivery for a service that does not exist, a rename, a removal.
        var orphan = snapshot.deliveries[i]
        orphan.name = "orphan"
        orphan.service = "nowhere"
        deliveries.append(orphan)
        same(services, deliveries)
        deliveries[i].name = "summer-sale-2"
        same(services, deliveries)
        let removed = deliveries.remove(at: i)

        // While it is out of the list its service changes; back in, it is checked against the new service.
        var edited = services
        let n = try XCTUnwrap(edited.firstIndex { $0.name == removed.service })
        for a in edited[n].apps.indices { edited[n].apps[a].variables = [] }
        same(edited, deliveries)
        deliveries.insert(removed, at: i)
        same(edited, deliveries)
        XCTAssertTrue(
            incremental.findings(services: edited, deliveries: deliveries).contains { $0.rule == "variable.undeclared" }
        )

        // Two drafts with one name (a copy not yet renamed), different content.
        var twin = removed
        twin.content.title = ""
        deliveries.append(twin)
        same(edited, deliveries)
        same(services, deliveries)
        same(services, snapshot.deliveries)
    }

    /// Random edits as an operator makes them — keys that collide and part, renames, labels,
    /// services added, removed and moved, delivery drafts changed or not — each answer equal
    /// to the full check. The delivery list is often the very same array (the console passes
    /// its saved list untouched while a service is edited).
    func testRandomEditsGiveTheFullCheck() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-incr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try DemoStore.write(to: root)
        let store = Store(root: root)
        var base = DemoStore.neotrips
        for i in 0..<6 {
            base.name = "svc\(i)"
            base.label = "Service \(i)"
            for a in base.apps.indices { base.apps[a].integrationKey = "k\(i)-\(a)" }
            try store.save(base)
            var d = DemoStore.summerSale
            d.name = "d\(i)"
            d.service = "svc\(i)"
            try store.save(d)
        }
        let snapshot = store.loadAll()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let incremental = IncrementalValidation(snapshot, now: now)
        var services = snapshot.services
        var deliveries = snapshot.deliveries
        var rng = seededGenerator(self)
        for step in 0..<400 {
            switch Int.random(in: 0..<9, using: &rng) {
            case 0, 1:  // a key: collide with another, or a fresh one
                let i = Int.random(in: 0..<services.count, using: &rng)
                guard !services[i].apps.isEmpty else { break }
                let a = Int.random(in: 0..<services[i].apps.count, using: &rng)
                services[i].apps[a].integrationKey =
                    Bool.random(using: &rng) ? "k\(Int.random(in: 0..<3, using: &rng))-0" : "fresh-\(step)"
            case 2:  // a label (named in duplicate-key messages)
                let i = Int.random(in: 0..<services.count, using: &rng)
                services[i].label = "Label \(step)"
            case 3:  // a rename: its deliveries lose or find their service
                let i = Int.random(in: 0..<services.count, using: &rng)
                services[i].name = ["svc0", "svc1", "renamed", "svc\(i)"].randomElement(using: &rng)!
            case 4:  // a new service, or one removed
                if Bool.random(using: &rng) || services.count < 3 {
                    var s = base
                    s.name = "new\(step)"
                    for a in s.apps.indices { s.apps[a].integrationKey = "n\(step)-\(a)" }
                    services.append(s)
                } else {
                    services.remove(at: Int.random(in: 0..<services.count, using: &rng))
                }
            case 5:  // two services swap places
                services.swapAt(
                    Int.random(in: 0..<services.count, using: &rng), Int.random(in: 0..<services.count, using: &rng))
            case 6:  // a delivery draft changes
                let j = Int.random(in: 0..<deliveries.count, using: &rng)
                deliveries[j].content.body =
                    Bool.random(using: &rng) ? String(repeating: "é", count: 2100) : "Body \(step)"
            case 7:  // a delivery moves to another service
                let j = Int.random(in: 0..<deliveries.count, using: &rng)
                deliveries[j].service = "svc\(Int.random(in: 0..<7, using: &rng))"
            default:  // back to the saved records
                if Bool.random(using: &rng) { services = snapshot.services } else { deliveries = snapshot.deliveries }
            }
            var full = snapshot
            full.services = services
            full.deliveries = deliveries
            let want = StoreValidation.findings(full, now: now)
            XCTAssertEqual(incremental.findings(services: services, deliveries: deliveries), want, "step \(step)")
        }
        // Then, whatever the seed drew, the two cases the check must reach: a key shared by
        // two services, and a delivery whose service is gone.
        services = snapshot.services
        deliveries = snapshot.deliveries
        services[1].apps[0].integrationKey = services[0].apps[0].integrationKey
        deliveries[0].service = "gone"
        var full = snapshot
        full.services = services
        full.deliveries = deliveries
        let want = StoreValidation.findings(full, now: now)
        XCTAssertEqual(incremental.findings(services: services, deliveries: deliveries), want)
        XCTAssertTrue(want.contains { $0.rule == "integration-key.duplicate" }, "\(want)")
        XCTAssertTrue(want.contains { $0.rule == "delivery.service-missing" }, "\(want)")
    }
}
