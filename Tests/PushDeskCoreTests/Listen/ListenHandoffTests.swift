import Foundation
import XCTest

@testable import PushDeskCore

/// `pushdesk handoff --listen HOST:PORT`: the sheet's "Test against PushDesk" part, with the
/// AEP keys and the legacy SDK's setters filled with the listener's address.
final class ListenHandoffTests: XCTestCase {
    func testTheSheetTellsTheDeveloperHowToPointATestBuildAtTheListener() throws {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        let md = try runPushDesk(["handoff", "neotrips", "--store", store.path, "--listen", "localhost:8443"])
        XCTAssertEqual(md.status, 0, md.stderr)
        let lines = md.stdout.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex(of: "## Test against PushDesk"))
        let section = Array(lines[start...])
        for row in [
            "| campaignclassic.marketingServer | `localhost:8443` |",
            "| campaignclassic.trackingServer | `localhost:8443` |",
            "| setMarketingHost (legacy SDK) | `https://localhost:8443/` |",
            "| setTrackingHost (legacy SDK) | `https://localhost:8443/` |",
        ] {
            XCTAssertTrue(section.contains(row), "\(row) in\n\(section.joined(separator: "\n"))")
        }
        XCTAssertTrue(
            section.contains { $0.hasPrefix("iOS Simulator: `xcrun simctl keychain booted add-root-cert ca.pem`") })
        XCTAssertTrue(section.contains { $0.contains("adb reverse tcp:PORT tcp:PORT") })
        XCTAssertTrue(section.contains("    <trust-anchors><certificates src=\"user\"/></trust-anchors>"))

        let json = try runPushDesk([
            "handoff", "neotrips", "--store", store.path, "--listen", "10.0.2.2:9443", "--format", "json",
        ])
        let doc = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let part = doc?["testAgainstPushDesk"] as? [String: Any]
        XCTAssertEqual(part?["address"] as? String, "10.0.2.2:9443")
        XCTAssertEqual(
            part?["settings"] as? [String: String],
            [
                "campaignclassic.marketingServer": "10.0.2.2:9443", "campaignclassic.trackingServer": "10.0.2.2:9443",
                "setMarketingHost (legacy SDK)": "https://10.0.2.2:9443/",
                "setTrackingHost (legacy SDK)": "https://10.0.2.2:9443/",
            ])
        let html = try runPushDesk([
            "handoff", "neotrips", "--store", store.path, "--listen", "localhost:8443", "--format", "html",
        ])
        XCTAssertTrue(
            html.stdout.contains(
                "<tr><th>campaignclassic.marketingServer</th><td><code>localhost:8443</code></td></tr>"))

        let plain = try runPushDesk(["handoff", "neotrips", "--store", store.path])
        XCTAssertFalse(plain.stdout.contains("Test against PushDesk"), "only with --listen")
        let bad = try runPushDesk(["handoff", "neotrips", "--store", store.path, "--listen", "https://x:1/"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("is not HOST:PORT"), bad.stderr)
    }
}
