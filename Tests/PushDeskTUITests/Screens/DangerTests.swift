import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// A binding marked `dangerous` in the key registry is asked about by the framework, the
/// same question everywhere: the views say what they would delete, never ask themselves.
final class DangerTests: DemoStoreConsoleTestCase {
    func testEveryDangerousBindingAsksTheOneQuestion() throws {
        // A channel of the sandbox app, for the Channels tab's delete.
        var service = try store.load(Service.self, "neotrips")
        if case .ios(var ios) = service.apps[0] {
            ios.channels = [BroadcastChannel(id: "bWF0Y2gtMTIwNA==", label: "Match 1204")]
            service.apps[0] = .ios(ios)
        }
        try store.save(service)
        // A language variant of the first delivery, for the composer's Languages tab.
        let first = try XCTUnwrap(try store.names(Delivery.self).first)
        var delivery = try store.load(Delivery.self, first)
        delivery.variants = [DeliveryVariant(locale: "de", title: "Der Sommer ist da")]
        try store.save(delivery)
        let a = app()
        let deliveries = try store.names(Delivery.self)
        XCTAssertFalse(deliveries.isEmpty)
        var seen = Set<KeyContext>()
        func expectQuestion(_ title: String, file: StaticString = #filePath, line: UInt = #line) {
            guard let b = KeyRegistry.bindings(in: a.policy.activeContexts).first(where: \.dangerous) else {
                return XCTFail("no dangerous binding in \(a.policy.activeContexts)", file: file, line: line)
            }
            seen.insert(b.context)
            XCTAssertNil(
                a.top.handle(b.action, app: a.context), "\(Swift.type(of: a.top)) answers \(b.action) itself",
                file: file,
                line: line)
            a.handle(b.keys[0])
            XCTAssertEqual(a.dialog?.title, title, file: file, line: line)
            XCTAssertEqual(a.dialog?.buttons, ["Yes", "No"], file: file, line: line)
            XCTAssertEqual(a.dialog?.focusedButton, 1, "No is focused", file: file, line: line)
            a.handle(.enter)  // No: everything stays
            XCTAssertNil(a.dialog, file: file, line: line)
        }
        expectQuestion("Delete service")
        a.press(.deliveries)
        expectQuestion("Delete delivery")
        a.press(.open)  // the composer of the first delivery
        a.show(tab: "languages")
        a.press(.down)  // de, after the default
        expectQuestion("Delete language")
        XCTAssertEqual(a.top.session?.isDirty, false, "No kept the variant")
        a.press(.back)
        a.press(.back)
        a.press(.testDevices)
        expectQuestion("Delete profile")
        a.press(.back)
        a.press(.open)
        a.press(.prevField)  // from the first field to the apps table
        expectQuestion("Delete app")
        a.press(.open)  // the sandbox app's editor
        a.show(tab: "channels")
        expectQuestion("Delete channel")
        XCTAssertEqual(a.jobs.runningJobs, 0, "No asked Apple nothing")
        XCTAssertEqual(
            seen, Set(KeyRegistry.bindings.filter(\.dangerous).map(\.context)), "every dangerous binding is exercised")
        XCTAssertEqual(try store.names(Service.self), ["neotrips"])
        XCTAssertEqual(try store.names(Delivery.self), deliveries)
        XCTAssertEqual(try store.names(Profile.self), ["ana"])
        XCTAssertEqual(a.top.session?.isDirty, false, "No kept the apps")
    }

    /// Yes does what the view said: on the service editor's apps, the app leaves the draft.
    func testYesDoesWhatTheViewSaid() throws {
        let a = app()
        a.press(.open)
        a.press(.prevField)
        let before = try XCTUnwrap((a.top as? ServiceEditorScreen)?.s.draft.apps)
        a.press(.delete)
        XCTAssertEqual(
            a.dialog?.message, "Delete '\(before[0].label)' (\(before[0].integrationKey)) from this service?")
        a.handle(.char("y"))
        XCTAssertEqual((a.top as? ServiceEditorScreen)?.s.draft.apps, Array(before.dropFirst()))
        XCTAssertEqual(a.top.session?.isDirty, true)
    }
}
