import Foundation
import XCTest

@testable import PushDeskCore

/// `preview --simulator` (docs/PAYLOADS.md): the iOS Simulator's push file, run as an operator
/// runs it over the demo store.
final class SimulatorFileTests: XCTestCase {
    var store: URL!

    override func setUpWithError() throws {
        store = try makeTempDir(self)
        try DemoStore.write(to: store)
    }

    func testTheFileIsThePayloadWithTheBundleFirstPrettyPrinted() throws {
        let r = try runPushDesk([
            "preview", "summer-sale", "--store", store.path, "--app", "neotrips-ios-dev", "--profile", "ana",
            "--simulator",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            """
            {
              "Simulator Target Bundle": "com.neotrips.app",
              "aps": {
                "alert": {
                  "title": "Summer is here",
                  "subtitle": "Trips from 199 EUR",
                  "body": "Hi Ana, 20% off until Sunday."
                },
                "badge": 3,
                "sound": "chime.caf",
                "thread-id": "trips",
                "category": "image",
                "mutable-content": 1,
                "interruption-level": "time-sensitive",
                "relevance-score": 0.8,
                "target-content-id": "offers"
              },
              "mediaUrl": "https://cdn.neotrips.example/summer.jpg",
              "VAR": "offers",
              "_mId": "5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10",
              "_dId": "56c4"
            }

            """)
        // The same members as the payload preview --json shows, after the bundle key.
        let json = try runPushDesk([
            "preview", "summer-sale", "--store", store.path, "--app", "neotrips-ios-dev", "--profile", "ana", "--json",
        ])
        let payload = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]).flatMap {
            ($0["targets"] as? [[String: Any]])?.first?["payload"] as? [String: Any]
        }
        var file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(file.removeValue(forKey: "Simulator Target Bundle") as? String, "com.neotrips.app")
        XCTAssertEqual(file as NSDictionary, payload as NSDictionary?)
    }

    func testASilentDeliveryIsTakenAndAndroidAndOtherTypesAreNot() throws {
        let silent = try runPushDesk([
            "preview", "catalog-refresh", "--store", store.path, "--app", "neotrips-ios", "--simulator",
        ])
        XCTAssertEqual(silent.status, 0, silent.stderr)
        XCTAssertTrue(
            silent.stdout.hasPrefix(
                "{\n  \"Simulator Target Bundle\": \"com.neotrips.app\",\n  \"aps\": {\n    \"content-available\": 1\n  }"
            ), silent.stdout)

        let android = try runPushDesk([
            "preview", "summer-sale", "--store", store.path, "--app", "neotrips-android", "--simulator",
        ])
        XCTAssertEqual(android.status, 1)
        XCTAssertEqual(android.stdout, "")
        XCTAssertTrue(android.stderr.contains("[simulator.platform]"), android.stderr)

        var widgets = DemoStore.catalogRefresh
        widgets.name = "widgets"
        widgets.ios = IOSOptions(type: PushType(rawValue: "widgets"))
        try Store(root: store).save(widgets)
        let w = try runPushDesk(["preview", "widgets", "--store", store.path, "--app", "neotrips-ios", "--simulator"])
        XCTAssertEqual(w.status, 1)
        XCTAssertEqual(w.stdout, "")
        XCTAssertTrue(w.stderr.contains("deliveries/widgets.xml:"), w.stderr)
        XCTAssertTrue(w.stderr.contains("the Simulator takes alert and silent pushes only, not widgets"), w.stderr)
        XCTAssertTrue(w.stderr.contains("[simulator.type]"), w.stderr)

        let noApp = try runPushDesk(["preview", "summer-sale", "--store", store.path, "--simulator"])
        XCTAssertEqual(noApp.status, 2)
        XCTAssertTrue(noApp.stderr.contains("--simulator goes with --app KEY"), noApp.stderr)
    }

    func testTheCoreRefusesWithThePinnedRules() {
        var d = DemoStore.summerSale
        XCTAssertEqual(refused(d, DemoStore.neotrips.apps[2]), "simulator.platform")
        for t in ["voip", "liveactivity", "widgets", "controls", "location", "pushtotalk"] {
            d.ios.type = PushType(rawValue: t)
            XCTAssertEqual(refused(d, DemoStore.neotrips.apps[0]), "simulator.type", t)
        }
    }

    private func refused(_ d: Delivery, _ app: MobileApp) -> String? {
        if case .refused(let f) = SimulatorFile.make(delivery: d, app: app, target: nil) { return f.rule }
        return nil
    }
}
