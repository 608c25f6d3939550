import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// A delivery's languages as a translators' CSV file and back (docs/FORMATS.md,
/// "Translators' files"): the exact bytes of both formats, lossless round trips, and every
/// bad file refused with its rule at `FILE:LINE:COLUMN` and no result.
final class VariantsCSVTests: XCTestCase {
    /// The default and three variants: German texts only, Chinese with its own image, and
    /// Brazilian with a subtitle, a formula-looking body and its own screen value.
    static let delivery: Delivery = {
        var d = Delivery(name: "summer-sale", label: "Summer sale", service: "neotrips")
        d.content = DeliveryContent(
            title: "Summer is here", subtitle: "Trips from 199 EUR",
            body: "Hi <%= recipient.firstName %>, 20% off until Sunday.")
        d.variables = [
            VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer.jpg"),
            VariableValue(name: "VAR", value: "offers"),
        ]
        d.ios = IOSOptions(sound: "chime.caf", badge: "3", category: "image", mutableContent: true)
        d.variants = [
            .summerGerman,
            .summerTraditionalChinese,
            DeliveryVariant(
                locale: "pt-BR", title: "O verão chegou", subtitle: "Viagens a partir de 199 EUR",
                body: "-20% até domingo, \"imperdível\"", variables: [VariableValue(name: "VAR", value: "ofertas")]),
        ]
        return d
    }()

    static let pushdeskCSV =
        "locale,title,subtitle,body,value:mediaUrl,value:VAR\r\n"
        + "default,Summer is here,Trips from 199 EUR,\"Hi <%= recipient.firstName %>, 20% off until Sunday.\",https://cdn.neotrips.example/summer.jpg,offers\r\n"
        + "de,Der Sommer ist da,,\"Hallo <%= recipient.firstName %>, 20 % Rabatt bis Sonntag.\",,\r\n"
        + "zh-Hant,夏天來了,,週日前八折。,https://cdn.neotrips.example/summer-zh.jpg,\r\n"
        + "pt-BR,O verão chegou,Viagens a partir de 199 EUR,\"'-20% até domingo, \"\"imperdível\"\"\",,ofertas\r\n"

    static let campaignCSV =
        "title,messageBody,sound,badge,deeplinkURI,category,iosMediaAttachmentURL,androidMediaAttachmentURL,isContentAvailable,isMutableContent,customFields,locale,language,silentPush\r\n"
        + "Summer is here,\"Hi <%= recipient.firstName %>, 20% off until Sunday.\",chime.caf,3,,image,,,0,1,\"{\"\"mediaUrl\"\":\"\"https://cdn.neotrips.example/summer.jpg\"\",\"\"VAR\"\":\"\"offers\"\"}\",default,,0\r\n"
        + "Der Sommer ist da,\"Hallo <%= recipient.firstName %>, 20 % Rabatt bis Sonntag.\",chime.caf,3,,image,,,0,1,{},de,German,0\r\n"
        + "夏天來了,週日前八折。,chime.caf,3,,image,,,0,1,\"{\"\"mediaUrl\"\":\"\"https://cdn.neotrips.example/summer-zh.jpg\"\"}\",zh_hant,Chinese,0\r\n"
        + "O verão chegou,\"'-20% até domingo, \"\"imperdível\"\"\",chime.caf,3,,image,,,0,1,\"{\"\"VAR\"\":\"\"ofertas\"\"}\",pt_br,Portuguese,0\r\n"

    func plan(_ text: String, replace: Bool = false, onto d: Delivery = delivery) -> VariantsImportPlan {
        VariantsCSV.plan(Data(text.utf8), file: "t.csv", onto: d, replace: replace)
    }

    /// The findings as `validate` prints them.
    func printed(_ p: VariantsImportPlan) -> [String] { p.findings.map(\.formatted) }

    // MARK: export

    func testPushDeskExportIsExactlyTheseBytes() {
        XCTAssertEqual(VariantsCSV.export(Self.delivery, format: .pushdesk), Self.pushdeskCSV)
    }

    /// docs/FORMATS.md shows what export writes today (its lines, without the CRs).
    func testTheFormatsDocShowsThisExport() throws {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/FORMATS.md"), encoding: .utf8)
        let shown = "```\n" + Self.pushdeskCSV.replacingOccurrences(of: "\r\n", with: "\n") + "```\n"
        XCTAssertTrue(doc.contains(shown), "docs/FORMATS.md shows an outdated translators' file")
    }

    func testCampaignStandardExportIsExactlyTheseBytes() {
        XCTAssertEqual(VariantsCSV.export(Self.delivery, format: .campaignStandard), Self.campaignCSV)
    }

