import Foundation
import XCTest

@testable import PushDeskCore

/// A service's own fields are one table, like the apps' and the options': the service file's
/// attributes, the Campaign package's and recovery's cleaning all come from it.
final class ServiceFieldTableTests: XCTestCase {
    func testTheTableIsTheServiceElementsAttributeList() {
        // The order of docs/FORMATS.md after `format`.
        XCTAssertEqual(Service.definitions.names(), ["name", "label", "targetMapping", "marketingUrl", "trackingUrl"])
        XCTAssertEqual(ServiceXML.serviceAttributes, ["format"] + Service.definitions.names())
        XCTAssertEqual(Service.definitions.named("marketingUrl")?.field.description, "marketingUrl")
    }

    func testEachRowReadsAndWritesItsField() throws {
        var s = Service(name: "", label: "")
        for (i, d) in Service.definitions.enumerated() { d.set(&s, "value-\(i)") }
        XCTAssertEqual(
            [s.name, s.label, s.targetMapping, s.marketingUrl, s.trackingUrl], (0..<5).map { "value-\($0)" })
        XCTAssertEqual(Service.definitions.map { $0.text(s) }, (0..<5).map { "value-\($0)" })
        // Through the file: every row's attribute is written and read back.
        s.name = "svc"
        let text = try ServiceXML.encode(s)
        XCTAssertEqual(try ServiceXML.decode(Data(text.utf8), file: "services/svc.xml").0, s)
    }

    func testCampaignCarriesTheRowsItHasNoAttributeForInOurNamespace() throws {
        XCTAssertEqual(CampaignPackage.serviceFields.names(), ["targetMapping", "marketingUrl", "trackingUrl"])
        XCTAssertEqual(CampaignPackage.oursNames(IOSApp.definitions), ["environment", "bundleId", "connector", "icon"])
        XCTAssertEqual(
            CampaignPackage.oursNames(AndroidApp.definitions),
            ["packageName", "api", "connector", "maxConnectPerChild", "icon"])
        XCTAssertEqual(
            CampaignPackage.authAttributes("certificate", IOSAuth.modes), ["mode", "certificateFile", "passwordRef"])
        XCTAssertEqual(CampaignPackage.authAttributes("serverKey", AndroidAuth.modes), ["mode", "serverKeyRef"])
    }

    /// An auth's attributes by name are its mode's row in the table, for every mode of both
    /// platforms: a distinct value per attribute goes in by name and comes back by name, so
    /// an attribute out of the table's order shows.
    func testAuthValuesFollowTheModeTables() throws {
        for mode in IOSAuth.modes.map(\.mode) {
            let values = Dictionary(uniqueKeysWithValues: IOSAuth.modes.stored(mode).map { ($0, "v-" + $0) })
            let auth = try XCTUnwrap(IOSAuth(mode: mode, values: values))
            XCTAssertEqual(auth.mode, mode)
            XCTAssertEqual(auth.values, values)
        }
        for mode in AndroidAuth.modes.map(\.mode) {
            let values = Dictionary(uniqueKeysWithValues: AndroidAuth.modes.stored(mode).map { ($0, "v-" + $0) })
            let auth = try XCTUnwrap(AndroidAuth(mode: mode, values: values))
            XCTAssertEqual(auth.mode, mode)
            XCTAssertEqual(auth.values, values)
        }
        XCTAssertEqual(
            IOSAuth.token(keyId: "K", teamId: "T", keyFile: "f.p8").values,
            ["keyId": "K", "teamId": "T", "keyFile": "f.p8"])
        XCTAssertEqual(
            AndroidAuth(mode: "serviceAccount", values: ["clientEmail": "e", "keyFile": "k.json"]),
            .serviceAccount(projectId: "", clientEmail: "e", keyFile: "k.json"), "absent: empty")
        XCTAssertNil(IOSAuth(mode: "serverKey", values: [:]), "another platform's mode")
    }
}
