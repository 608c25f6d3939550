import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

/// The iOS app editor's Channels tab in a real terminal at 80×24, against the loopback mock
/// of Apple's channel management API (docs/SENDING.md): create a channel by its label, fetch
/// Apple's list (an id only Apple has, escaped), delete after the confirmation — each
/// checked on the screen, in the mock and in the service file.
final class TmuxChannelsTests: TmuxTestCase {
    private func channels() throws -> [BroadcastChannel] {
        let s = try Store(root: store).load(Service.self, "neotrips")
        guard case .ios(let a) = s.apps[0] else { return [] }
        return a.channels
    }

    func testCreateFetchAndDeleteFromTheChannelsTab() throws {
        let mock = try MockPushServices(store: store)
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: mock.environment())
        t.openFirstApp()
        t.press("C-o", until: "Channels (f fetch")
        t.waitFor("Apple's list not fetched yet")

        t.keys("n")
        t.waitFor("Label of the channel")
        t.type("Match 1204")
        t.keys("Enter")
        t.waitFor("Message storage (cannot change later)")
        t.keys("Enter")  // none, the first choice
        t.waitFor("Created “Match 1204”")
        let created = try XCTUnwrap(mock.channels.channels.first)
        XCTAssertEqual(created.storage, 0)
        t.waitFor(String(created.id.prefix(20)))
        XCTAssertEqual(try channels(), [BroadcastChannel(id: created.id, label: "Match 1204")])
        let post = try XCTUnwrap(mock.channels.manage.requests.last)
        XCTAssertEqual(
            String(decoding: post.body, as: UTF8.self), #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)

        // Apple also holds an id a hostile server made up: it shows escaped, flagged.
        mock.channels.addChannel("\u{1B}[31mRED")
        t.keys("f")
        t.waitFor("Apple lists 2 channels.")
        let screen = t.waitFor("(not in the store)")
        XCTAssertTrue(screen.contains(#"\u{1B}[31mRED"#), screen)
        XCTAssertFalse(t.screen(escapes: true).contains("\u{1B}[31mRED"))

        // Delete: asks first; No (the focused button) asks Apple nothing.
        t.keys("g")
        t.keys("d")
        t.waitFor("Delete channel “Match 1204”")
        t.keys("Enter")
        _ = t.waitUntil("the question closed") { !$0.contains("Delete channel “Match 1204”") }
        XCTAssertEqual(mock.channels.channels.count, 2)
        XCTAssertEqual(mock.channels.manage.requests.filter { $0.method == "DELETE" }.count, 0)
        t.keys("d")
        t.waitFor("Delete channel “Match 1204”")
        t.keys("y")  // the button's first letter
        t.waitFor("Deleted “Match 1204” at Apple; removed from the file.")
        XCTAssertEqual(mock.channels.channels.map(\.id), ["\u{1B}[31mRED"])
        XCTAssertEqual(mock.channels.manage.requests.last?.header("apns-channel-id"), created.id)
        XCTAssertEqual(try channels(), [])
        XCTAssertEqual(mock.problems + mock.channels.problems, [])
        t.keys("C-q")
    }

    func testAnUnsavedDraftIsSavedFirstAndApplesRefusalIsShown() throws {
        let mock = try MockPushServices(store: store)
        mock.channels.broadcastEnabled = false
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: mock.environment())
        t.openFirstApp()
        t.focus(field: "Label")
        t.type("!")
        t.press("C-o", until: "Channels (f fetch")
        t.keys("n")
        t.waitFor("Save first")
        t.keys("Enter")
        XCTAssertEqual(mock.channels.manage.requests.count, 0)
        t.keys("C-s")
        t.waitFor("Saved")
        t.keys("n")
        t.waitFor("Label of the channel")
        t.type("Final")
        t.keys("Enter")
        t.waitFor("Message storage")
        t.keys("Enter")
        t.waitFor("FeatureNotEnabled")
        t.waitFor("Capability")
        XCTAssertEqual(try channels(), [])
        t.keys("C-q")
    }
}

/// The composer's Send test of a Live Activity update offers the app's channels and
/// broadcasts to the one chosen, through the loopback broadcast mock.
final class TmuxBroadcastSendTests: TmuxTestCase {
    func testSendTestOffersTheChannelsOfALiveActivityUpdate() throws {
        let mock = try MockPushServices(store: store)
        try mock.saveProfile([])
        let s = Store(root: store)
        var service = try s.load(Service.self, "neotrips")
        if case .ios(var a) = service.apps[0] {
            a.channels = [BroadcastChannel(id: "bWF0Y2gtMTIwNA==", label: "Match 1204")]
            service.apps[0] = .ios(a)
        }
        try s.save(service)
        mock.channels.addChannel("bWF0Y2gtMTIwNA==")
        try s.save(
            Delivery(
                name: "zz-match", label: "Match", service: "neotrips",
                content: DeliveryContent(title: "Goal!", body: "2-1"), ios: IOSOptions(type: .liveactivity),
                liveActivity: LiveActivity(event: "update", contentState: #"{"score":"2-1"}"#)))
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: mock.environment())
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("zz-match")
        t.keys("G")
        t.keys("Enter")
        t.waitFor("Delivery zz-match")
        t.keys("C-g")
        t.waitFor("which test devices?")
        t.waitFor("Channel “Match 1204” of Neotrips iOS (sandbox) (broadcast)")
        t.keys("Enter")
        t.waitFor("Send zz-match to the subscribers of channel bWF0Y2gtMTIwNA==?")
        t.keys("Enter")
        t.waitFor("Done: 1 sent")
        let request = try XCTUnwrap(mock.channels.broadcast.requests.first)
        XCTAssertEqual(mock.channels.broadcast.requests.count, 1)
        XCTAssertEqual(request.header("apns-channel-id"), "bWF0Y2gtMTIwNA==")
        XCTAssertEqual(request.header("apns-push-type"), "liveactivity")
        XCTAssertNil(request.header("apns-topic"))
        XCTAssertEqual(mock.apns.requests.count, 0)
        let log = try String(contentsOf: store.appendingPathComponent(SendLog.relativePath), encoding: .utf8)
        XCTAssertTrue(log.contains(#""channel":"bWF0Y2gtMTIwNA==""#), log)
        t.keys("Escape")
        t.waitFor("Delivery zz-match")
        t.keys("C-q")
    }
}

/// `pushdesk channels delete` on a terminal asks first: n keeps the channel, y deletes it
/// at Apple and from the file.
final class TmuxChannelsDeletePromptTests: TmuxTestCase {
    func testDeleteAsksOnATerminal() throws {
        let mock = try MockPushServices(store: store)
        let id = "bWF0Y2gtMTIwNA=="
        mock.channels.addChannel(id)
        let s = Store(root: store)
        var service = try s.load(Service.self, "neotrips")
        if case .ios(var a) = service.apps[0] {
            a.channels = [BroadcastChannel(id: id, label: "Match 1204")]
            service.apps[0] = .ios(a)
        }
        try s.save(service)
        let args = ["channels", "delete", "--app", "neotrips-ios-dev", "--label", "Match 1204", "--store", store.path]
        var t = try TmuxHarness(width: 100, height: 24, args: args, env: mock.environment())
        t.waitFor("Delete channel “Match 1204” (\(id)) of Neotrips iOS (sandbox) at Apple?")
        t.type("n")
        t.keys("Enter")
        t.waitFor("PD-EXIT=2")
        assertScreen(
            text: t.screen(), "deleteAnsweredNo", size: "100x24",
            masks: [(NSRegularExpression.escapedPattern(for: id), "CHANNEL-ID")])
        XCTAssertEqual(mock.channels.channels.count, 1)
        XCTAssertEqual(mock.channels.manage.requests.count, 0)

        t = try TmuxHarness(width: 100, height: 24, args: args, env: mock.environment())
        t.waitFor("[y/N]")
        t.type("y")
        t.keys("Enter")
        t.waitFor("PD-EXIT=0")
        assertScreen(
            text: t.screen(), "deleteAnsweredYes", size: "100x24",
            masks: [(NSRegularExpression.escapedPattern(for: id), "CHANNEL-ID")])
        XCTAssertEqual(mock.channels.channels.count, 0)
        guard case .ios(let after) = try s.load(Service.self, "neotrips").apps[0] else { return XCTFail("no iOS app") }
        XCTAssertEqual(after.channels, [])
    }
}