    func testASilentDeliveryWithNoValuesWritesItsFlagsAndEmptyObjects() {
        var d = Delivery(name: "s", service: "neotrips")
        d.ios = IOSOptions(type: .silent, contentAvailable: true)
        d.variants = [DeliveryVariant(locale: "es-419", body: "=1+1")]
        XCTAssertEqual(
            VariantsCSV.export(d, format: .campaignStandard).split(separator: "\r\n").dropFirst(),
            [",,,,,,,,1,0,{},default,,1", ",'=1+1,,,,,,,1,0,{},es_419,Spanish,1"])
        XCTAssertEqual(
            VariantsCSV.export(d, format: .pushdesk), "locale,title,subtitle,body\r\ndefault,,,\r\nes-419,,,'=1+1\r\n")
    }

    // MARK: round trips

    func testBothFormatsReadBackToTheSameDelivery() {
        for format in VariantsCSVFormat.allCases {
            let p = plan(VariantsCSV.export(Self.delivery, format: format))
            XCTAssertEqual(p.result, Self.delivery, "\(format)")
            XCTAssertEqual(p.changes, [], "\(format)")
            XCTAssertEqual(printed(p).filter { !$0.contains("[variant.missing-text]") }, [], "\(format)")
        }
    }

    /// Texts a spreadsheet would run, and texts that already begin with the escape's `'`.
    func testFormulaLookingTextsSurviveBothFormats() {
        var d = Self.delivery
        d.variants[0].title = "'=HYPERLINK(\"x\")"
        d.content.title = "@home"
        d.variants[1].body = "+886 2 1234"
        d.variants[2].variables = [VariableValue(name: "VAR", value: "'-1")]
        for format in VariantsCSVFormat.allCases {
            let csv = VariantsCSV.export(d, format: format)
            XCTAssertTrue(csv.contains("''=HYPERLINK(\"\"x\"\")"), csv)
            XCTAssertEqual(plan(csv, onto: d).result, d, "\(format)")
            XCTAssertEqual(plan(csv).result, d, "\(format): read onto the delivery as it was")
        }
    }

    /// What the translator's script does: a language added, a title changed, formula-looking
    /// cells typed in, a value cleared; the subtitle column deleted, so subtitles are kept.
    func testEditsOfATranslatorLandOnTheirFieldsOnly() throws {
        let csv =
            "LOCALE,Title,body,value:mediaUrl,value:VAR\n"
            + "default,Summer is here,\"Hi <%= recipient.firstName %>, 20% off until Sunday.\",https://cdn.neotrips.example/summer.jpg,offers\n"
            + "de,Endlich Sommer,\"Hallo <%= recipient.firstName %>, 20 % Rabatt bis Sonntag.\",,\n"
            + "zh_hant,夏天來了,週日前八折。,,\n"
            + "pt-br,O verão chegou,\"'-20% até domingo, \"\"imperdível\"\"\",,ofertas\n"
            + "fr,L'été est là,-20% jusqu'à dimanche,=SUM(A1),\n"
        let p = plan(csv)
        var expected = Self.delivery
        expected.variants[0].title = "Endlich Sommer"
        expected.variants[1].variables = []
        expected.variants.append(
            DeliveryVariant(
                locale: "fr", title: "L'été est là", body: "-20% jusqu'à dimanche",
                variables: [VariableValue(name: "mediaUrl", value: "=SUM(A1)")]))
        XCTAssertEqual(p.result, expected)
        XCTAssertEqual(
            p.changes.map(\.line),
            ["changed de: title", "changed zh-Hant: values.mediaUrl", "added fr: title, body, values.mediaUrl"])
        // Exported again, the formulas are escaped for the spreadsheet once more.
        let again = VariantsCSV.export(try XCTUnwrap(p.result), format: .pushdesk)
        XCTAssertTrue(again.hasSuffix("fr,L'été est là,,'-20% jusqu'à dimanche,'=SUM(A1),\r\n"), again)
    }

    func testReplaceRemovesTheVariantsTheFileDoesNotName() {
        let csv = "locale,title\ndefault,Summer is here\nzh-hant,夏天來了\n"
        let kept = plan(csv)
        XCTAssertEqual(kept.result, Self.delivery)
        let p = plan(csv, replace: true)
        XCTAssertEqual(p.result?.variants.map(\.locale), ["zh-Hant"])
        XCTAssertEqual(p.changes.map(\.line), ["removed de", "removed pt-BR"])
    }

