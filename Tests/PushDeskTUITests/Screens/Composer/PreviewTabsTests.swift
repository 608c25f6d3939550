import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The preview's target tabs name each app by its label and API, shortened with …, never
/// clipped without it.
final class PreviewTabsTests: WholeScreenTestCase {
    /// The demo service with generated (UUID) integration keys, and `labels` when given.
    func useUUIDKeys(labels: [String]? = nil) throws {
        var s = try store.load(Service.self, "neotrips")
        let keys = [
            "02c9624d-1b7e-4f0a-9d3c-5a8e2f1b6c47", "8f3b1a2c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
            "c4d5e6f7-0819-4a2b-9c3d-4e5f60718293",
        ]
        for i in s.apps.indices {
            s.apps[i].integrationKey = keys[i]
            if let labels { s.apps[i].label = labels[i] }
        }
        try store.save(s)
    }

    func composer() -> ConsoleApp {
        let a = console()
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)
        return a
    }

    func testTabsWithUUIDKeysShowLabelAndAPI() throws {
        try useUUIDKeys()
        assertScreen(composer(), "views/composer")
    }

    func testLongLabelsAreShortenedSoThatEveryTabFits() throws {
        try useUUIDKeys(labels: [
            "Neotrips for iPhone and iPad (sandbox)", "Neotrips for iPhone and iPad", "Neotrips for Android phones",
        ])
        let tabs = lines(composer())[12]
        XCTAssertEqual(
            tabs, "│ Neotrips…sandbox) APNs   Neotrips…and iPad APNs   Neotrips…id phones FCM v1  │",
            "every tab keeps its API; names shortened with …")
    }
}
