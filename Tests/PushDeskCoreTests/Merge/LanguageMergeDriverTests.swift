import Foundation
import XCTest

@testable import PushDeskCore

/// The real `pushdesk merge-driver BASE OURS THEIRS PATH` on deliveries in several languages
/// and on profiles with languages (docs/TEAMS.md): variants merge as a list keyed by
/// `locale`, a variant's values by name, `<localized>`'s attributes as fields and each kind
/// of argument as one field; a subscription's `locale` and the recipient's are fields. Each
/// case checks the exit status, standard error line for line and OURS byte for byte.
final class LanguageMergeDriverTests: XCTestCase {
    let deliveryPath = "deliveries/summer-sale.xml"
    let profilePath = "profiles/ana.xml"

    struct Merged {
        var status: Int32
        var stderr: String
        var ours: String
    }

    /// Writes the three versions, runs the built binary as git does, reads OURS back.
    func driver(_ base: String, _ ours: String, _ theirs: String, path: String) throws -> Merged {
        let dir = try makeTempDir(self, "merge")
        let urls = ["base", "ours", "theirs"].map { dir.appendingPathComponent($0) }
        for (url, text) in zip(urls, [base, ours, theirs]) { try Data(text.utf8).write(to: url) }
        let r = try runPushDesk(["merge-driver"] + urls.map(\.path) + [path])
        XCTAssertEqual(r.stdout, "")
        return Merged(status: r.status, stderr: r.stderr, ours: try String(contentsOf: urls[1], encoding: .utf8))
    }

    func merge(_ b: Delivery, _ o: Delivery, _ t: Delivery) throws -> Merged {
        try driver(DeliveryXML.encode(b), DeliveryXML.encode(o), DeliveryXML.encode(t), path: deliveryPath)
    }

    func merge(_ b: Profile, _ o: Profile, _ t: Profile) throws -> Merged {
        try driver(ProfileXML.encode(b), ProfileXML.encode(o), ProfileXML.encode(t), path: profilePath)
    }

    static let de = DeliveryVariant(
        locale: "de", title: "Der Sommer ist da", body: "20 % Rabatt bis Sonntag.",
        variables: [VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer-de.jpg")])
    static let zh = DeliveryVariant(locale: "zh-Hant", title: "夏天來了", body: "週日前八折。")

    /// summer-sale with the German and Chinese variants and localization keys.
    var multilingual: Delivery {
        var d = DemoStore.summerSale
        d.variants = [Self.de, Self.zh]
        d.content.localized = LocalizedKeys(
            titleKey: "SALE_TITLE", bodyKey: "SALE_BODY", titleArgs: ["Lisbon"],
            bodyArgs: ["<%= recipient.firstName %>"])
        return d
    }

    func testVariantsAddedOnBothSidesAreBothAdded() throws {
        let base = DemoStore.summerSale
        var ours = base
        ours.variants = [Self.de]
        var theirs = base
        theirs.variants = [Self.zh]
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        var expected = base
        expected.variants = [Self.de, Self.zh]
        XCTAssertEqual(r.ours, try DeliveryXML.encode(expected))
    }

    func testChangesInDifferentVariantsBothLand() throws {
        let base = multilingual
        var ours = base
        ours.variants[0].title = "Endlich Sommer"
        var theirs = base
        theirs.variants[1].body = "週日前七折。"
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        var expected = base
        expected.variants[0].title = "Endlich Sommer"
        expected.variants[1].body = "週日前七折。"
        XCTAssertEqual(r.ours, try DeliveryXML.encode(expected))
    }

    func testAConflictOnAVariantsTitleIsReportedByItsPathAndKeepsOurs() throws {
        let base = multilingual
        var ours = base
        ours.variants[0].title = "Endlich Sommer"
        var theirs = base
        theirs.variants[0].title = "Sommer, Sonne, Rabatt"
        theirs.content.title = "Summer is finally here"  // another field: it lands
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr,
            #"deliveries/summer-sale.xml:variant[de].title: ours "Endlich Sommer", theirs "Sommer, Sonne, Rabatt""#
                + "\n")
        var expected = ours
        expected.content.title = "Summer is finally here"
        XCTAssertEqual(r.ours, try DeliveryXML.encode(expected))
    }

    func testAVariantRemovedOnOneSideAndChangedOnTheOtherIsAConflictOnTheEntry() throws {
        let base = multilingual
        var ours = base
        ours.variants.removeFirst()  // de
        var theirs = base
        theirs.variants[0].body = "25 % Rabatt bis Sonntag."
        theirs.variants.append(DeliveryVariant(locale: "pt-BR", title: "O verão chegou"))  // still added
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "deliveries/summer-sale.xml:variant[de]: ours (removed), theirs (changed)\n")
        var expected = ours
        expected.variants.append(DeliveryVariant(locale: "pt-BR", title: "O verão chegou"))
        XCTAssertEqual(r.ours, try DeliveryXML.encode(expected))
    }

