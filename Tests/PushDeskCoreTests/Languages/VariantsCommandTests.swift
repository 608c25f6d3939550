import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk variants export|import` on real files in a temporary store, as an operator runs
/// them with a translator's file (docs/FORMATS.md, "Translators' files").
final class VariantsCommandTests: XCTestCase {
    var store: URL!
    var deliveryFile: URL { store.appendingPathComponent("deliveries/summer-sale.xml") }

    override func setUpWithError() throws {
        _ = try builtPushDesk()
        store = try makeTempDir(self)
        try DemoStore.write(to: store)
        try Store(root: store).save(VariantsCSVTests.delivery)
    }

    func pushdesk(_ args: String..., stdin: String? = nil) throws -> CommandResult {
        try runProcess(
            packageRoot.appendingPathComponent(".build/debug/pushdesk").path, args + ["--store", store.path],
            stdin: stdin)
    }

    /// A CSV file beside the store.
    func csvFile(_ bytes: [UInt8], _ name: String = "t.csv") throws -> String {
        let url = store.deletingLastPathComponent().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func csvFile(_ text: String, _ name: String = "t.csv") throws -> String { try csvFile(Array(text.utf8), name) }

    func testExportWritesEachFormatsBytesToStandardOutput() throws {
        let p = try pushdesk("variants", "export", "summer-sale")
        XCTAssertEqual(p.status, 0, p.stderr)
        XCTAssertEqual(p.stdout, VariantsCSVTests.pushdeskCSV)
        let c = try pushdesk("variants", "export", "summer-sale", "--format", "campaign-standard")
        XCTAssertEqual(c.status, 0, c.stderr)
        XCTAssertEqual(c.stdout, VariantsCSVTests.campaignCSV)
        let bad = try pushdesk("variants", "export", "summer-sale", "--format", "xlsx")
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "error: --format is pushdesk or campaign-standard, not \"xlsx\"\n")
        let missing = try pushdesk("variants", "export", "winter")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.hasPrefix("deliveries/winter.xml: error: no such file"), missing.stderr)
    }

    /// The round trip with a translator: export, edit in a script (a language added, a title
    /// changed, formula-looking cells), import; the file and the preview show exactly that.
    func testATranslatorsRoundTripChangesExactlyWhatWasEdited() throws {
        let exported = try pushdesk("variants", "export", "summer-sale")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        var lines = exported.stdout.components(separatedBy: "\r\n")
        let de = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("de,") })
        lines[de] = lines[de].replacingOccurrences(of: "de,Der Sommer ist da,", with: "de,Endlich Sommer,")
        lines.insert("fr,L'été est là,=SUM(A1),-20% jusqu'à dimanche,,", at: lines.count - 1)
        let file = try csvFile(lines.joined(separator: "\r\n"))

        let original = try String(contentsOf: deliveryFile, encoding: .utf8)
        let r = try pushdesk("variants", "import", "summer-sale", file)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            """
            deliveries/summer-sale.xml:9:5: warning: variant[de].subtitle: the default has a subtitle and the variant for de has none, so its devices get no subtitle; translate it [variant.missing-text]
            deliveries/summer-sale.xml:13:5: warning: variant[zh-Hant].subtitle: the default has a subtitle and the variant for zh-Hant has none, so its devices get no subtitle; translate it [variant.missing-text]
              changed de: title
              added fr: title, subtitle, body
            deliveries/summer-sale.xml: 1 added, 1 changed, 0 removed; saved

            """)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(try String(contentsOf: deliveryFile, encoding: .utf8), Self.afterRoundTrip)
        // And nothing else: without the two edits it is the file as it was.
        let french = """
                <variant locale="fr">
                  <title>L'été est là</title>
                  <subtitle>=SUM(A1)</subtitle>
                  <body>-20% jusqu'à dimanche</body>
                </variant>

            """
        XCTAssertEqual(
            Self.afterRoundTrip.replacingOccurrences(of: french, with: "")
                .replacingOccurrences(of: "<title>Endlich Sommer</title>", with: "<title>Der Sommer ist da</title>"),
            original)

        let preview = try pushdesk("preview", "summer-sale", "--locale", "fr", "--app", "neotrips-ios", "--json")
        XCTAssertEqual(preview.status, 0, preview.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(preview.stdout.utf8)) as? [String: Any])
        let target = try XCTUnwrap((doc["targets"] as? [[String: Any]])?.first)
        XCTAssertEqual(target["locale"] as? String, "fr")
        XCTAssertEqual(
            ((target["payload"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? NSDictionary,
            ["title": "L'été est là", "subtitle": "=SUM(A1)", "body": "-20% jusqu'à dimanche"] as NSDictionary)
        // Exported again, both formulas carry their ' for the spreadsheet.
        let again = try pushdesk("variants", "export", "summer-sale")
        XCTAssertTrue(again.stdout.hasSuffix("fr,L'été est là,'=SUM(A1),'-20% jusqu'à dimanche,,\r\n"), again.stdout)
        // The same file again changes nothing and writes nothing.
        let before = try Data(contentsOf: deliveryFile)
        let same = try pushdesk("variants", "import", "summer-sale", file)
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertTrue(
            same.stdout.hasSuffix(
                "translate it [variant.missing-text]\ndeliveries/summer-sale.xml: 0 added, 0 changed, 0 removed; no change: nothing was written\n"
            ), same.stdout)
        XCTAssertEqual(try Data(contentsOf: deliveryFile), before)
    }

    /// The delivery after the translator's file: the German title, and French added at the end.
    static let afterRoundTrip = """
        <?xml version="1.0" encoding="UTF-8"?>
        <delivery format="1" name="summer-sale" label="Summer sale" service="neotrips">
          <content>
            <title>Summer is here</title>
            <subtitle>Trips from 199 EUR</subtitle>
            <body>Hi &lt;%= recipient.firstName %&gt;, 20% off until Sunday.</body>
          </content>
          <variants>
            <variant locale="de">
              <title>Endlich Sommer</title>
              <body>Hallo &lt;%= recipient.firstName %&gt;, 20 % Rabatt bis Sonntag.</body>
            </variant>
            <variant locale="zh-Hant">
              <title>夏天來了</title>
              <body>週日前八折。</body>
              <variables>
                <value name="mediaUrl">https://cdn.neotrips.example/summer-zh.jpg</value>
              </variables>
            </variant>
            <variant locale="pt-BR">
              <title>O verão chegou</title>
              <subtitle>Viagens a partir de 199 EUR</subtitle>
              <body>-20% até domingo, "imperdível"</body>
              <variables>
                <value name="VAR">ofertas</value>
              </variables>
            </variant>
            <variant locale="fr">
              <title>L'été est là</title>
              <subtitle>=SUM(A1)</subtitle>
              <body>-20% jusqu'à dimanche</body>
            </variant>
          </variants>
          <ios sound="chime.caf" badge="3" category="image" mutableContent="true"/>
          <variables>
            <value name="mediaUrl">https://cdn.neotrips.example/summer.jpg</value>
            <value name="VAR">offers</value>
          </variables>
        </delivery>

        """

    /// Each bad file: exit 1, its rule at FILE:LINE:COLUMN on standard error, the delivery
    /// file byte for byte as it was.
    func testBadFilesWriteNothingAndSayWhereAndWhat() throws {
        let good = VariantsCSVTests.pushdeskCSV
        let cases: [(String, [UInt8], String)] = [
            (
                "bom-stray-quote", Array(("\u{FEFF}" + good + "fr,L'\"été\",,,,\r\n").utf8),
                "6:6: error: a quote inside an unquoted cell"
            ),
            (
                "quoted-newline-unclosed", Array((good + "fr,\"L'été\r\nest là,,,,\r\n").utf8),
                "6:4: error: this quoted cell is never closed"
            ),
            ("cells", Array((good + "fr,a,b\r\n").utf8), "6:6: error: this row has 3 cells and the header 6"),
            (
                "latin1", Array("locale,title\r\nde,Gr".utf8) + [0xFC] + Array("n\r\n".utf8),
                "2:6: error: the file is not UTF-8 here"
            ),
            ("header", Array("locale,titel\r\nde,Hallo\r\n".utf8), "1:8: error: unknown column \"titel\""),
            (
                "control", Array("locale,title\r\nde,\"evil \u{1B}[31mred\u{7}\"\r\n".utf8),
                "2:4: error: this cell holds the control character U+001B"
            ),
            (
                "duplicate", Array("locale,title\r\npt_BR,a\r\npt-br,b\r\n".utf8),
                "3:1: error: pt-BR is on line 2 already (as \"pt_BR\")"
            ),
            ("locale", Array("locale,title\r\nBrazil,a\r\n".utf8), "2:1: error: locale \"Brazil\" is no language tag"),
            (
                "json",
                Array(
                    (VariantsCSVTests.campaignCSV.split(separator: "\r\n")[0]
                        + "\r\nHallo,Welt,chime.caf,3,,image,,,0,1,[],de,German,0\r\n").utf8),
                "2:37: error: customFields is no JSON object"
            ),
            (
                "rows",
                Array(("locale,title\r\n" + (0..<202).map { VariantsCSVTests.tag($0) + ",t\r\n" }.joined()).utf8),
                "203:1: error: row 202 after the header"
            ),
            (
                "big", Array("locale,title\r\nde,".utf8) + [UInt8](repeating: 0x61, count: CSVTable.maxBytes),
                "1:1: error: the file is more than 10485760 bytes"
            ),
        ]
        let before = try Data(contentsOf: deliveryFile)
        for (name, bytes, expected) in cases {
            let file = try csvFile(bytes, name + ".csv")
            let r = try pushdesk("variants", "import", "summer-sale", file)
            XCTAssertEqual(r.status, 1, "\(name): \(r.stdout)\(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(file + ":" + expected), "\(name): \(r.stderr)")
            XCTAssertTrue(
                r.stderr.hasSuffix(
                    "deliveries/summer-sale.xml: not imported: nothing was written\n"),
                "\(name): \(r.stderr)")
            XCTAssertEqual(try Data(contentsOf: deliveryFile), before, name)
            XCTAssertFalse(r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(name): raw control")
        }
        let missing = try pushdesk("variants", "import", "summer-sale", "/nonexistent/t.csv")
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "/nonexistent/t.csv: error: cannot read the CSV file: no such file\n")
    }

    func testDryRunShowsTheChangesAndWritesNothing() throws {
        let before = try Data(contentsOf: deliveryFile)
        let file = try csvFile("locale,title\r\nde,Endlich Sommer\r\nfr,Bonjour\r\n")
        let r = try pushdesk("variants", "import", "summer-sale", file, "--replace", "--dry-run")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            """
            deliveries/summer-sale.xml: warning: variant[de].subtitle: the default has a subtitle and the variant for de has none, so its devices get no subtitle; translate it [variant.missing-text]
            deliveries/summer-sale.xml: warning: variant[fr].subtitle: the default has a subtitle and the variant for fr has none, so its devices get no subtitle; translate it [variant.missing-text]
            deliveries/summer-sale.xml: warning: variant[fr].body: the default has a body and the variant for fr has none, so its devices get no body; translate it [variant.missing-text]
              changed de: title
              added fr: title
              removed zh-Hant
              removed pt-BR
            deliveries/summer-sale.xml: 1 added, 1 changed, 2 removed; dry run: nothing was written

            """)
        XCTAssertEqual(try Data(contentsOf: deliveryFile), before)

        let json = try pushdesk("variants", "import", "summer-sale", file, "--replace", "--dry-run", "--json")
        XCTAssertEqual(json.status, 0, json.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? NSDictionary)
        XCTAssertEqual(
            doc,
            [
                "delivery": "summer-sale", "file": file, "saved": false,
                "changes": [
                    ["change": "changed", "locale": "de", "fields": ["title"]],
                    ["change": "added", "locale": "fr", "fields": ["title"]],
                    ["change": "removed", "locale": "zh-Hant", "fields": []],
                    ["change": "removed", "locale": "pt-BR", "fields": []],
                ],
                "findings": [
                    Self.missing("de", "subtitle"), Self.missing("fr", "subtitle"), Self.missing("fr", "body"),
                ],
            ] as NSDictionary)
        XCTAssertEqual(try Data(contentsOf: deliveryFile), before)
    }

    /// `variant.missing-text` as `validate --json` prints it.
    static func missing(_ tag: String, _ text: String) -> NSDictionary {
        [
            "severity": "warning", "rule": "variant.missing-text", "field": "variant[\(tag)].\(text)",
            "file": "deliveries/summer-sale.xml",
            "message":
                "the default has a \(text) and the variant for \(tag) has none, so its devices get no \(text); translate it",
        ]
    }

    /// --replace removes the variants the file leaves out, in one save; a value's column
    /// left empty clears it; a text with no column is kept.
    func testReplaceSavesOnlyTheLanguagesOfTheFile() throws {
        let file = try csvFile("locale,title,value:VAR\r\ndefault,Summer is here,\r\npt_br,Chegou o verão,\r\n")
        let r = try pushdesk("variants", "import", "summer-sale", file, "--replace")
        XCTAssertEqual(r.status, 0, r.stderr)
        let saved = try Store(root: store).load(Delivery.self, "summer-sale")
        var expected = VariantsCSVTests.delivery
        expected.variables = [expected.variables[0]]
        expected.variants = [
            DeliveryVariant(
                locale: "pt-BR", title: "Chegou o verão", subtitle: "Viagens a partir de 199 EUR",
                body: "-20% até domingo, \"imperdível\"")
        ]
        XCTAssertEqual(saved, expected)
    }

    /// Campaign Standard's file: a per-delivery cell that differs is a warning at its cell
    /// (standard output, exit 0) and is not imported; the rest is.
    func testCampaignStandardImportWarnsOfPerDeliveryCells() throws {
        let csv = VariantsCSVTests.campaignCSV
            .replacingOccurrences(of: "Der Sommer ist da,", with: "Endlich Sommer,")
            .replacingOccurrences(of: ",{},de,German,0", with: ",{},de,German,1")
        let file = try csvFile(csv)
        let r = try pushdesk("variants", "import", "summer-sale", file)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            r.stdout.hasPrefix(
                "\(file):3:115: warning: silentPush is \"1\" here and \"0\" in the delivery; PushDesk keeps it per delivery, not per language: not imported (change it in the delivery's options) [csv.per-delivery]\n"
            ), r.stdout)
        XCTAssertTrue(
            r.stdout.hasSuffix(
                "  changed de: title\ndeliveries/summer-sale.xml: 0 added, 1 changed, 0 removed; saved\n"), r.stdout)
        var expected = VariantsCSVTests.delivery
        expected.variants[0].title = "Endlich Sommer"
        XCTAssertEqual(try Store(root: store).load(Delivery.self, "summer-sale"), expected)
    }

    /// While a console holds the store the import is refused and writes nothing; a dry run
    /// needs no lock.
    func testImportIsRefusedWhileAConsoleHoldsTheStore() throws {
        let holder = LockHolder(
            user: "alice", host: ProcessIdentity.host, pid: getpid(), program: "console", since: Date())
        guard case .acquired(let lock, _) = try StoreLock.acquire(storeRoot: store, holder: holder) else {
            return XCTFail()
        }
        defer { lock.release() }
        let before = try Data(contentsOf: deliveryFile)
        let file = try csvFile("locale,title\r\nde,Endlich Sommer\r\n")
        let r = try pushdesk("variants", "import", "summer-sale", file)
        XCTAssertEqual(r.status, 2, r.stdout)
        XCTAssertTrue(r.stderr.contains(".pushdesk/lock: error: the store is locked by alice@"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: deliveryFile), before)
        let dry = try pushdesk("variants", "import", "summer-sale", file, "--dry-run")
        XCTAssertEqual(dry.status, 0, dry.stderr)
    }

    /// The file changes on disk after the import read it (a hand edit, a `git pull`): the
    /// save is refused and the other edit stays. The import reads the delivery, then its CSV
    /// from standard input; the test edits the file while the command waits on that read.
    func testAnImportOntoAFileChangedSinceItWasReadIsRefused() throws {
        let p = Process()
        p.executableURL = packageRoot.appendingPathComponent(".build/debug/pushdesk")
        p.arguments = ["variants", "import", "summer-sale", "-", "--store", store.path]
        let input = Pipe()
        let out = Pipe()
        let err = Pipe()
        p.standardInput = input
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = PipeReader(out.fileHandleForReading)
        let e = PipeReader(err.fileHandleForReading)
        // Blocked in read(2) on descriptor 0: the delivery has been read.
        let readSyscall: String
        #if arch(x86_64)
            readSyscall = "0 0x0 "
        #else
            readSyscall = "63 0x0 "
        #endif
        let deadline = Date().addingTimeInterval(60)
        while (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/syscall", encoding: .utf8))?
            .hasPrefix(readSyscall) != true
        {
            guard p.isRunning, Date() < deadline else {
                p.terminate()
                return XCTFail("the import never waited on standard input: \(o.text) \(e.text)")
            }
            usleep(5000)
        }
        var theirs = VariantsCSVTests.delivery
        theirs.label = "Summer sale (edited by Bea)"
        try Store(root: store).save(theirs)
        let edited = try Data(contentsOf: deliveryFile)
        input.fileHandleForWriting.write(Data("locale,title\r\nde,Endlich Sommer\r\n".utf8))
        try input.fileHandleForWriting.close()
        try p.waitUntilExit(within: defaultChildDeadline) { "stdout:\n\(o.text)\nstderr:\n\(e.text)" }
        let stderr = String(decoding: e.finish(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 2, stderr)
        XCTAssertTrue(
            stderr.hasPrefix(
                "deliveries/summer-sale.xml: error: changed on disk since it was read"
            ), stderr)
        XCTAssertEqual(try Data(contentsOf: deliveryFile), edited, "the other edit stays")
        _ = o.finish()
    }
}
