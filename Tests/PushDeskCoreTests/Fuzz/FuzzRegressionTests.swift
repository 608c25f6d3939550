import XCTest

@testable import PushDeskCore

/// Bugs the fuzzers found, one test each (docs/RELIABILITY.md lists them). Each drives the
/// product the way an operator meets the bug: `pushdesk validate` on a store holding the file.
final class FuzzRegressionTests: XCTestCase {
    private func demoStore() throws -> URL {
        let root = try makeTempDir(self)
        try DemoStore.write(to: root)
        return root
    }

    private func edit(_ root: URL, _ path: String, _ from: String, _ to: String) throws {
        let url = root.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        // The first occurrence only (the demo's two iOS apps share lines).
        let r = try XCTUnwrap(text.range(of: from), "\(path) has no \(from)")
        try text.replacingCharacters(in: r, with: to).write(to: url, atomically: true, encoding: .utf8)
    }

    private func assertNothingRaw(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw = text.unicodeScalars.first {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                || [0x202E, 0x200B, 0xFEFF].contains($0.value)
        }
        XCTAssertNil(
            raw, "raw U+\(String(raw?.value ?? 0, radix: 16)) reached the output: \(text.debugDescription)", file: file,
            line: line)
    }

    /// payload fuzzer: a delivery value named with a CR (`&#13;`) or a bidi override put the
    /// name raw into the field path of `variable.undeclared` (`variables.V\rAR: …`).
    func testVariableNamesInFieldPathsAreEscaped() throws {
        let root = try demoStore()
        try edit(root, "deliveries/summer-sale.xml", #"<value name="VAR">"#, #"<value name="V&#13;A&#x202E;R">"#)
        let r = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(
            r.stderr.contains(
                #"error: variables.V\rA\u{202E}R: app neotrips-ios does not declare variable "V\rA\u{202E}R""#),
            r.stderr)
        assertNothingRaw(r.stderr + r.stdout)
    }

    /// payload fuzzer: `ios.pair-bundle` quoted both bundle ids raw (a C1 CSI, a zero-width space).
    func testPairBundleMessageEscapesBundleIds() throws {
        let root = try demoStore()
        try edit(
            root, "services/neotrips.xml", #"bundleId="com.neotrips.app" connector="http2" icon"#,
            #"bundleId="com.neo&#x9B;2J&#x200B;" connector="http2" icon"#)
        let r = try runPushDesk(["validate", "--store", root.path])
        XCTAssertTrue(
            r.stdout.contains(
                #"warning: apps[1].bundleId: the sandbox app's bundle id com.neo\u{9B}2J\u{200B} differs from the production app's com.neotrips.app"#
            ), r.stdout)
        assertNothingRaw(r.stderr + r.stdout)
    }

    /// Found next to them: a file name is untrusted too. `services/evil ESC[2J BEL.xml` was
    /// printed raw in the file part of the error and in the name-mismatch message.
    func testControlCharactersInFileNamesAreEscaped() throws {
        let root = try demoStore()
        let evil = "evil\u{1B}[2J\u{7}"
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("services/neotrips.xml"),
            to: root.appendingPathComponent("services/\(evil).xml"))
        let r = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(
            r.stderr.hasPrefix(
                #"services/evil\u{1B}[2J\u{7}.xml:2:21: error: name "neotrips" does not match the file name "evil\u{1B}[2J\u{7}.xml""#
            ), r.stderr)
        assertNothingRaw(r.stderr + r.stdout)
    }

    /// XML fuzzer: a broken XML declaration made libxml2 report column 28 of an empty line;
    /// positions the parser reports are now moved inside the file.
    func testParserPositionsStayInsideTheFile() throws {
        let root = try demoStore()
        let data = try Data(
            contentsOf: packageRoot.appendingPathComponent(
                "Tests/PushDeskCoreTests/Fixtures/fuzz/xml/found-xml-declaration-column-past-line-end.xml"))
        try data.write(to: root.appendingPathComponent("services/broken.xml"))
        let r = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(r.status, 1)
        let head = try XCTUnwrap(
            r.stderr.split(separator: "\n").first { $0.hasPrefix("services/broken.xml:") }, r.stderr)
        let parts = head.split(separator: ":")
        let (line, column) = (try XCTUnwrap(Int(parts[1])), try XCTUnwrap(Int(parts[2])))
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.indices.contains(line - 1), head.description)
        XCTAssertLessThanOrEqual(
            column, lines[line - 1].count + 1, "\(head): line \(line) is \(lines[line - 1].count) characters")
    }

    /// payload fuzzer: a label over 16384 bytes (a paste) was saved, and the saved file then
    /// failed to load. Now the save is refused with the reason and the file is unchanged.
    func testAValueTooLongToReloadIsRefusedBeforeSaving() throws {
        let root = try demoStore()
        let store = Store(root: root)
        let file = root.appendingPathComponent("services/neotrips.xml")
        let before = try Data(contentsOf: file)
        var s = try store.load(Service.self, "neotrips")
        s.label = String(repeating: "<%= recipient.firstName %>", count: 700)
        XCTAssertThrowsError(try store.save(s)) { e in
            XCTAssertEqual(
                "\(e)",
                #"services/neotrips.xml: error: a value is 18200 bytes (it starts "<%= recipient.firstName …"); at most 16384 bytes fit in a field: shorten it"#
            )
        }
        XCTAssertEqual(try Data(contentsOf: file), before, "nothing written")
        s.label = String(repeating: "é", count: 8192)  // exactly 16384 bytes: saved and reloaded
        try store.save(s)
        XCTAssertEqual(try store.load(Service.self, "neotrips").label, s.label)
    }

    /// XML fuzzer: an XML name may hold U+FEFF or a zero-width joiner (XML 1.0 allows them),
    /// and errors quoted element names raw. Messages are now escaped where they are printed.
    func testElementNamesInErrorsAreEscaped() throws {
        let root = try demoStore()
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<service format=\"1\" name=\"odd\">\n  <android\u{FEFF}App label=\"A\"/>\n</service>\n"
        try Data(text.utf8).write(to: root.appendingPathComponent("services/odd.xml"))
        let r = try runPushDesk(["validate", "--store", root.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(
            r.stderr.contains(#"services/odd.xml:3:3: error: unknown element <android\u{FEFF}App> inside <service>"#),
            r.stderr)
        assertNothingRaw(r.stderr + r.stdout)
    }

    /// XML fuzzer, a crash: a processing instruction without data (`<?note?>`, a broken
    /// `<?xml?>`) made Foundation's XMLParser call strlen(NULL), and `pushdesk validate`
    /// (or the console, loading the store) died with SIGSEGV. The byte scan now refuses
    /// processing instructions before a parser runs; comments and CDATA may still hold `<?`.
    func testProcessingInstructionsAreRefusedNotACrash() throws {
        let decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let cases: [(String, String)] = [
            (
                decl + "<?note?>\n<service format=\"1\" name=\"p\"/>\n",
                "services/p.xml:2:1: error: a processing instruction (<?…?>) is not part of a PushDesk file; remove it (in text, write < as &lt;)"
            ),
            (
                "<?xml?>\n<service format=\"1\" name=\"p\"/>\n",
                "services/p.xml:1:1: error: the XML declaration is malformed; the first line should be <?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            ),
            (
                decl + "<service format=\"1\" name=\"p\"><?pi some data?></service>\n",
                "services/p.xml:2:30: error: a processing instruction (<?…?>) is not part of a PushDesk file; remove it (in text, write < as &lt;)"
            ),
            (
                decl + decl + "<service format=\"1\" name=\"p\"/>\n",
                "services/p.xml:2:1: error: an XML declaration (<?xml …?>) may only stand at the very start of the file; remove this one"
            ),
        ]
        for (text, expected) in cases {
            let root = try demoStore()
            try Data(text.utf8).write(to: root.appendingPathComponent("services/p.xml"))
            let r = try runPushDesk(["validate", "--store", root.path])
            XCTAssertEqual(r.status, 1, "\(text)\n\(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(expected), "\(expected)\n\(r.stderr)")
        }
        // Not even in a comment or CDATA: libxml2 recovers from a broken comment and then
        // parses the `<?` inside it (the second crash the fuzzer found). A BOM before the
        // declaration is fine, and `<?` written as text (`&lt;?`) too.
        let store = Store(root: try demoStore())
        let broken = decl + "<!-- \u{17} <?x?>\n<service format=\"1\" name=\"p\"/>\n"
        try Data(broken.utf8).write(to: store.url("services/p.xml"))
        XCTAssertThrowsError(try store.load(Service.self, "p")) { e in
            XCTAssertTrue("\(e)".hasPrefix("services/p.xml:2:8: error: a processing instruction"), "\(e)")
        }
        let ok =
            "\u{FEFF}" + decl
            + "<delivery format=\"1\" name=\"p\" service=\"neotrips\"><content><title>a &lt;?b?> c</title></content></delivery>\n"
        try Data(ok.utf8).write(to: store.url("deliveries/p.xml"))
        XCTAssertEqual(try store.load(Delivery.self, "p").content.title, "a <?b?> c")
    }

    /// payload fuzzer: a delivery holding two values for one variable name was saved, and
    /// the reader then refused the file ("given twice"). Profiles whose field names cannot be
    /// attribute names would have written malformed XML. Both are now refused before writing.
    func testRecordsThatWouldNotReloadAreRefusedBeforeSaving() throws {
        let root = try demoStore()
        let store = Store(root: root)
        let file = root.appendingPathComponent("deliveries/summer-sale.xml")
        let before = try Data(contentsOf: file)
        var d = try store.load(Delivery.self, "summer-sale")
        d.variables.append(VariableValue(name: "VAR", value: "again"))
        XCTAssertThrowsError(try store.save(d)) { e in
            XCTAssertEqual("\(e)", "deliveries/summer-sale.xml: error: a value for `VAR` is given twice; keep one")
        }
        XCTAssertEqual(try Data(contentsOf: file), before)

        for bad in ["first name", "", "1st", "a\u{1B}b"] {
            XCTAssertThrowsError(try store.save(Profile(name: "p", fields: [(bad, "x")])), bad) { e in
                XCTAssertTrue(
                    "\(e)".contains("is not usable; use letters, digits, _, - and . (a letter or _ first)"), "\(e)")
                XCTAssertFalse("\(e)".contains("\u{1B}b\""), "escaped: \(e)")
            }
        }
        XCTAssertThrowsError(try store.save(Profile(name: "p", fields: [("city", "a"), ("city", "b")])))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.url("profiles/p.xml").path), "nothing written")
        let good = Profile(name: "p", fields: [("first-name", "Ana"), ("_id", "7"), ("x.y", "z")])
        try store.save(good)
        XCTAssertEqual(try store.load(Profile.self, "p"), good)
    }

    /// The one escaping rule: controls, bidi overrides and invisible characters are escaped;
    /// emoji sequences keep their joiners and flag tags.
    func testEscapeRule() {
        XCTAssertEqual(
            Escape.inline("a\u{200B}b\u{FEFF}c\u{AD}d\u{2060}e\u{200D}f"),
            #"a\u{200B}b\u{FEFF}c\u{AD}d\u{2060}e\u{200D}f"#)
        XCTAssertEqual(Escape.inline("x\u{E0041}y"), #"x\u{E0041}y"#, "tag characters outside a flag")
        for keep in ["👩‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👋🏽", "東京", "e\u{301}", "é", "\u{A0}"] {
            XCTAssertEqual(Escape.inline(keep), keep)
        }
    }
}
