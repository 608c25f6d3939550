import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A test device's language in the console (docs/CONSOLE.md, docs/FORMATS.md "Languages"):
/// the device editor's Language field (the subscription's `locale`), the profile table's
/// Language column, and the recipient's own `locale` field, each edited by field name, with
/// `subscription.locale` under the field that holds a tag that is none, and the file as saved.
final class TestDeviceLanguageTests: WholeScreenTestCase {
    /// The console at ana's first device (Ana's iPhone 15, the sandbox app).
    func firstDevice() -> ConsoleApp {
        let a = console()
        a.press(.testDevices)
        a.press(.open)  // ana
        a.press(.open)  // its first device
        XCTAssertTrue(a.top is DeviceEditorScreen)
        return a
    }

    var anaFile: URL { root.appendingPathComponent("profiles/ana.xml") }

    func testADevicesLanguageIsEditedByFieldNameAndSavedCanonically() throws {
        let before = try String(contentsOf: anaFile, encoding: .utf8)
        let a = firstDevice()
        a.focus(field: "label")
        clearField(a)
        a.type("小明的 iPhone")
        a.focus(field: "locale")
        a.type("zh_hant_tw")
        XCTAssertEqual((a.top as? DeviceEditorScreen)?.device?.locale, "zh_hant_tw")
        assertScreen(a, "languageTypedAsAnAppLogsIt")
        a.press(.back)
        assertScreen(a, "theTableShowsItCanonically")
        a.press(.save)
        XCTAssertEqual(a.message, "Saved profiles/ana.xml")
        // The file: only the first device changed, its label and its language (canonical, after kind).
        let after = try String(contentsOf: anaFile, encoding: .utf8)
        XCTAssertEqual(
            after,
            before.replacingOccurrences(
                of: #"label="Ana's iPhone 15"/>"#, with: #"label="小明的 iPhone" locale="zh-Hant-TW"/>"#))
        XCTAssertNotEqual(after, before)
    }

    func testATagThatIsNoTagShowsSubscriptionLocaleUnderTheField() throws {
        let a = firstDevice()
        a.focus(field: "locale")
        a.type("xx-!!")
        assertScreen(a, "aTagThatIsNoTag")
        a.press(.back)
        assertScreen(a, "aTagThatIsNoTagInTheTable")
        // Cleared, the device takes the recipient's language: no finding left.
        a.press(.open)
        a.focus(field: "locale")
        clearField(a)
        XCTAssertNil((a.top as? DeviceEditorScreen)?.device?.locale)
        assertScreen(a, "clearedTakesTheRecipients")
    }

    /// Saved on disk (a hand edit, a merge): the findings view lists both, and Enter on each
    /// opens the field that holds it.
    func testAFindingOfASavedBadLanguageJumpsToItsField() throws {
        var ana = DemoStore.ana
        ana.subscriptions[1].locale = "klingon!"
        ana.fields.append(("locale", "Portuguese"))
        try store.save(ana)
        let a = console()
        a.press(.findings)
        assertScreen(a, "bothFindingsListed")
        guard let findings = a.top as? FindingsScreen else { return XCTFail("no findings view") }
        let rows = findings.shown.map(\.field.description)
        let device = try XCTUnwrap(rows.firstIndex(of: "subscriptions[1].locale"), "\(rows)")
        let recipient = try XCTUnwrap(rows.firstIndex(of: "locale"), "\(rows)")
        for _ in 0..<device { a.press(.down) }
        a.press(.open)
        XCTAssertEqual(a.stack.map(\.title), ["Services", "Test devices › ana", "Test devices › ana › Ana's Pixel 8"])
        XCTAssertEqual(a.focusedField, "locale")
        assertScreen(a, "theDevicesLanguageFocused")
        a.press(.back)
        a.press(.back)
        a.press(.findings)
        for _ in 0..<recipient { a.press(.down) }
        a.press(.open)
        XCTAssertEqual(a.focusedField, "field:locale")
    }

    func testTheRecipientsLanguageIsAFieldWithItsFinding() throws {
        let a = console()
        a.press(.testDevices)
        a.press(.open)  // ana
        a.focus(field: "field:email")
        a.press(.addField)
        a.type("locale")
        a.handle(.enter)
        XCTAssertEqual(a.focusedField, "field:locale")
        a.type("pt_br")
        assertScreen(a, "recipientsLanguageForEveryDevice")
        clearField(a)
        a.type("Portuguese")
        assertScreen(a, "recipientsLanguageThatIsNoTag")
        clearField(a)
        a.type("pt-BR")
        a.press(.save)
        XCTAssertEqual(a.message, "Saved profiles/ana.xml")
        let ana = try store.load(Profile.self, "ana")
        XCTAssertEqual(ana.value(of: "locale"), "pt-BR")
        XCTAssertEqual(ana.subscriptions.map { ana.language(of: $0)?.description }, ["pt-BR", "pt-BR"])
        // The device editor says where an empty Language comes from.
        a.focus(field: "devices")
        a.press(.open)
        a.focus(field: "locale")
        assertScreen(a, "emptyTakesTheRecipientsPtBR")
    }
}
