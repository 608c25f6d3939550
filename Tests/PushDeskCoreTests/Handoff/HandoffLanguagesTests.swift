import Foundation
import XCTest

@testable import PushDeskCore

/// `pushdesk handoff` on a store whose deliveries have variants and localization keys
/// (docs/HANDOFF.md, "Languages and localization keys"): the languages they are written
/// in, each key with its argument count, and the lines for `Localizable.strings` and
/// `strings.xml`, exactly; nothing of the part when no delivery has either.
final class HandoffLanguagesTests: XCTestCase {
    /// The demo store with summer-sale in German and Traditional Chinese with title,
    /// subtitle and body keys, and flash-sale (a copy) in Brazilian Portuguese and German
    /// whose body key takes one argument where summer-sale's takes two.
    func storeWithLanguages() throws -> URL {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        let store = Store(root: root)
        var summer = try store.load(Delivery.self, "summer-sale")
        summer.variants = [
            DeliveryVariant(locale: "de", title: "Der Sommer ist da", body: "20 % Rabatt"),
            DeliveryVariant(locale: "zh-hant", title: "夏天來了", body: "週日前八折。"),
        ]
        summer.content.localized = LocalizedKeys(
            titleKey: "SALE_TITLE", subtitleKey: "SALE_SUB", bodyKey: "SALE_BODY", titleArgs: ["Lisbon"],
            bodyArgs: ["<%= recipient.firstName %>", "20%"])
        try store.save(summer)
        var flash = summer
        flash.name = "flash-sale"
        flash.variants = [
            DeliveryVariant(locale: "pt_BR", title: "Promoção relâmpago"),
            DeliveryVariant(locale: "de", title: "Blitzangebot"),
        ]
        flash.content.localized = LocalizedKeys(titleKey: "FLASH_TITLE", bodyKey: "SALE_BODY", bodyArgs: ["30%"])
        try store.save(flash)
        return root
    }

    static let part = """

        ## Languages and localization keys

        \(HandoffLocalization.intro)

        ### Languages

        | Language | Deliveries |
        |---|---|
        | `pt-BR` | `flash-sale` |
        | `de` | `flash-sale`, `summer-sale` |
        | `zh-Hant` | `summer-sale` |

        ### Localization keys

        | Key | Text | Arguments | Deliveries |
        |---|---|---|---|
        | `FLASH_TITLE` | title | 0 | `flash-sale` |
        | `SALE_BODY` | body | 1, 2 | `flash-sale`, `summer-sale` |
        | `SALE_SUB` | subtitle | 0 | `summer-sale` |
        | `SALE_TITLE` | title | 1 | `summer-sale` |

        ### iOS strings: `Localizable.strings`

        ```
        /* title, 0 arguments: flash-sale */
        "FLASH_TITLE" = "";
        /* body, 1 or 2 arguments (give every delivery the same): flash-sale, summer-sale */
        "SALE_BODY" = "%@";
        /* subtitle, 0 arguments: summer-sale */
        "SALE_SUB" = "";
        /* title, 1 argument: summer-sale */
        "SALE_TITLE" = "%@";
        ```

        ### Android strings: `res/values/strings.xml`

        ```xml
        <resources>
            <!-- title, 0 arguments: flash-sale -->
            <string name="FLASH_TITLE"></string>
            <!-- body, 1 or 2 arguments (give every delivery the same): flash-sale, summer-sale -->
            <string name="SALE_BODY">%1$s</string>
            <!-- title, 1 argument: summer-sale -->
            <string name="SALE_TITLE">%1$s</string>
        </resources>
        ```

        """

    func testTheSheetListsTheLanguagesAndKeysWithTheirStringsLines() throws {
        let root = try storeWithLanguages()
        let plain = try runPushDesk(["handoff", "neotrips", "--store", try demoCopy().path])
        let md = try runPushDesk(["handoff", "neotrips", "--store", root.path])
        XCTAssertEqual(md.status, 0, md.stderr)
        XCTAssertEqual(md.stderr, "")
        // The apps' sections as before, then the part (there is no --listen part).
        XCTAssertEqual(md.stdout, plain.stdout + Self.part)

        // JSON: the same, as data.
        let json = try runPushDesk(["handoff", "neotrips", "--store", root.path, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let localization = try XCTUnwrap(doc["localization"] as? [String: Any])
        XCTAssertEqual(
            (localization["languages"] as? [[String: Any]])?.map { $0["locale"] as? String },
            ["pt-BR", "de", "zh-Hant"])
        let keys = try XCTUnwrap(localization["keys"] as? [[String: Any]])
        XCTAssertEqual(keys.map { $0["key"] as? String }, ["FLASH_TITLE", "SALE_BODY", "SALE_SUB", "SALE_TITLE"])
        XCTAssertEqual(keys[1]["arguments"] as? [Int], [1, 2])
        XCTAssertEqual(keys[1]["text"] as? String, "body")
        XCTAssertEqual(
            (localization["snippets"] as? [[String: Any]])?.map { $0["fileName"] as? String },
            ["Localizable.strings", "res/values/strings.xml"])
    }

    /// An Android app's sheet has no `Localizable.strings`, and subtitle keys (FCM has
    /// none) are not in its `strings.xml`.
    func testAnAndroidAppsSheetHasOnlyStringsXML() throws {
        let root = try storeWithLanguages()
        let r = try runPushDesk(["handoff", "neotrips", "--app", "neotrips-android", "--store", root.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let part = try XCTUnwrap(r.stdout.range(of: "\n## Languages and localization keys\n"))
        let tail = String(r.stdout[part.lowerBound...])
        let ios = try XCTUnwrap(Self.part.range(of: "### iOS strings"))
        let android = try XCTUnwrap(Self.part.range(of: "### Android strings"))
        XCTAssertEqual(tail, String(Self.part[..<ios.lowerBound] + Self.part[android.lowerBound...]))
    }

    /// Keys are untrusted text: in `Localizable.strings` a quote, a backslash and a bidi
    /// override are escapes the property list reader decodes; in `strings.xml` entities.
    func testHostileKeysAreEscapedForEachFile() throws {
        var d = DemoStore.summerSale
        d.content.localized = LocalizedKeys(bodyKey: "A\"B\\C\u{202E}<&>", bodyArgs: ["x", "y", "z"])
        let service = DemoStore.neotrips
        let l = try XCTUnwrap(
            HandoffLocalization(service: service.name, platforms: [.ios, .android], deliveries: [d]))
        XCTAssertEqual(
            l.localizableStrings,
            "/* body, 3 arguments: summer-sale */\n\"A\\\"B\\\\C\\U202E<&>\" = \"%1$@ %2$@ %3$@\";")
        XCTAssertEqual(
            l.stringsXML,
            """
            <resources>
                <!-- body, 3 arguments: summer-sale -->
                <string name="A&quot;B\\C&#x202E;&lt;&amp;&gt;">%1$s %2$s %3$s</string>
            </resources>
            """)
        // Every rendering of a sheet with that part: the override never raw.
        var sheet = try HandoffSheet(service: service)
        sheet.localization = l
        for format in HandoffFormat.allCases {
            XCTAssertFalse(sheet.rendered(as: format).unicodeScalars.contains("\u{202E}"), "\(format)")
        }
        XCTAssertNil(
            HandoffLocalization(service: service.name, platforms: [.ios], deliveries: [DemoStore.summerSale]),
            "no variant and no key: no part")
    }

    func demoCopy() throws -> URL {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        return root
    }
}
