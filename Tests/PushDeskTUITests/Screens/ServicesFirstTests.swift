import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A small store's first frame: the services and their findings are read first, the
/// deliveries and profiles just after the frame, before any key (`.loadRest`).
final class ServicesFirstTests: DemoStoreConsoleTestCase {
    override func setUp() async throws {
        try await super.setUp()
        // A service finding from across services (the same integration keys twice) and
        // findings in a delivery: a variable the app does not have.
        var twin = DemoStore.neotrips
        twin.name = "neotrips-twin"
        try Data(try ServiceXML.encode(twin).utf8).write(to: store.url(Service.path(twin.name)))
        var d = DemoStore.summerSale
        d.name = "unknown-variable"
        d.variables = [VariableValue(name: "noSuchVariable", value: "x")]
        try Data(try DeliveryXML.encode(d).utf8).write(to: store.url(Delivery.path(d.name)))
    }

    func testTheFirstFrameIsTheFullLoadsAndTheRestFollowsBeforeAKey() throws {
        let full = ConsoleApp(store: ConsoleStore.open(store))
        let first = ConsoleApp(store: ConsoleStore.open(store), servicesFirst: true)

        let serviceFindings = full.findings.filter { $0.file.hasPrefix(Service.folder + "/") }
        XCTAssertFalse(serviceFindings.isEmpty, "the twin's keys are found twice")
        XCTAssertTrue(full.findings.contains { $0.file == Delivery.path("unknown-variable") }, "\(full.findings)")
        XCTAssertEqual(first.findings, serviceFindings, "the services' findings, and only theirs")
        XCTAssertEqual(first.context.deliveries.count, 0)
        XCTAssertEqual(
            first.render(width: 80, height: 24).text, full.render(width: 80, height: 24).text,
            "the first frame is the one the whole load gives")

        first.perform(.loadRest)
        XCTAssertEqual(first.findings, full.findings)
        XCTAssertEqual(first.context.deliveries.map(\.name), full.context.deliveries.map(\.name))
        XCTAssertEqual(first.context.profiles.map(\.name), [DemoStore.ana.name])
        XCTAssertEqual(first.render(width: 80, height: 24).text, full.render(width: 80, height: 24).text)
        first.handle(.char("D"))
        assertScreen(first, "deliveries", width: 100, height: 24)
    }
}
