import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Screens are handed an `AppContext`, not the app: reads and questions that answer with
/// effects, nothing to write. Only `ConsoleApp.apply` changes the app.
final class AppContextTests: DemoStoreConsoleTestCase {
    func testAScreenReceivesAReadOnlyContextThatCannotReachTheApp() throws {
        // The type each screen method receives; these lines compile only while it is AppContext.
        let handle: (ConsoleScreen) -> (Action, AppContext) -> Effect? = { $0.handle }
        let update: (ConsoleScreen) -> (Rect, AppContext) -> Void = { $0.update }
        let answer: (Question) -> (Dialog.Result, AppContext) -> Effect = { $0.answer }
        // The app's own questions answer the same way, from the same context.
        let offer: (RecoveryOffers) -> (RecoveryOffers.Reply, AppContext) -> Effect = { $0.answer }
        let conflict: (SaveConflict) -> (SaveConflict.Reply, AppContext) -> Effect = { $0.answer }
        _ = (handle, update, answer, offer, conflict)

        let a = app()
        let context = a.context
        // A value of its own, not the app under another name: no cast reaches the app.
        XCTAssertNil(context as Any as? ConsoleApp)
        // Every piece of state it shows is read-only (no key path to it is writable).
        let state: [PartialKeyPath<AppContext>] = [
            \.services, \.deliveries, \.profiles, \.findings, \.loadErrors, \.loading, \.git, \.storeRoot,
            \.storeURL, \.environment, \.isReadOnly, \.dialog, \.viewWidth, \.viewHeight, \.clock,
        ]
        for path in state {
            XCTAssertFalse("\(Swift.type(of: path))".contains("Writable"), "\(path) can be written")
        }
        XCTAssertEqual(context.services.map(\.name), a.services.map(\.name))

        // A screen answers with an effect; the app is unchanged until it applies it.
        let list = try XCTUnwrap(a.top as? ServicesListScreen)
        let effect = try XCTUnwrap(list.respond(.delete, app: context))
        XCTAssertNil(a.dialog)
        a.apply(effect)
        XCTAssertEqual(a.dialog?.title, "Delete service")
    }

    /// The app's own dialogs (the theme, unsaved changes) answer with effects like the
    /// screens': answering changes nothing; applying the answer does.
    func testTheAppsOwnQuestionsAnswerWithEffects() throws {
        let a = ConsoleApp(store: .open(store), themeName: "default", availableThemes: ["default", "light"])
        a.press(.themes)
        let theme = try XCTUnwrap(a.question).answer(.choice(1), a.context)
        guard case .setTheme("light") = theme else { return XCTFail("\(theme)") }
        XCTAssertNil(a.takeOutputs().theme, "answering changed nothing")
        a.handle(.escape)
        a.apply(theme)
        XCTAssertEqual(a.takeOutputs().theme, "light")

        a.press(.open)
        a.type("x")
        a.press(.back)
        XCTAssertEqual(a.dialog?.title, "Unsaved changes")
        let q = try XCTUnwrap(a.question)
        guard case .saveAll(let sessions, then: .pop) = q.answer(.button(0), a.context) else {
            return XCTFail("Save saves, then leaves")
        }
        XCTAssertEqual(sessions.count, 1)
        let discard = q.answer(.button(1), a.context)
        guard case .pop = discard else { return XCTFail("Discard leaves: \(discard)") }
        XCTAssertTrue(a.top is ServiceEditorScreen, "answering changed nothing")
        a.question = nil
        a.apply(discard)
        XCTAssertTrue(a.top is ServicesListScreen)
    }
}
