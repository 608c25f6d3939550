import Foundation
import XCTest

@testable import PushDeskCore

/// The `fid` kind's rules (docs/SENDING.md, docs/FORMATS.md): its form, its platform, and one installation
/// registered both ways; reported by `validate` like every subscription rule.
final class FIDRuleTests: XCTestCase {
    let fid = "dAbCdEfGhIjKlMnOpQrStU"

    private func findings(_ subs: [Subscription]) -> [Finding] {
        var p = DemoStore.ana
        p.subscriptions = subs
        return ProfileRules.check(profiles: [p], services: [DemoStore.neotrips])
    }

    func testTheFIDForm() {
        XCTAssertTrue(ProfileRules.isFID(fid))
        for bad in [String(fid.dropLast()), fid + "x", "a" + fid.dropFirst(), String(fid.dropLast()) + "=", ""] {
            XCTAssertFalse(ProfileRules.isFID(bad), bad)
        }
        let short = findings([Subscription(app: "neotrips-android", token: String(fid.dropLast()), kind: .fid)])
        XCTAssertEqual(short.map(\.rule), ["subscription.token-format"])
        XCTAssertEqual(short.first?.field, "subscriptions[0].token")
        XCTAssertTrue(short[0].message.contains("(21 characters) is not a Firebase installation ID"), short[0].message)
        XCTAssertEqual(findings([Subscription(app: "neotrips-android", token: fid, kind: .fid)]), [])
    }

    func testAnFIDOnAnIOSAppIsTheKindRule() {
        let f = findings([Subscription(app: "neotrips-ios-dev", token: fid, kind: .fid)])
        XCTAssertEqual(f.map(\.rule), ["subscription.kind"])
        XCTAssertEqual(f.first?.field, "subscriptions[0].kind")
        XCTAssertTrue(f[0].message.contains("belongs to an Android app"), f[0].message)
    }

    func testOneInstallationRegisteredBothWaysIsAWarningOnTheToken() {
        let subs = [
            Subscription(app: "neotrips-android", token: fid, label: "Pixel (FID)", kind: .fid),
            Subscription(app: "neotrips-android", token: "\(fid):APA91bHun4MxP5egoKMwt2KZFBaFUH", label: "Pixel"),
            Subscription(app: "neotrips-android", token: "eOther00000000000000000:APA91b", label: "Other"),
        ]
        let f = findings(subs)
        XCTAssertEqual(f.map(\.rule), ["subscription.fid-and-token"])
        XCTAssertEqual(f.first?.severity, .warning)
        XCTAssertEqual(f.first?.field, "subscriptions[1].token")
        XCTAssertTrue(f[0].message.contains("once a send to the FID succeeds, this token stops working"), f[0].message)
        // Another app's FID is another installation.
        var other = subs
        other[0].app = "neotrips-ios-dev"
        XCTAssertFalse(findings(other).contains { $0.rule == "subscription.fid-and-token" })
    }

    func testValidateReportsTheFIDRulesWithPositions() throws {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        var p = DemoStore.ana
        p.subscriptions = [
            Subscription(app: "neotrips-android", token: fid, kind: .fid),
            Subscription(app: "neotrips-android", token: fid + ":APA91b"),
        ]
        try Store(root: store).save(p)
        let xml = try String(contentsOf: store.appendingPathComponent("profiles/ana.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains(#"<subscription app="neotrips-android" token="\#(fid)" kind="fid"/>"#), xml)
        let r = try runPushDesk(["validate", "--store", store.path])
        XCTAssertEqual(r.status, 0, "a warning alone: \(r.stdout)\(r.stderr)")
        XCTAssertTrue(
            (r.stdout + r.stderr).contains("profiles/ana.xml:4:"), r.stdout + r.stderr)
        XCTAssertTrue((r.stdout + r.stderr).contains("[subscription.fid-and-token]"), r.stdout + r.stderr)
    }
}
