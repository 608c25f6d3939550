import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// The composer in several languages, driven as an operator would: the language selector
/// (the form, preview, size meter and device view follow the chosen variant), a variant's
/// values inherited or its own, the Languages tab's add, rename and delete (the framework's
/// question, `u` to undo), a bad tag refused, a finding's jump to a variant's field.
final class ComposerLanguagesTests: WholeScreenTestCase {
    /// summer-sale in German and Traditional Chinese (zh-Hant with its own image), and Ana's
    /// devices in Portuguese (Brazil: no variant) and German (Austria: looks up de).
    override func setUp() async throws {
        try await super.setUp()
        var d = try store.load(Delivery.self, "summer-sale")
        d.variants = [
            .summerGerman,
            DeliveryVariant(
                locale: "zh-Hant", title: "夏天來了：全館八折", body: "週日前全館八折，會員再享免運。Neotrips 夏季特賣，名額有限，立即預訂！",
                variables: [VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer-zh.jpg")]),
        ]
        try store.save(d)
        var ana = try store.load(Profile.self, "ana")
        ana.subscriptions[0].locale = "pt-BR"
        ana.subscriptions[1].locale = "de-AT"
        try store.save(ana)
    }

    func composer(width: Int = 200, height: Int = 50) -> ConsoleApp {
        let a = console(width: width, height: height)
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)
        return a
    }

    func screen(_ a: ConsoleApp) -> ComposerScreen { a.top as! ComposerScreen }

    /// Chooses `option` (0: the default) in the language selector (F7).
    func chooseLanguage(_ a: ConsoleApp, _ option: Int, file: StaticString = #filePath, line: UInt = #line) {
        a.press(.chooseLanguage, file: file, line: line)
        XCTAssertEqual(a.dialog?.title, "Language to edit", file: file, line: line)
        for _ in 0..<option { a.handle(.down) }
        a.handle(.enter)
    }

    func testSwitchToGermanEditTheTitleAndThePreviewFollows() throws {
        let a = composer()
        assertScreen(a, "defaultWithLanguages")
        a.press(.chooseLanguage)
        assertScreen(a, "selector")
        a.handle(.down)
        a.handle(.enter)
        a.focus(field: "content.title")
        clearField(a)
        a.type("Sommer und Sonne")
        // The form edits de; the preview, the meter and the device view show de's payload.
        assertScreen(a, "germanTitleEdited")
        let d = screen(a).s.draft
        XCTAssertEqual(d.variants[0].title, "Sommer und Sonne")
        XCTAssertEqual(d.content.title, "Summer is here", "the default keeps its title")
        a.press(.undo)
        XCTAssertEqual(screen(a).s.draft.variants[0].title, "Der Sommer ist da", "one undo step for the typing")
    }

    /// 80×24: the zh-Hant variant's wide text in the device view, wrapped by columns.
    func testTraditionalChineseInTheDeviceViewAt80x24() throws {
        let a = composer(width: 80, height: 24)
        chooseLanguage(a, 2)
        assertScreen(a, "zhHantForm")
        a.press(.switchPane)
        a.press(.deviceView)
        assertScreen(a, "zhHantDevice")
        a.press(.nextTarget)
        a.press(.nextTarget)
        assertScreen(a, "zhHantAndroidDevice")
    }

    /// A variant's values: its own, or the default's shown inherited; typing overrides,
    /// emptying the field gives the default's back.
    func testVariantValuesInheritOrOverride() throws {
        let a = composer()
        chooseLanguage(a, 2)
        a.show(tab: "variables")
        assertScreen(a, "zhHantValues", roles: true)
        a.focus(field: "variables.var.VAR")
        a.press(.lineEnd)
        a.type("-zh")
        XCTAssertEqual(screen(a).s.draft.variants[1].variables.map(\.name), ["mediaUrl", "VAR"])
        XCTAssertEqual(screen(a).s.draft.variants[1].variables.last?.value, "offers-zh")
        XCTAssertEqual(screen(a).s.draft.variables.last?.value, "offers", "the default's value is kept")
        clearField(a)
        XCTAssertEqual(screen(a).s.draft.variants[1].variables.map(\.name), ["mediaUrl"], "override cleared")
        assertScreen(a, "zhHantValueInheritedAgain", roles: true)
    }

    func testLanguagesTabAddRenameDeleteAndUndo() throws {
        let a = composer()
        a.show(tab: "languages")
        assertScreen(a, "languagesTab")
        assertScreen(a, "languagesTab", width: 80, height: 24)
        a.press(.new)
        a.type("pt_br")
        a.handle(.enter)
        XCTAssertEqual(screen(a).s.draft.variants.map(\.locale), ["de", "zh-Hant", "pt-BR"], "written canonically")
        assertScreen(a, "added")
        // A duplicate (any case) and a malformed tag are refused with variant.locale's message.
        a.press(.new)
        a.type("DE")
        a.handle(.enter)
        assertScreen(a, "duplicateRefused")
        a.handle(.enter)
        a.press(.new)
        a.type("deutsch-1")
        a.handle(.enter)
        assertScreen(a, "malformedRefused")
        a.handle(.enter)
        XCTAssertEqual(screen(a).s.draft.variants.count, 3)
        // Rename pt-BR (selected after the add) to pt-PT.
        a.press(.rename)
        a.handle(.ctrl("u"))
        a.type("pt-PT")
        a.handle(.enter)
        XCTAssertEqual(screen(a).s.draft.variants.map(\.locale), ["de", "zh-Hant", "pt-PT"])
        // Delete de: the framework asks; No keeps it, Yes deletes, u brings it back.
        a.press(.top)
        a.press(.down)
        a.press(.delete)
        assertScreen(a, "deleteAsks")
        a.handle(.char("n"))
        XCTAssertEqual(screen(a).s.draft.variants.map(\.locale), ["de", "zh-Hant", "pt-PT"], "No keeps")
        a.press(.delete)
        a.handle(.char("y"))
        XCTAssertEqual(screen(a).s.draft.variants.map(\.locale), ["zh-Hant", "pt-PT"], "Yes deletes")
        assertScreen(a, "deleted")
        a.press(.undo)
        XCTAssertEqual(screen(a).s.draft.variants.map(\.locale), ["de", "zh-Hant", "pt-PT"], "u undoes")
        // Saved like every save.
        a.press(.save)
        XCTAssertEqual(try store.load(Delivery.self, "summer-sale").variants.map(\.locale), ["de", "zh-Hant", "pt-PT"])
    }

    /// Enter on a row edits that language: the selector follows, the Content tab opens.
    func testEnterOnARowEditsThatLanguage() throws {
        let a = composer()
        a.show(tab: "languages")
        a.press(.down)
        a.press(.down)
        a.press(.open)
        XCTAssertEqual(a.focusTab, "content")
        XCTAssertEqual(a.focusedField, "title")
        XCTAssertEqual(screen(a).language, "zh-Hant")
    }

    /// variant.missing-text on de's subtitle (the default has one): Enter in the findings
    /// selects de and focuses its subtitle.
    func testFindingJumpsToTheGermanSubtitle() throws {
        let a = composer()
        a.press(.switchPane)
        let c = screen(a)
        let findings = PreviewPane.findings(try XCTUnwrap(c.preview(a.context))).map(\.finding.field.description)
        let i = try XCTUnwrap(findings.firstIndex(of: "variant[de].subtitle"), "\(findings)")
        for _ in 0..<i { a.press(.down) }
        a.press(.open)
        XCTAssertEqual(c.language, "de")
        XCTAssertEqual(a.focusTab, "content")
        XCTAssertEqual(a.focusedField, "subtitle")
        assertScreen(a, "jumpedToGermanSubtitle")
    }

    /// The device view's lines by terminal columns: a break between two wide characters,
    /// none before closing punctuation, a combining mark kept on its letter, nothing wider
    /// than the line.
    func testDeviceViewWrapsWideTextByColumns() {
        let text = "週日前全館八折，會員再享免運。Neotrips 夏季特賣 cafe\u{301}"
        let lines = DeviceView.wrap(text, to: 20)
        XCTAssertEqual(lines, ["週日前全館八折，會員", "再享免運。Neotrips", "夏季特賣 cafe\u{301}"])
        XCTAssertEqual(lines.map { TextWidth.width(of: $0) }, [20, 18, 13])
        XCTAssertEqual(DeviceView.wrap("ab夏天", to: 3), ["ab", "夏", "天"], "an odd column left empty, no half glyph")
        XCTAssertEqual(
            DeviceView.bodyLines(text, width: 20, max: 2), ["週日前全館八折，會員", "再享免運。Neotrips …"],
            "cut to its rows, ending in …")
    }

    /// The card itself at the device view's narrowest, from the zh-Hant payload; a long, wide app
    /// name cut before "now".
    func testZhHantCardAtItsNarrowest() throws {
        let a = composer()
        chooseLanguage(a, 2)
        let p = try XCTUnwrap(screen(a).preview(a.context))
        var b = CellBuffer(width: 30, height: 9)
        DeviceView.render(into: &b, b.bounds, target: p.targets[0], appName: "新旅程 Neotrips 旅遊 App")
        assertScreen(b, "zhHantCard")
    }

    /// The store's findings view (Ctrl-F): the store has the two variant.missing-text
    /// warnings alone (de's, then zh-Hant's subtitle); Enter on zh-Hant's opens the composer
    /// on zh-Hant with its subtitle focused.
    func testFindingsViewOpensTheComposerOnTheVariantsField() throws {
        let a = console(width: 200, height: 50)
        a.press(.findings)
        assertScreen(a, "storeFindings")
        a.press(.down)
        a.press(.open)
        XCTAssertEqual(screen(a).language, "zh-Hant")
        XCTAssertEqual(a.focusTab, "content")
        XCTAssertEqual(a.focusedField, "subtitle")
    }

    /// Types `path` into the file dialog in front (its proposed name cleared) and presses OK.
    func answerPath(_ a: ConsoleApp, _ path: String) {
        a.handle(.ctrl("u"))
        a.type(path)
        a.handle(.enter)
    }

    /// The translator's round trip from the Languages tab: export (`x`), the file edited as a
    /// translator would (a language added, a title changed, a formula-looking cell), import
    /// (`i`) as one edit with its findings said, `u` takes it back; a bad file changes nothing.
    func testExportEditImportATranslatorsFile() throws {
        let a = composer()
        a.show(tab: "languages")
        let file = root.appendingPathComponent("summer-languages.csv")
        a.press(.exportLanguages)
        XCTAssertEqual(a.dialog?.title, "Export the languages (a translators' file)")
        a.handle(.enter)  // the pushdesk format
        answerPath(a, file.path)
        var text = try String(contentsOf: file, encoding: .utf8)
        var rows = text.components(separatedBy: "\r\n")
        XCTAssertEqual(rows.first, "locale,title,subtitle,body,value:mediaUrl,value:VAR")
        XCTAssertEqual(rows.count, 5, "header, default, de, zh-Hant, and the last CRLF")
        // The translator: de's title, a French row whose body starts with "=", written as a spreadsheet keeps it.
        rows[2] = rows[2].replacingOccurrences(of: "Der Sommer ist da", with: "Sommer und Sonne")
        rows.insert("fr,L'été est là,,\"'=20 % jusqu'à dimanche\",,", at: 4)
        text = rows.joined(separator: "\r\n")
        try text.write(to: file, atomically: true, encoding: .utf8)
        a.press(.importLanguages)
        a.handle(.enter)  // add and change
        answerPath(a, file.path)
        assertScreen(a, "imported", masks: [(GoldenScreens.literal(root.path), "STORE")])
        a.handle(.enter)
        let d = screen(a).s.draft
        XCTAssertEqual(d.variants.map(\.locale), ["de", "zh-Hant", "fr"])
        XCTAssertEqual(d.variants[0].title, "Sommer und Sonne")
        XCTAssertEqual(d.variants[2].body, "=20 % jusqu'à dimanche", "the leading ' taken off")
        a.press(.undo)
        XCTAssertEqual(screen(a).s.draft.variants.map(\.locale), ["de", "zh-Hant"], "u takes the import back")
        XCTAssertEqual(screen(a).s.draft.variants[0].title, "Der Sommer ist da")
        // A row whose locale is no tag: nothing changes, the finding says where.
        try "locale,title\r\nxx-1,Hi\r\n".write(to: file, atomically: true, encoding: .utf8)
        a.press(.importLanguages)
        a.handle(.enter)
        answerPath(a, file.path)
        assertScreen(a, "badFileRefused", masks: [(GoldenScreens.literal(root.path), "STORE")])
        XCTAssertEqual(screen(a).s.draft.variants.map(\.locale), ["de", "zh-Hant"])
    }

    /// The copy-out is the language being edited — the Simulator file `pushdesk preview --app KEY
    /// --simulator --locale de` prints, and the curl command of that payload — and the
    /// proposed names say which.
    func testTheSimulatorFileIsTheLanguageBeingEdited() throws {
        let a = composer(width: 80, height: 24)
        chooseLanguage(a, 1)
        a.press(.copyOut)
        guard case .choices(let options)? = a.dialog?.kind else { return XCTFail("no copy-out choices") }
        for _ in 0..<(options.count - 1) { a.handle(.down) }
        a.handle(.enter)
        XCTAssertEqual(a.dialog?.input.text, "summer-sale-de-neotrips-ios-dev.apns")
        let out = root.appendingPathComponent("summer-de.apns")
        answerPath(a, out.path)
        let d = screen(a).s.draft
        let target = try XCTUnwrap(
            PreviewEngine.preview(
                delivery: d, service: DemoStore.neotrips, profile: nil, appKey: "neotrips-ios-dev", token: nil,
                now: Date(), locale: .tag(try XCTUnwrap(LocaleTag("de")))
            ).targets.first)
        guard
            case .file(let expected) = SimulatorFile.make(delivery: d, app: DemoStore.neotrips.apps[0], target: target)
        else { return XCTFail("no file") }
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), expected + "\n")
        let file = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? [String: Any]
        let alert = (file?["aps"] as? [String: Any])?["alert"] as? [String: Any]
        XCTAssertEqual(alert?["title"] as? String, "Der Sommer ist da", "the German variant's file")
        // The curl command too: the German payload, not the default's.
        a.press(.copyOut)
        a.handle(.down)
        a.handle(.enter)  // curl → a file
        XCTAssertEqual(a.dialog?.input.text, "summer-sale-de-neotrips-ios-dev.sh")
        let script = root.appendingPathComponent("summer-de.sh")
        answerPath(a, script.path)
        let curl = try XCTUnwrap(
            CurlCommand.command(
                delivery: d, service: DemoStore.neotrips, profile: nil, appKey: "neotrips-ios-dev", now: Date(),
                locale: .tag(try XCTUnwrap(LocaleTag("de")))))
        XCTAssertEqual(try String(contentsOf: script, encoding: .utf8), "#!/bin/sh\n" + curl)
        XCTAssertNotEqual(
            curl,
            CurlCommand.command(
                delivery: d, service: DemoStore.neotrips, profile: nil, appKey: "neotrips-ios-dev", now: Date()),
            "the default's command differs")
    }
}
