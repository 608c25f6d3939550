import Foundation
import XCTest

@testable import PushDeskCore

final class HandoffSheetTests: XCTestCase {
    /// Golden files: Fixtures/handoff/golden/neotrips.{md,html,json}, and the Android-only sheet.
    /// After a deliberate change, regenerate with PUSHDESK_UPDATE_GOLDEN=1 and review the diff.
    func testGoldenSheetsOfNeotrips() throws {
        let sheet = try HandoffSheet(service: HandoffFixtures.neotrips())
        for format in HandoffFormat.allCases {
            try assertGolden(sheet.rendered(as: format), "neotrips.\(format.rawValue)")
        }
        let android = try HandoffSheet(service: HandoffFixtures.neotrips(), appKey: "neotrips-android")
        try assertGolden(android.rendered(as: .md), "neotrips-android.md")
    }

    func testSheetCarriesTheIntegrationSettings() throws {
        let sheet = try HandoffSheet(service: HandoffFixtures.neotrips())
        XCTAssertEqual(sheet.apps.map(\.integrationKey), ["neotrips-ios-dev", "neotrips-ios", "neotrips-android"])
        XCTAssertEqual(sheet.apps.map(\.credentialKind), ["token", "certificate", "serviceAccount"])
        XCTAssertEqual(sheet.apps.map(\.environment), [.sandbox, .production, nil])
        let md = sheet.markdown
        for needle in [
            "`https://marketing.neotrips.example:8443/`", "`https://tracking.neotrips.example/`",
            "| `loyaltyId` | `@loyaltyId` | Loyalty number |", "| `chime.caf` | Chime |",
            "setIntegrationKey(INTEGRATION_KEY)", "INTEGRATION_KEY = \"neotrips-android\"",
            "[nl setIntegrationKey:@\"neotrips-ios-dev\"]", "intent.getStringExtra(\"VAR\")",
            "[launchOptions objectForKey:@\"VAR\"]", "params.put(\"loyaltyId\", loyaltyId)",
            "[nl registerDevice:tokenString :userKey :params]", "\"7\"", "\"2\"", "\"1\"",
        ] {
            XCTAssertTrue(md.contains(needle), "sheet lacks \(needle)")
        }
    }

    func testSheetNeverHoldsCredentialValues() throws {
        let sheet = try HandoffSheet(service: HandoffFixtures.neotrips())
        for format in HandoffFormat.allCases {
            let text = sheet.rendered(as: format)
            for secret in HandoffFixtures.neotripsCredentialValues {
                XCTAssertFalse(text.contains(secret), "\(format) sheet shows \(secret)")
            }
        }
    }