    func testCustomFieldsAreTheRowsValuesAsASet() {
        let rows = VariantsCSV.export(Self.delivery, format: .campaignStandard)
            .replacingOccurrences(of: "\"{\"\"VAR\"\":\"\"ofertas\"\"}\"", with: "")
            .replacingOccurrences(of: ",{},de,", with: ",\"{\"\"VAR\"\":\"\"Angebote\"\"}\",de,")
        let p = plan(rows)
        XCTAssertEqual(p.result?.variants[0].variables, [VariableValue(name: "VAR", value: "Angebote")])
        XCTAssertEqual(p.result?.variants[2].variables, [])
        XCTAssertEqual(p.result?.variants[2].subtitle, "Viagens a partir de 199 EUR", "no subtitle column: kept")
        XCTAssertEqual(p.changes.map(\.line), ["changed de: values.VAR", "changed pt-BR: values.VAR"])
    }

    func testAPerDeliveryCellThatDiffersIsAWarningAtItsCellAndNotImported() {
        let csv = Self.campaignCSV.replacingOccurrences(
            of: "Der Sommer ist da,\"Hallo <%= recipient.firstName %>, 20 % Rabatt bis Sonntag.\",chime.caf,3,",
            with: "Der Sommer ist da,\"Hallo <%= recipient.firstName %>, 20 % Rabatt bis Sonntag.\",chime.caf,5,")
        let p = plan(csv)
        XCTAssertEqual(p.result, Self.delivery)
        XCTAssertEqual(
            printed(p).filter { $0.contains("csv.") },
            [
                "t.csv:3:90: warning: badge is \"5\" here and \"3\" in the delivery; PushDesk keeps it per delivery, not per language: not imported (change it in the delivery's options) [csv.per-delivery]"
            ])
    }

    // MARK: bad files

    /// The i-th of 676 two-letter languages: `aa`, `ab`, …
    static func tag(_ i: Int) -> String {
        String(UnicodeScalar(UInt8(97 + i / 26))) + String(UnicodeScalar(UInt8(97 + i % 26)))
    }

    /// The one csv finding of a refused file, as printed.
    func refusal(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> String {
        let p = VariantsCSV.plan(Data(bytes), file: "t.csv", onto: Self.delivery, replace: false)
        XCTAssertNil(p.result, "imported", file: file, line: line)
        XCTAssertEqual(p.changes, [], file: file, line: line)
        return printed(p).joined(separator: "\n")
    }

    func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        refusal(Array(text.utf8), file: file, line: line)
    }

    func testEveryRuleIsReportedAtItsLineAndColumn() {
        let ok = "\u{FEFF}locale,title,body\r\ndefault,Summer is here,\"two\r\nlines\"\r\n"
        XCTAssertNotNil(plan(ok).result, "a BOM, CRLF and a quoted newline are RFC 4180")
        XCTAssertEqual(
            refusal(ok + "de,Der \"Sommer\",x\r\n"),
            "t.csv:4:8: error: a quote inside an unquoted cell; quote the cell and write the quote as \"\" [csv.row]")
        XCTAssertEqual(
            refusal(ok + "de,\"Der Sommer,x\r\n"),
            "t.csv:4:4: error: this quoted cell is never closed; add the closing \" (a quote inside a cell is written \"\") [csv.row]"
        )
        XCTAssertEqual(
            refusal(ok + "de,Der Sommer,x,y\r\n"),
            "t.csv:4:17: error: this row has 4 cells and the header 3; quote a cell that holds a comma (\"a, b\") and give every row one cell per column [csv.row]"
        )
        XCTAssertEqual(
            refusal(Array("locale,title\nde,Gr".utf8) + [0xFC, 0x65] + Array("n\n".utf8)),
            "t.csv:2:6: error: the file is not UTF-8 here; save it from the spreadsheet as \"CSV UTF-8\" [csv.encoding]"
        )
        XCTAssertEqual(
            refusal("locale,title,Untertitel\nde,a,b\n"),
            "t.csv:1:14: error: unknown column \"Untertitel\"; a PushDesk file has locale, title, subtitle, body and value:NAME columns [csv.header]"
        )
        XCTAssertEqual(
            refusal("title,body\nHallo,Welt\n"),
            "t.csv:1:1: error: the header has no locale column; a PushDesk file starts locale,title,subtitle,body [csv.header]"
        )
        XCTAssertEqual(
            refusal("locale,title\ndefault,a\nGerman,b\n"),
            "t.csv:3:1: error: locale \"German\" is no language tag; write language[-Script][-REGION] (de, pt-BR, pt_br, zh-Hant, es-419) or default [csv.locale]"
        )
        XCTAssertEqual(
            refusal("locale,title\npt_BR,a\nde,b\n pt-br,c\n"),
            "t.csv:4:1: error: pt-BR is on line 2 already (as \"pt_BR\"); keep one row per language [csv.duplicate]")
    }

