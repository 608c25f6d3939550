import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `<variants>` and `<localized>` in the delivery file: the exact text written, the model
/// read back, positioned errors, and the merge driver's paths for them.
final class DeliveryVariantsFileTests: XCTestCase {
    private func summer() -> Delivery {
        Delivery(
            name: "summer-sale", label: "Summer sale", service: "neotrips",
            content: DeliveryContent(
                title: "Summer is here", body: "Hi <%= recipient.firstName %>, 20% off until Sunday.",
                localized: LocalizedKeys(
                    titleKey: "SALE_TITLE", bodyKey: "SALE_BODY", titleArgs: ["Lisbon"],
                    bodyArgs: ["<%= recipient.firstName %>", "20%"])),
            variables: [VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer.jpg")],
            variants: [
                .summerGerman,
                .summerTraditionalChinese,
            ])
    }

    private let summerText = """
        <?xml version="1.0" encoding="UTF-8"?>
        <delivery format="1" name="summer-sale" label="Summer sale" service="neotrips">
          <content>
            <title>Summer is here</title>
            <body>Hi &lt;%= recipient.firstName %&gt;, 20% off until Sunday.</body>
            <localized titleKey="SALE_TITLE" bodyKey="SALE_BODY">
              <titleArg>Lisbon</titleArg>
              <bodyArg>&lt;%= recipient.firstName %&gt;</bodyArg>
              <bodyArg>20%</bodyArg>
            </localized>
          </content>
          <variants>
            <variant locale="de">
              <title>Der Sommer ist da</title>
              <body>Hallo &lt;%= recipient.firstName %&gt;, 20 % Rabatt bis Sonntag.</body>
            </variant>
            <variant locale="zh-Hant">
              <title>夏天來了</title>
              <body>週日前八折。</body>
              <variables>
                <value name="mediaUrl">https://cdn.neotrips.example/summer-zh.jpg</value>
              </variables>
            </variant>
          </variants>
          <variables>
            <value name="mediaUrl">https://cdn.neotrips.example/summer.jpg</value>
          </variables>
        </delivery>

        """

    private func decode(_ text: String) throws -> Delivery {
        try DeliveryXML.decode(Data(text.utf8), file: "deliveries/x.xml").0
    }

    private func assertError(_ xml: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(xml), file: file, line: line) { error in
            XCTAssertEqual("\(error)", expected, file: file, line: line)
        }
    }

    func testVariantsAndLocalizedAreWrittenInTheFilesOrderAndReadBack() throws {
        let text = try DeliveryXML.encode(summer())
        XCTAssertEqual(text, summerText)
        XCTAssertEqual(try decode(text), summer())
    }

    func testLocalizedAloneAndEmptyAreKept() throws {
        var d = Delivery(name: "k", service: "s")
        d.content.localized = LocalizedKeys()
        let empty = try DeliveryXML.encode(d)
        XCTAssertTrue(empty.contains("  <content>\n    <localized/>\n  </content>\n"), empty)
        XCTAssertEqual(try decode(empty), d)
        d.content.localized = LocalizedKeys(subtitleKey: "SUB", subtitleArgs: ["a", "b"])
        let text = try DeliveryXML.encode(d)
        XCTAssertTrue(
            text.contains(
                """
                  <content>
                    <localized subtitleKey="SUB">
                      <subtitleArg>a</subtitleArg>
                      <subtitleArg>b</subtitleArg>
                    </localized>
                  </content>
                """), text)
        XCTAssertEqual(try decode(text), d)
    }

    func testNoVariantsWritesNoVariantsElement() throws {
        let text = try DeliveryXML.encode(Delivery(name: "plain", service: "s", content: DeliveryContent(title: "T")))
        XCTAssertFalse(text.contains("variants"), text)
        XCTAssertFalse(text.contains("localized"), text)
    }

