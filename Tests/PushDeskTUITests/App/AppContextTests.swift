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
        _ = (handle, update, answer)

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
        let effect = try XCTUnwrap(list.handle(.delete, app: context))
        XCTAssertNil(a.dialog)
        a.apply(effect)
        XCTAssertEqual(a.dialog?.title, "Delete service")
    }
}