    func testOneAppByIntegrationKeyAndUnknownKey() throws {
        let sheet = try HandoffSheet(service: HandoffFixtures.neotrips(), appKey: "neotrips-ios")
        XCTAssertEqual(sheet.apps.map(\.label), ["Neotrips iOS"])
        XCTAssertThrowsError(try HandoffSheet(service: HandoffFixtures.neotrips(), appKey: "nope\u{1B}")) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("no app with integration key nope\\u{1B}"), message)
            XCTAssertTrue(message.contains("neotrips-ios-dev, neotrips-ios, neotrips-android"), message)
        }
    }

    func testHostileValuesStayInert() throws {
        let sheet = try HandoffSheet(service: HandoffFixtures.hostileService)
        let html = sheet.html
        XCTAssertFalse(html.contains("<script>"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp;"))
        XCTAssertFalse(html.contains("\u{1B}"))
        let md = sheet.markdown
        XCTAssertFalse(md.contains("\u{1B}"))
        // Every table row stays one row with the expected number of cells.
        for line in md.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.replacingOccurrences(of: "\\|", with: "").split(
                separator: "|", omittingEmptySubsequences: false)
            XCTAssertTrue([4, 5].contains(cells.count), "broken table row: \(line)")
        }
        // The hostile code (with backticks) cannot close its fence early.
        let fenceLines = md.split(separator: "\n").filter { $0.hasPrefix("```") }
        XCTAssertEqual(fenceLines.count, 4)
        // JSON keeps the exact values and parses back.
        let json = sheet.rendered(as: .json)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        XCTAssertEqual(parsed?["label"] as? String, HandoffFixtures.hostile)
        let apps = parsed?["apps"] as? [[String: Any]]
        XCTAssertEqual(apps?.first?["integrationKey"] as? String, HandoffFixtures.hostile)
    }

    /// No rendering and no generated file lets a character through that the escape rule
    /// flags (U+009B, bidi overrides, zero-width characters, BOMs, tag characters): they
    /// are `\u{9B}` in text and comments, escapes inside the code's string literals.
    func testNoRenderingPrintsARawControlOrInvisibleCharacter() throws {
        let sheet = try HandoffSheet(service: HandoffFixtures.hostileService)
        var texts = HandoffFormat.allCases.map { ("\($0)", sheet.rendered(as: $0)) }
        texts += sheet.apps.flatMap(\.snippets).map { ("\($0.language) snippet", $0.code) }
        for (what, text) in texts {
            let scalars = Array(text.unicodeScalars)
            let raw = scalars.indices.filter { i in
                scalars[i] != "\n"
                    && Escape.mustEscape(
                        scalars[i], previous: i > 0 ? scalars[i - 1] : nil,
                        next: i + 1 < scalars.count ? scalars[i + 1] : nil)
            }.map { String(scalars[$0].value, radix: 16) }
            XCTAssertEqual(raw, [], what)
        }
        let java = try XCTUnwrap(sheet.apps.flatMap(\.snippets).first { $0.language == .java }).code
        XCTAssertTrue(java.contains("東京 \\2332J\\205\\177\\u202Etxt\\u200B\\uFEFF\\uDB40\\uDC41\""), java)
        let objc = try XCTUnwrap(sheet.apps.flatMap(\.snippets).first { $0.language == .objectiveC }).code
        XCTAssertTrue(
            objc.contains("東京 \\302\\2332J\\302\\205\\177\\u202Etxt\\u200B\\uFEFF\\U000E0041\""), objc)
        XCTAssertTrue(sheet.markdown.contains("東京 \\u{9B}2J\\u{85}\\u{7F}\\u{202E}txt\\u{200B}\\u{FEFF}\\u{E0041}"))
    }

    /// libxml2's HTML parser (xmllint, libxml2-utils in TEST_PKGS) finds no error in the pages,
    /// hostile values included, and reads the hostile label back as text.
    func testHTMLParsesCleanly() throws {
        guard let xmllint = findExecutable("xmllint") else {
            throw XCTSkip("xmllint is not installed: `make test` installs it (libxml2-utils in TEST_PKGS)")
        }
        for service in [try HandoffFixtures.neotrips(), HandoffFixtures.hostileService] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushdesk-sheet-\(UUID().uuidString).html")
            defer { try? FileManager.default.removeItem(at: file) }
            try HandoffSheet(service: service).html.write(to: file, atomically: true, encoding: .utf8)
            let check = try runTool(xmllint, ["--html", "--noout", file.path])
            XCTAssertEqual(check.status, 0, check.output)
            XCTAssertEqual(check.output, "")
            let h1 = try runTool(xmllint, ["--html", "--xpath", "string(//h2[1])", file.path])
            let expected =
                HandoffText.visible(service.apps[0].label) + " (iOS, " + service.iosApps[0].environment.rawValue + ")"
            XCTAssertEqual(h1.output, expected + "\n")  // xmllint ends its output with a newline
        }
    }

    func testMarkdownCodeSpans() {
        XCTAssertEqual(HandoffText.markdownCode("a`b"), "``a`b``")
        XCTAssertEqual(HandoffText.markdownCode("`x"), "`` `x ``")
        XCTAssertEqual(HandoffText.markdownCode("a|b"), "`a\\|b`")
        XCTAssertEqual(HandoffText.markdownCode(""), "(not set)")
        XCTAssertEqual(HandoffText.markdown("*a*_|<"), "\\*a\\*\\_\\|\\<")
    }

    func testSourceLiterals() {
        XCTAssertEqual(SourceLiteral.java("a\"\\\n\u{1}é"), "\"a\\\"\\\\\\n\\001é\"")
        XCTAssertEqual(SourceLiteral.objc("??/\u{7F}"), "@\"\\?\\?/\\177\"")
        XCTAssertEqual(SourceLiteral.comment("x\\\n"), "\"x\\\\\\x{A}\"")
        XCTAssertEqual(SourceLiteral.identifier("int", taken: []), "int_")
        XCTAssertEqual(SourceLiteral.identifier("a-b", taken: ["a_b"]), "a_b2")
        XCTAssertTrue(SourceLiteral.isJavaPackage("com.neotrips.app"))
        XCTAssertFalse(SourceLiteral.isJavaPackage("com.class.app"))
        XCTAssertFalse(SourceLiteral.isJavaPackage("com..app"))
        XCTAssertFalse(SourceLiteral.isJavaPackage("com.1app"))
    }

    // MARK: golden files

    private func assertGolden(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let source = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/handoff/golden/\(name)")
        if ProcessInfo.processInfo.environment["PUSHDESK_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: source, atomically: true, encoding: .utf8)
            return
        }
        let url = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/handoff/golden/\(name)")
        let expected = try String(contentsOf: url, encoding: .utf8)
        if expected != actual {
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let i = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
            XCTFail(
                "\(name) differs at line \(i + 1):\n expected: \(i < e.count ? String(e[i]) : "<end>")\n   actual: \(i < a.count ? String(a[i]) : "<end>")",
                file: file, line: line)
        }
    }
}

/// The call the console's "Hand-off sheet" action makes.
final class HandoffExportTests: XCTestCase {
    func testWriteReplacesAtomicallyAndKeepsTheOldFileOnError() throws {
        let dir = try makeTempDir(self, "out")
        let file = dir.appendingPathComponent("neotrips.html")
        let service = try HandoffFixtures.neotrips()
        try "old".write(to: file, atomically: true, encoding: .utf8)
        try HandoffExport.write(service: service, format: .html, to: file)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), try HandoffSheet(service: service).html)
        XCTAssertThrowsError(try HandoffExport.write(service: service, appKey: "nope", format: .md, to: file))
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), try HandoffSheet(service: service).html)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["neotrips.html"])
        XCTAssertEqual(HandoffFormat(fileName: "a.JSON"), .json)
        XCTAssertEqual(HandoffFormat(fileName: "a.htm"), .html)
        XCTAssertNil(HandoffFormat(fileName: "a.txt"))
    }
}