    func testLocalesAreWrittenCanonicallyAndABadOneIsKeptForTheRules() throws {
        let d = Delivery(
            name: "tags", service: "s",
            variants: [
                DeliveryVariant(locale: "pt_br", title: "Olá"),
                DeliveryVariant(locale: "ZH-hant-tw", title: "你好"),
                DeliveryVariant(locale: "not a tag", title: "?"),
            ])
        let text = try DeliveryXML.encode(d)
        XCTAssertTrue(text.contains(#"<variant locale="pt-BR">"#), text)
        XCTAssertTrue(text.contains(#"<variant locale="zh-Hant-TW">"#), text)
        XCTAssertTrue(text.contains(#"<variant locale="not a tag">"#), text)
        XCTAssertEqual(try decode(text).variants.map(\.locale), ["pt-BR", "zh-Hant-TW", "not a tag"])
    }

    func testUnknownElementsAndAttributesArePositionedErrors() {
        let head = #"<?xml version="1.0"?>"# + "\n" + #"<delivery format="1" name="x" service="s">"# + "\n"
        assertError(
            head + #"<variants><variant locale="de" lang="de"/></variants></delivery>"#,
            "deliveries/x.xml:3:32: error: unknown attribute `lang` on <variant>; expected one of: locale")
        assertError(
            head + "<variants><variant locale=\"de\">\n<ticker>x</ticker></variant></variants></delivery>",
            "deliveries/x.xml:4:1: error: unknown element <ticker> inside <variant>; expected one of: <title>, <subtitle>, <body>, <variables>"
        )
        assertError(
            head + "<variants>\n  <variant/></variants></delivery>",
            "deliveries/x.xml:4:3: error: <variant> needs the attribute `locale`")
        assertError(
            head + "<variants>\n  <language locale=\"de\"/></variants></delivery>",
            "deliveries/x.xml:4:3: error: unknown element <language> inside <variants>; expected one of: <variant>")
        assertError(
            head
                + "<variants><variant locale=\"de\"><title>a</title>\n <title>b</title></variant></variants></delivery>",
            "deliveries/x.xml:4:2: error: <title> appears twice inside <variant>; keep one")
        assertError(
            head
                + "<variants><variant locale=\"de\"><variables><value name=\"a\">1</value>\n<value name=\"a\">2</value></variables></variant></variants></delivery>",
            "deliveries/x.xml:4:8: error: a value for `a` is given twice; keep one")
        assertError(
            head + "<content><localized bodyKey=\"B\" key=\"K\"/></content></delivery>",
            "deliveries/x.xml:3:33: error: unknown attribute `key` on <localized>; expected one of: titleKey, subtitleKey, bodyKey"
        )
        assertError(
            head + "<content><localized>\n<arg>x</arg></localized></content></delivery>",
            "deliveries/x.xml:4:1: error: unknown element <arg> inside <localized>; expected one of: <titleArg>, <subtitleArg>, <bodyArg>"
        )
        assertError(
            head + "<content><localized><bodyArg a=\"1\">x</bodyArg></localized></content></delivery>",
            "deliveries/x.xml:3:30: error: unknown attribute `a` on <bodyArg>; expected one of: ")
        assertError(
            head + "<variants><variant locale=\"de\">\n<localized bodyKey=\"B\"/></variant></variants></delivery>",
            "deliveries/x.xml:4:1: error: unknown element <localized> inside <variant>; expected one of: <title>, <subtitle>, <body>, <variables>"
        )
    }

    func testFindingsPositionsReachIntoVariants() throws {
        let (_, map) = try DeliveryXML.decode(Data(summerText.utf8), file: "deliveries/summer-sale.xml")
        let de = try XCTUnwrap(map.position(of: "variant[de].title"))
        XCTAssertEqual(de.line, 14)
        let zhValue = try XCTUnwrap(map.position(of: "variant[zh-Hant].values.mediaUrl"))
        XCTAssertEqual(zhValue.line, 21)
        XCTAssertEqual(try XCTUnwrap(map.position(of: "content.localized.bodyKey")).line, 6)
    }

    func testVariantFieldPathsAreSpelledAndReadBack() {
        let p = DeliveryVariant(locale: "zh_hant").field.appending("values", "mediaUrl")
        XCTAssertEqual(p.description, "variant[zh-Hant].values.mediaUrl")
        XCTAssertEqual(FieldPath(parsing: "variant[zh-Hant].values.mediaUrl"), p)
        XCTAssertEqual(FieldPath(parsing: "apps[2].label"), FieldPath.app(2).appending("label"))
        XCTAssertEqual(
            LocalizedKeys.definitions.map(\.field.description),
            [
                "content.localized.titleKey", "content.localized.subtitleKey", "content.localized.bodyKey",
            ])
    }

    // MARK: merge

    private func merge(_ b: Delivery, _ o: Delivery, _ t: Delivery) throws -> RecordMerge.Result {
        try RecordMerge.merge(
            base: Data(try DeliveryXML.encode(b).utf8), ours: Data(try DeliveryXML.encode(o).utf8),
            theirs: Data(try DeliveryXML.encode(t).utf8), path: "deliveries/summer-sale.xml", kind: .delivery)
    }

    func testVariantsMergeAsAListByLocale() throws {
        let base = summer()
        var ours = base
        ours.variants[0].title = "Sommer!"
        var theirs = base
        theirs.variants.append(DeliveryVariant(locale: "pt-BR", title: "O verão chegou"))
        theirs.variants[1].variables[0].value = "https://cdn.neotrips.example/zh2.jpg"
        theirs.content.localized?.subtitleKey = "SALE_SUB"
        var expected = ours
        expected.variants.append(theirs.variants[2])
        expected.variants[1].variables = theirs.variants[1].variables
        expected.content.localized?.subtitleKey = "SALE_SUB"
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, try DeliveryXML.encode(expected))
    }

    func testConflictsInsideVariantsAndLocalizedNameTheirFields() throws {
        let base = summer()
        var ours = base
        ours.variants[0].title = "Sommer A"
        ours.variants[1].variables[0].value = "https://a.example/zh.jpg"
        ours.content.localized?.bodyKey = "BODY_A"
        ours.content.localized?.bodyArgs = ["x"]
        var theirs = base
        theirs.variants[0].title = "Sommer B"
        theirs.variants[1].variables[0].value = "https://b.example/zh.jpg"
        theirs.content.localized?.bodyKey = "BODY_B"
        theirs.content.localized?.bodyArgs = ["y", "z"]
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(
            r.conflicts.map { $0.reportLine(path: "deliveries/summer-sale.xml") },
            [
                #"deliveries/summer-sale.xml:content.localized.bodyKey: ours "BODY_A", theirs "BODY_B""#,
                #"deliveries/summer-sale.xml:content.localized.bodyArg: ours "<bodyArg>x</bodyArg>", theirs "<bodyArg>y</bodyArg><bodyArg>z</bodyArg>""#,
                #"deliveries/summer-sale.xml:variant[de].title: ours "Sommer A", theirs "Sommer B""#,
                #"deliveries/summer-sale.xml:variant[zh-Hant].values.mediaUrl: ours "https://a.example/zh.jpg", theirs "https://b.example/zh.jpg""#,
            ])
        XCTAssertEqual(r.text, try DeliveryXML.encode(ours))
    }

    func testAVariantRemovedOnOneSideAndChangedOnTheOtherIsAConflict() throws {
        let base = summer()
        var ours = base
        ours.variants.remove(at: 0)
        var theirs = base
        theirs.variants[0].body = "Neu"
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(
            r.conflicts.map { $0.reportLine(path: "d.xml") }, [#"d.xml:variant[de]: ours (removed), theirs (changed)"#])
        XCTAssertEqual(r.text, try DeliveryXML.encode(ours))
    }
}
