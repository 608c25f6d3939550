import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A list read from the store reads it again when it comes back to the front: the
/// `willAppear` the app calls (through `ConsoleScreen`) is `StoreListScreen`'s `refresh`.
final class StoreListScreenTests: DemoStoreConsoleTestCase {
    private final class Probe: StoreListScreen {
        var view = TableView(columns: [.init("Name")])
        var title: String { "Probe" }
        var listContext: KeyContext? { nil }
        private(set) var refreshed = 0
        func refresh(_ app: AppContext) { refreshed += 1 }
        func handle(_ action: Action, app: AppContext) -> Effect? { nil }
        func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view: inout TableView) {}
    }

    func testComingBackToTheFrontRefreshesTheRows() {
        let a = app()
        let probe = Probe()
        let screen: ConsoleScreen = probe
        screen.willAppear(app: a.context)
        screen.willAppear(app: a.context)
        XCTAssertEqual(probe.refreshed, 2)
    }
}
