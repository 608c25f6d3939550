import Foundation
import XCTest

@testable import PushDeskCore

/// `preview --simulator --locale TAG` (docs/PAYLOADS.md): the Simulator's file is made from
/// the variant the tag looks up, as `send` would send a device of that language; a tag that
/// looks up none gets the default's file and `variant.fallback` on standard error.
final class SimulatorLocaleTests: XCTestCase {
    var store: URL!

    /// The demo store with summer-sale in German: its own title and body (no subtitle: a
    /// variant's texts replace the default's as a set) and its own image.
    override func setUpWithError() throws {
        store = try makeTempDir(self)
        try DemoStore.write(to: store)
        var d = DemoStore.summerSale
        d.variants = [
            DeliveryVariant(
                locale: "de", title: "Der Sommer ist da",
                body: "Hallo <%= recipient.firstName %>, 20 % Rabatt bis Sonntag.",
                variables: [VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer-de.jpg")])
        ]
        try Store(root: store).save(d)
    }

    func simulator(_ locale: String) throws -> CommandResult {
        try runPushDesk([
            "preview", "summer-sale", "--store", store.path, "--app", "neotrips-ios-dev", "--profile", "ana",
            "--simulator", "--locale", locale,
        ])
    }

    func testTheFileIsTheVariantTheTagLooksUp() throws {
        let r = try simulator("de_AT")  // de-AT, then de
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(
            r.stdout,
            """
            {
              "Simulator Target Bundle": "com.neotrips.app",
              "aps": {
                "alert": {
                  "title": "Der Sommer ist da",
                  "body": "Hallo Ana, 20 % Rabatt bis Sonntag."
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
              "mediaUrl": "https://cdn.neotrips.example/summer-de.jpg",
              "VAR": "offers",
              "_mId": "5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10",
              "_dId": "56c4"
            }

            """)
        // The same members as `preview --locale de --json` shows for that target.
        let json = try runPushDesk([
            "preview", "summer-sale", "--store", store.path, "--app", "neotrips-ios-dev", "--profile", "ana",
            "--locale", "de", "--json",
        ])
        let target = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]).flatMap {
            ($0["targets"] as? [[String: Any]])?.first
        }
        XCTAssertEqual(target?["locale"] as? String, "de")
        var file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(file.removeValue(forKey: "Simulator Target Bundle") as? String, "com.neotrips.app")
        XCTAssertEqual(file as NSDictionary, target?["payload"] as? NSDictionary)
    }

    func testATagWithNoVariantGetsTheDefaultsFileAndSaysSo() throws {
        let r = try simulator("pt-BR")
        let plain = try runPushDesk([
            "preview", "summer-sale", "--store", store.path, "--app", "neotrips-ios-dev", "--profile", "ana",
            "--simulator",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(r.stdout, plain.stdout)
        XCTAssertTrue(r.stdout.contains(#""title": "Summer is here","#), r.stdout)
        XCTAssertEqual(
            r.stderr,
            "deliveries/summer-sale.xml:8:3: info: variants: no variant for pt-BR (tried pt-BR, pt; the delivery has de), so it gets the default; add a variant pt-BR or pt if its devices should get their language [variant.fallback]\n"
        )
    }

    func testAllIsRefusedWithTheSimulator() throws {
        let r = try simulator("all")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(
            r.stderr.contains(
                "--simulator makes one file: give --locale one language tag (the variant that device gets), not all"),
            r.stderr)
    }
}