    /// What a delivery file cannot store is refused at its cell, never at the save.
    func testACellTheDeliveryFileCannotHoldIsRefusedAtTheCell() {
        XCTAssertEqual(
            refusal("locale,title,body\nde,ok,\"evil \u{1B}[31mred\"\n"),
            "t.csv:2:7: error: this cell holds the control character U+001B, which a delivery file cannot hold; remove it [csv.encoding]"
        )
        XCTAssertEqual(
            refusal("locale,title\nde,\(String(repeating: "ä", count: 8200))\n"),
            "t.csv:2:4: error: this cell is 16400 bytes; a text or value holds at most 16384: shorten it [csv.size]")
        XCTAssertEqual(
            refusal("locale,value:a\u{7}b\nde,x\n"),
            "t.csv:1:8: error: this column's name holds a control character; remove it [csv.header]")
        let header = VariantsCSVFormat.CampaignColumn.allCases.map(\.rawValue).joined(separator: ",")
        XCTAssertEqual(
            refusal(header + "\nHallo,Welt,chime.caf,3,,image,,,0,1,\"{\"\"VAR\"\":\"\"a\\u0000\"\"}\",de,German,0\n"),
            "t.csv:2:37: error: this cell holds the control character U+0000, which a delivery file cannot hold; remove it [csv.encoding]"
        )
    }

    func testCustomFieldsThatAreNoObjectOfStringsAreRefusedAtTheirCell() {
        let header = VariantsCSVFormat.CampaignColumn.allCases.map(\.rawValue).joined(separator: ",")
        func row(_ fields: String) -> String {
            header + "\r\nHallo,Welt,chime.caf,3,,image,,,0,1,\(fields),de,German,0\r\n"
        }
        XCTAssertEqual(
            refusal(row("[1]")),
            "t.csv:2:37: error: customFields is no JSON object (1:1 in the cell: a JSON object `{…}` is needed here; found `[`); write {\"NAME\":\"value\"} or leave it empty [csv.json]"
        )
        XCTAssertEqual(
            refusal(row("\"{\"\"VAR\"\":3}\"")),
            "t.csv:2:37: error: customFields' \"VAR\" is no string; every value is a string: quote it (\"VAR\":\"…\") [csv.json]"
        )
        XCTAssertEqual(
            refusal(header.replacingOccurrences(of: ",silentPush", with: "") + "\r\n"),
            "t.csv:1:1: error: the header has no silentPush column; a Campaign Standard file has all of its 14 columns [csv.header]"
        )
    }

    func testTooLargeAFileOrTooManyRowsIsCSVSize() {
        var rows = "locale,title\ndefault,a\n"
        for i in 0..<201 { rows += "\(Self.tag(i)),t\n" }
        XCTAssertEqual(
            refusal(rows),
            "t.csv:203:1: error: row 202 after the header: a file holds at most 201 rows (the default and 200 variants); split it or remove languages [csv.size]"
        )
        let big = Array("locale,title\n".utf8) + [UInt8](repeating: 0x61, count: CSVTable.maxBytes)
        XCTAssertEqual(
            refusal(big),
            "t.csv:1:1: error: the file is \(big.count) bytes; a translators' file is at most \(CSVTable.maxBytes) bytes [csv.size]"
        )
    }

    /// The result goes through the delivery's own rules: 200 variants and one more is
    /// `variant.count`, an added variant with nothing in it is `variant.empty`.
    func testTheResultMustPassTheDeliveryRules() {
        var d = Self.delivery
        d.variants = (0..<200).map { DeliveryVariant(locale: Self.tag($0), title: "t") }
        let more = plan("locale,title\nfil,Kumusta\n", onto: d)
        XCTAssertNil(more.result)
        XCTAssertTrue(
            printed(more).contains(
                "deliveries/summer-sale.xml: error: variants: 201 variants; a delivery holds at most 200: remove 1 [variant.count]"
            ), "\(printed(more))")
        let empty = plan("locale,title\nfr,\n")
        XCTAssertNil(empty.result)
        XCTAssertTrue(printed(empty).contains { $0.hasSuffix("[variant.empty]") }, "\(printed(empty))")
    }

    /// Blanks around a cell go as Foundation's `.whitespaces` takes them (tab, space, the space
    /// separators such as U+3000), and nothing inside; an invisible character (U+200B, which
    /// Foundation on Linux also trims) stays, so `csv.locale` shows it instead of hiding it.
    func testTrimmingACellTakesTheBlanksAroundIt() {
        let cells = [" de ", "\tpt_BR\t", "\u{3000}zh-Hant\u{00A0}", "de", "", "  ", "a b", "de\n", "é "]
        for cell in cells {
            XCTAssertEqual(
                VariantsCSVImport.trimmed(cell), cell.trimmingCharacters(in: .whitespaces),
                "\(Array(cell.unicodeScalars))")
        }
        XCTAssertEqual(VariantsCSVImport.trimmed("\u{200B}de "), "\u{200B}de")
    }
}