    func testAVariantsValuesMergeByName() throws {
        let base = multilingual
        var ours = base
        ours.variants[0].variables[0].value = "https://cdn.neotrips.example/summer-de-2.jpg"
        var theirs = base
        theirs.variants[0].variables[0].value = "https://cdn.neotrips.example/sommer.jpg"
        theirs.variants[1].variables = [VariableValue(name: "VAR", value: "angebote")]  // added in zh-Hant
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr,
            #"deliveries/summer-sale.xml:variant[de].values.mediaUrl: ours "https://cdn.neotrips.example/summer-de-2.jpg", theirs "https://cdn.neotrips.example/sommer.jpg""#
                + "\n")
        var expected = ours
        expected.variants[1].variables = [VariableValue(name: "VAR", value: "angebote")]
        XCTAssertEqual(r.ours, try DeliveryXML.encode(expected))
    }

    func testLocalizedKeysAreFieldsAndEachKindOfArgumentIsOneField() throws {
        let base = multilingual
        // Different fields: a key on one side, the body's arguments on the other.
        var ours = base
        ours.content.localized?.bodyKey = "SALE_BODY_2"
        var theirs = base
        theirs.content.localized?.bodyArgs = ["<%= recipient.firstName %>", "20%"]
        var r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 0, r.stderr)
        var expected = base
        expected.content.localized?.bodyKey = "SALE_BODY_2"
        expected.content.localized?.bodyArgs = ["<%= recipient.firstName %>", "20%"]
        XCTAssertEqual(r.ours, try DeliveryXML.encode(expected))

        // The same key changed differently, and the arguments as one sequence: two conflicts.
        ours = base
        ours.content.localized?.bodyKey = "SALE_BODY_A"
        ours.content.localized?.bodyArgs = ["A"]
        theirs = base
        theirs.content.localized?.bodyKey = "SALE_BODY_B"
        theirs.content.localized?.bodyArgs = ["<%= recipient.firstName %>", "B"]
        r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr.split(separator: "\n").map(String.init),
            [
                #"deliveries/summer-sale.xml:content.localized.bodyKey: ours "SALE_BODY_A", theirs "SALE_BODY_B""#,
                // A whole field shows its elements as written, as `<auth>` does.
                #"deliveries/summer-sale.xml:content.localized.bodyArg: ours "<bodyArg>A</bodyArg>", theirs "<bodyArg>&lt;%= recipient.firstName %&gt;</bodyArg><bodyArg>B</bodyArg>""#,
            ])
        XCTAssertEqual(r.ours, try DeliveryXML.encode(ours))
    }

    func testASubscriptionsLocaleAndTheRecipientsAreFields() throws {
        let base = DemoStore.ana
        var ours = base
        ours.subscriptions[0].locale = "de-DE"
        ours.fields.append(("locale", "pt-BR"))
        var theirs = base
        theirs.subscriptions[1].locale = "zh-Hant-TW"
        theirs.subscriptions[0].label = "Ana's iPhone 16"
        var r = try merge(base, ours, theirs)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        var expected = ours
        expected.subscriptions[1].locale = "zh-Hant-TW"
        expected.subscriptions[0].label = "Ana's iPhone 16"
        XCTAssertEqual(r.ours, try ProfileXML.encode(expected))

        // Both sides give the same device, and the recipient, another language.
        var base2 = base
        base2.fields.append(("locale", "pt-PT"))
        ours = base2
        ours.subscriptions[0].locale = "de-DE"
        ours.fields[ours.fields.count - 1].value = "pt-BR"
        theirs = base2
        theirs.subscriptions[0].locale = "de-AT"
        theirs.fields[theirs.fields.count - 1].value = "es-419"
        r = try merge(base2, ours, theirs)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr.split(separator: "\n").map(String.init),
            [
                #"profiles/ana.xml:locale: ours "pt-BR", theirs "es-419""#,
                #"profiles/ana.xml:subscriptions[0].locale: ours "de-DE", theirs "de-AT""#,
            ])
        XCTAssertEqual(r.ours, try ProfileXML.encode(ours))
    }
}
