import Foundation
import XCTest

@testable import PushDeskCore

final class CampaignPackageTests: XCTestCase {
    /// ours → package → ours is identical, and re-exporting gives the same bytes.
    func testRoundTripIsIdentical() throws {
        for service in [try HandoffFixtures.neotrips(), Self.unusual] {
            let text = try CampaignPackage.encode([service], includeCredentialRefs: true)
            let back = try CampaignPackage.decode(Data(text.utf8), file: "p.xml")
            XCTAssertEqual(back.services, [service])
            XCTAssertEqual(back.notes, [])
            XCTAssertEqual(try CampaignPackage.encode(back.services, includeCredentialRefs: true), text)
        }
        // Several services in one package keep their order and their own apps.
        let two = [try HandoffFixtures.neotrips(), Self.unusual]
        let back = try CampaignPackage.decode(
            Data(try CampaignPackage.encode(two, includeCredentialRefs: true).utf8), file: "p.xml")
        XCTAssertEqual(back.services, two)
    }

    /// The default export carries no credential material at all; everything else survives.
    func testDefaultExportLeavesCredentialsOut() throws {
        let service = try HandoffFixtures.neotrips()
        let text = try CampaignPackage.encode([service])
        for secret in HandoffFixtures.neotripsCredentialValues {
            XCTAssertFalse(text.contains(secret), "package shows \(secret)")
        }
        XCTAssertFalse(text.contains("auth"))
        var expected = service
        expected.apps = expected.apps.map { app in
            switch app {
            case .ios(var a):
                a.auth = nil
                return .ios(a)
            case .android(var a):
                a.auth = nil
                return .android(a)
            }
        }
        XCTAssertEqual(try CampaignPackage.decode(Data(text.utf8), file: "p.xml").services, [expected])
    }

