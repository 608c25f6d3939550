import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Views answer keys with effects and only `ConsoleApp.apply` carries them out; a dialog
/// answers with a value of its asker's reply type.
final class EffectTests: DemoStoreConsoleTestCase {
    func testAViewAnswersWithAnEffectAndTheAppAppliesIt() throws {
        let a = app()
        let list = try XCTUnwrap(a.top as? ServicesListScreen)
        let effect = try XCTUnwrap(list.respond(.delete, app: a.context))
        XCTAssertNil(a.dialog, "asking changed nothing in the app")
        guard case .ask(let q) = effect else { return XCTFail("\(effect)") }
        XCTAssertEqual(q.dialog.title, "Delete service")
        a.apply(effect)
        XCTAssertEqual(a.dialog?.title, "Delete service")
        a.handle(.escape)  // Esc keeps everything
        XCTAssertNil(a.dialog)
        XCTAssertEqual(try store.names(Service.self), ["neotrips"])
        a.press(.delete)
        a.handle(.char("y"))  // Yes: the app's one delete runs
        XCTAssertEqual(try store.names(Service.self), [])
        XCTAssertEqual(a.message, "Deleted services/neotrips.xml")
    }

    func testADialogAnswersWithTheAskersReplyType() {
        enum Reply: Equatable { case save, discard, cancel }
        let ask = Ask<Reply>.buttons(
            "Unsaved", "Save?", [("Save", .save), ("Discard", .discard), ("Cancel", .cancel)], focus: 0,
            cancel: .cancel)
        XCTAssertEqual(ask.reply(.button(1)), .discard)
        XCTAssertEqual(ask.reply(.cancelled), .cancel)
        var d = ask.dialog
        XCTAssertEqual(d.handle(.char("d")).map(ask.reply), .discard)
        let text = Ask<String?>.text("Name", "A name:", value: "x") { $0 }
        var t = text.dialog
        _ = t.handle(.char("y"))
        XCTAssertEqual(t.handle(.enter).map(text.reply), "xy")
        XCTAssertEqual(text.reply(.cancelled), String?.none)
    }
}
