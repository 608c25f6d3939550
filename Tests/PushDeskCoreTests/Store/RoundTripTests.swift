import XCTest

@testable import PushDeskCore

/// Every field of both file kinds survives write → read, and re-saving is byte-identical.
final class RoundTripTests: XCTestCase {
    func testServiceWithEveryFieldRoundTripsByteIdentically() throws {
        let service = fullService()
        let text = try ServiceXML.encode(service)
        let (decoded, _) = try ServiceXML.decode(Data(text.utf8), file: "services/full.xml")
        XCTAssertEqual(decoded, service)
        XCTAssertEqual(try ServiceXML.encode(decoded), text)
    }

    func testAndroidServerKeyAndLegacyRoundTrip() throws {
        var s = Service(
            name: "legacy", label: "L", marketingUrl: "https://m.example/", trackingUrl: "https://t.example/")
        s.apps = [
            .android(
                AndroidApp(
                    label: "A", integrationKey: "k", packageName: "com.a.b", api: .legacy, connector: .v1,
                    auth: .serverKey(serverKeyRef: "fcm-server-key")))
        ]
        let text = try ServiceXML.encode(s)
        XCTAssertTrue(text.contains(#"<auth mode="serverKey" serverKeyRef="fcm-server-key"/>"#))
        XCTAssertEqual(try ServiceXML.decode(Data(text.utf8), file: "x").0, s)
    }

    func testDeliveryWithEveryOptionRoundTripsByteIdentically() throws {
        let delivery = fullDelivery()
        let text = try DeliveryXML.encode(delivery)
        let (decoded, _) = try DeliveryXML.decode(Data(text.utf8), file: "deliveries/everything.xml")
        XCTAssertEqual(decoded, delivery)
        XCTAssertEqual(try DeliveryXML.encode(decoded), text)
        // Every attribute named by docs/FORMATS.md is written.
        for a in DeliveryXML.iosAttributes { XCTAssertTrue(text.contains(" \(a)=\""), "ios attribute \(a) missing") }
        for a in DeliveryXML.androidAttributes {
            XCTAssertTrue(text.contains(" \(a)=\""), "android attribute \(a) missing")
        }
    }

    func testFileFormatRules() throws {
        let text = try ServiceXML.encode(fullService())
        XCTAssertTrue(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<service format=\"1\" name=\"full\""))
        XCTAssertTrue(text.hasSuffix("</service>\n"))
        XCTAssertFalse(text.contains("\r"))
        XCTAssertFalse(text.contains("\t"))
        XCTAssertTrue(text.contains("\n  <iosApp "), "2-space indentation")
        XCTAssertTrue(text.contains("\n    <auth "))
    }

    func testSaveLoadSaveThroughTheStoreIsIdentical() throws {
        let root = try makeTempDir(self)
        let store = Store(root: root)
        try store.save(fullService())
        try store.save(fullDelivery())
        let first = try Data(contentsOf: root.appendingPathComponent("services/full.xml"))
        let firstD = try Data(contentsOf: root.appendingPathComponent("deliveries/everything.xml"))
        try store.save(try store.load(Service.self, "full"))
        try store.save(try store.load(Delivery.self, "everything"))
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("services/full.xml")), first)
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("deliveries/everything.xml")), firstD)
    }

    func testHandWrittenFileLoadsAndBecomesCanonical() throws {
        let hand = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- written by hand -->
            <service trackingUrl="https://t.example/" format="1"
                     name="hand" label="Hand"   marketingUrl="https://m.example/">
                <androidApp packageName="com.hand.app" label="Hand Android" integrationKey="hand-android">
                  <variables><variable label="V" name="VAR"/></variables>
                </androidApp>
            </service>
            """
        let (s, _) = try ServiceXML.decode(Data(hand.utf8), file: "services/hand.xml")
        XCTAssertEqual(s.androidApps.first?.api, .httpv1, "api defaults to httpv1")
        XCTAssertEqual(s.androidApps.first?.connector, .v2, "connector defaults to v2")
        XCTAssertEqual(s.androidApps.first?.variables, [AppVariable(name: "VAR", label: "V")])
        let canonical = try ServiceXML.encode(s)
        XCTAssertTrue(
            canonical.contains(
                #"<service format="1" name="hand" label="Hand" targetMapping="nms:appSubscriptionRcp" marketingUrl="https://m.example/" trackingUrl="https://t.example/">"#
            ))
        XCTAssertEqual(try ServiceXML.encode(try ServiceXML.decode(Data(canonical.utf8), file: "x").0), canonical)
    }

    func testControlCharacterInALabelIsRefusedOnSaveAndNothingIsWritten() throws {
        let root = try makeTempDir(self)
        let store = Store(root: root)
        var s = fullService()
        try store.save(s)
        let before = try Data(contentsOf: root.appendingPathComponent("services/full.xml"))
        s.label = "bad\u{1B}[31mred"
        XCTAssertThrowsError(try store.save(s)) { e in
            XCTAssertTrue("\(e)".contains("U+001B"), "\(e)")
        }
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("services/full.xml")), before)
    }

    func testDemoStoreRoundTripsAndValidatesClean() throws {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let store = Store(root: root)
        let snap = store.loadAll()
        XCTAssertEqual(snap.errors, [])
        XCTAssertEqual(snap.services, [DemoStore.neotrips])
        XCTAssertEqual(Set(snap.deliveries.map(\.name)), ["summer-sale", "catalog-refresh"])
        XCTAssertEqual(snap.profiles, [DemoStore.ana])
        XCTAssertEqual(StoreValidation.findings(snap).filter { $0.severity == .error }, [])
    }
}