    /// The demo's package, as docs/HANDOFF.md shows it.
    func testGoldenPackageOfTheDemo() throws {
        let text = try CampaignPackage.encode([try HandoffFixtures.neotrips()])
        let golden = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/campaign/neotrips-package.xml")
        if ProcessInfo.processInfo.environment["PUSHDESK_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/campaign/neotrips-package.xml")
            try text.write(to: source, atomically: true, encoding: .utf8)
            return
        }
        XCTAssertEqual(text, try String(contentsOf: golden, encoding: .utf8))
    }

    /// A package exported by Campaign holds much more than PushDesk models: it is skipped with
    /// a positioned note, never silently; what PushDesk does model is read.
    func testForeignCampaignDataIsSkippedWithNotes() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package buildNumber="*">
              <entities schema="nms:recipient">
                <recipient email="a@example.com"/>
              </entities>
              <entities schema="nms:service">
                <service name="news" label="Newsletter" type="0"/>
                <service name="app" label="App" type="40" internalName="app" _operation="insertOrUpdate">
                  <folder _operation="none" name="nmsRootFolder"/>
                </service>
              </entities>
              <entities schema="nms:mobileApp">
                <mobileApp uuid="app-android" label="App" pushPlatform="1" sdkVersion="2">
                  <service _operation="none" name="app"/>
                </mobileApp>
              </entities>
            </package>
            """
        let contents = try CampaignPackage.decode(Data(xml.utf8), file: "in.xml")
        XCTAssertEqual(
            contents.services,
            [
                Service(
                    name: "app", label: "App",
                    apps: [
                        .android(AndroidApp(label: "App", integrationKey: "app-android", packageName: ""))
                    ])
            ])
        let notes = contents.notes.map(\.formatted)
        XCTAssertEqual(notes.count, 6, notes.joined(separator: "\n"))
        XCTAssertTrue(
            notes.contains { $0.hasPrefix("in.xml:2:10: warning:") && $0.contains("buildNumber") },
            notes.joined(separator: "\n"))
        XCTAssertTrue(notes.contains { $0.hasPrefix("in.xml:3:3:") && $0.contains("nms:recipient") })
        XCTAssertTrue(notes.contains { $0.contains("news has type 0") })
        XCTAssertTrue(notes.contains { $0.hasPrefix("in.xml:8:") && $0.contains("internalName, _operation") })
        XCTAssertTrue(notes.contains { $0.hasPrefix("in.xml:9:7:") && $0.contains("<folder>") })
        XCTAssertTrue(notes.contains { $0.contains("sdkVersion") })
    }

    func testErrorsArePositionedAndNeverEchoSecrets() throws {
        func error(_ body: String) -> String {
            let xml =
                "<package xmlns:pushdesk=\"urn:pushdesk\">\n<entities schema=\"nms:service\"><service name=\"s\" type=\"40\"/></entities>\n"
                + "<entities schema=\"nms:mobileApp\">\n" + body + "\n</entities>\n</package>\n"
            do {
                _ = try CampaignPackage.decode(Data(xml.utf8), file: "in.xml")
                return "no error"
            } catch { return String(describing: error) }
        }
        let link = "<service _operation=\"none\" name=\"s\"/>"
        XCTAssertEqual(
            error("<mobileApp uuid=\"k\" pushPlatform=\"1\" pushdesk:packageNam=\"x\">\(link)</mobileApp>"),
            "in.xml:4:38: error: unknown attribute `pushdesk:packageNam` on <mobileApp>; expected one of: pushdesk:packageName, pushdesk:api, pushdesk:connector, pushdesk:maxConnectPerChild, pushdesk:icon"
        )
        let secret = error(
            "<mobileApp uuid=\"k\" pushPlatform=\"0\" pushdesk:environment=\"sandbox\">\(link)<pushdesk:auth mode=\"certificate\" password=\"hunter2\"/></mobileApp>"
        )
        XCTAssertTrue(secret.hasPrefix("in.xml:4:"), secret)
        XCTAssertTrue(secret.contains("`password` is not allowed"), secret)
        XCTAssertFalse(secret.contains("hunter2"))
        XCTAssertTrue(
            error("<mobileApp uuid=\"k\" pushPlatform=\"0\">\(link)</mobileApp>").contains("needs pushdesk:environment")
        )
        XCTAssertTrue(
            error("<mobileApp uuid=\"k\" pushPlatform=\"7\">\(link)</mobileApp>").contains(
                "expected 0 (iOS) or 1 (Android)"))
        XCTAssertTrue(error("<mobileApp uuid=\"k\" pushPlatform=\"1\"/>").contains("has no <service name="))
        XCTAssertTrue(
            error("<mobileApp uuid=\"k\" pushPlatform=\"1\"><service name=\"other\"/></mobileApp>")
                .contains("links to service \"other\""))
        XCTAssertTrue(
            error(
                "<mobileApp uuid=\"k\" pushPlatform=\"1\">\(link)<notificationSounds><pushdesk:sound name=\"a\"/></notificationSounds></mobileApp>"
            )
            .contains("sounds belong to iOS apps only"))
        let otherURI = try? CampaignPackage.decode(Data("<package xmlns:pushdesk=\"urn:other\"/>".utf8), file: "in.xml")
        XCTAssertNil(otherURI, "the pushdesk prefix bound to another namespace is not ours")
        let badName = try? CampaignPackage.decode(
            Data(
                "<package><entities schema=\"nms:service\"><service name=\"../x\" type=\"40\"/></entities></package>"
                    .utf8), file: "in.xml")
        XCTAssertNil(badName)
    }

    /// The package's own attributes are read by the field tables (in the `pushdesk:`
    /// namespace): their values are checked as in a store's file, named as in the package.
    func testPackageAttributesAreReadByTheFieldTables() throws {
        func read(_ body: String, service: String = "") -> String {
            let xml =
                "<package xmlns:pushdesk=\"urn:pushdesk\">\n<entities schema=\"nms:service\"><service name=\"s\" type=\"40\"\(service)/></entities>\n"
                + "<entities schema=\"nms:mobileApp\">\n" + body + "\n</entities>\n</package>\n"
            do {
                let p = try CampaignPackage.decode(Data(xml.utf8), file: "in.xml")
                return p.services.map { "\($0)" }.joined()
            } catch { return String(describing: error) }
        }
        let link = "<service _operation=\"none\" name=\"s\"/>"
        XCTAssertEqual(
            read("<mobileApp uuid=\"k\" pushPlatform=\"1\" pushdesk:connector=\"v9\">\(link)</mobileApp>"),
            "in.xml:4:38: error: `pushdesk:connector` on <mobileApp> is \"v9\"; expected v1|v2")
        XCTAssertEqual(
            read("<mobileApp uuid=\"k\" pushPlatform=\"1\" pushdesk:maxConnectPerChild=\"0\">\(link)</mobileApp>"),
            "in.xml:4:38: error: `pushdesk:maxConnectPerChild` on <mobileApp> is \"0\"; expected a whole number ≥ 1")
        XCTAssertEqual(
            read(
                "<mobileApp uuid=\"k\" pushPlatform=\"0\" pushdesk:environment=\"sandbox\">\(link)<pushdesk:auth mode=\"jwt\"/></mobileApp>"
            ),
            "in.xml:4:121: error: auth mode \"jwt\" is not an iOS mode; expected token|certificate")
        let p = try CampaignPackage.decode(
            Data(
                ("<package xmlns:pushdesk=\"urn:pushdesk\"><entities schema=\"nms:service\">"
                    + "<service name=\"s\" type=\"40\" pushdesk:trackingUrl=\"https://t.example/\"/></entities>"
                    + "<entities schema=\"nms:mobileApp\"><mobileApp uuid=\"k\" label=\"K\" pushPlatform=\"1\" "
                    + "pushdesk:packageName=\"com.x\" pushdesk:maxConnectPerChild=\"3\">\(link)"
                    + "<pushdesk:auth mode=\"serverKey\" serverKeyRef=\"fcm\"/></mobileApp></entities></package>").utf8),
            file: "in.xml")
        let s = try XCTUnwrap(p.services.first)
        XCTAssertEqual(s.trackingUrl, "https://t.example/")
        XCTAssertEqual(s.targetMapping, Service.defaultTargetMapping, "absent: the table's default")
        XCTAssertEqual(
            s.apps,
            [
                .android(
                    AndroidApp(
                        label: "K", integrationKey: "k", packageName: "com.x", maxConnectPerChild: 3,
                        auth: .serverKey(serverKeyRef: "fcm")))
            ])
    }

    /// Values that stress escaping, every enum value that differs from the demo, no auth,
    /// empty lists, Android before iOS.
    static let unusual = Service(
        name: "odd.one", label: "Ünïcode & <tags> \"quoted\"\nsecond line\ttab", targetMapping: "cus:mapping",
        marketingUrl: "", trackingUrl: "https://t.example/?a=1&b=2",
        apps: [
            .android(
                AndroidApp(
                    label: "東京", integrationKey: "k-android", packageName: "jp.example",
                    api: .legacy, connector: .v1, auth: .serverKey(serverKeyRef: "fcm-key"),
                    variables: [AppVariable(name: "v", label: "")])),
            .ios(
                IOSApp(
                    environment: .production, label: "", integrationKey: "k-ios", bundleId: "jp.example",
                    connector: .binary, icon: "/abs/icon.png",
                    subscriptionParams: [SubscriptionParam(name: "p", label: "", field: "@p")],
                    sounds: [Sound(name: "default.caf")])),
            .ios(
                IOSApp(
                    environment: .sandbox, label: "x", integrationKey: "k-ios-dev", bundleId: "jp.example",
                    auth: .certificate(certificateFile: "c.p12", passwordRef: ""))),
        ])
}
