import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The Channels tab in-process: deleting a channel that an open delivery draft subscribes
/// its Live Activities to (`inputPushChannel`) asks first and names that draft; No asks
/// Apple nothing.
final class ChannelsTabTests: WholeScreenTestCase {
    private let id = "bWF0Y2gtMTIwNA=="

    func testDeletingTheChannelOfAnOpenDraftNamesTheDraft() throws {
        var service = try store.load(Service.self, "neotrips")
        if case .ios(var a) = service.apps[0] {
            // The second channel's id breaks channel.id: a finding to jump to from the composer.
            a.channels = [BroadcastChannel(id: id, label: "Match 1204"), BroadcastChannel(id: "bad!", label: "Bad")]
            service.apps[0] = .ios(a)
        }
        try store.save(service)
        try store.save(
            Delivery(
                name: "aaa-trip", label: "Trip", service: "neotrips",
                content: DeliveryContent(title: "Boarding", body: "Gate B12"), ios: IOSOptions(type: .liveactivity),
                liveActivity: LiveActivity(
                    event: "start", attributesType: "TripAttributes", inputPushChannel: id,
                    contentState: #"{"gate":"B12"}"#, attributes: #"{"flight":"NT 401"}"#)))
        let a = console()
        a.press(.deliveries)
        a.press(.open)
        XCTAssertEqual(a.stack.last?.title.hasPrefix("Delivery aaa-trip"), true, a.stack.map(\.title).description)
        // From the composer, the service's finding opens the app editor on its Channels tab;
        // the composer (the delivery's draft) stays open below.
        a.press(.findings)
        a.press(.filter)
        a.type("channel.id")
        a.handle(.enter)
        a.press(.open)
        XCTAssertEqual(a.focusTab, "channels", a.stack.map(\.title).description)
        XCTAssertEqual(a.stack.sessions(of: Delivery.self).map(\.draft.name), ["aaa-trip"])
        a.press(.top)
        a.press(.delete)
        let dialog = try XCTUnwrap(a.dialog)
        XCTAssertEqual(dialog.title, "Delete channel")
        // The channel by label and id, and the open draft that subscribes to it.
        assertScreen(a, "deleteAsksNamingTheOpenDraft")
        a.handle(.enter)  // No, the focused button
        XCTAssertNil(a.dialog)
        XCTAssertEqual(a.jobs.runningJobs, 0, "no call was started")
        XCTAssertEqual(try store.load(Service.self, "neotrips"), service, "the file is as it was")
    }
}
