import Foundation
import XCTest

@testable import PushDeskCore
@testable import PushDeskTUI

/// The Sends view of a delivery: the send log the core writes (`SendLog.append`, what
/// `pushdesk send` writes), newest first, the selected send in full with its hint.
final class SendsScreenTests: DemoStoreConsoleTestCase {
    func result(
        _ app: String, _ platform: Platform, _ token: String, _ outcome: SendOutcome, _ status: Int?, _ reason: String?
    )
        -> SendResult
    {
        var r = SendResult(
            app: app, platform: platform, api: platform == .ios ? "apns" : "httpv1", profile: "ana", device: "iPhone",
            token: token, endpoint: "https://127.0.0.1:1",
            messageId: "0b7c0000-0000-4000-8000-" + String(token.prefix(12)), bytes: 120)
        r.outcome = outcome
        r.status = status
        r.reason = reason
        r.attempts = 1
        r.madeRequest = true
        if outcome == .sent { (r.apnsId, r.apnsUniqueId) = ("11111111-2222-3333-4444-555555555555", "aaaa-bbbb") }
        return r
    }

    func writeLog() throws {
        var older = SendReport(delivery: "summer-sale", service: "neotrips", dryRun: false)
        older.results = [result("neotrips-ios-dev", .ios, String(repeating: "ab", count: 32), .sent, 200, nil)]
        try SendLog.append(older, storeRoot: root, time: Date(timeIntervalSince1970: 1_790_000_000))
        var newer = SendReport(delivery: "summer-sale", service: "neotrips", dryRun: false)
        newer.results = [
            result("neotrips-ios-dev", .ios, String(repeating: "cd", count: 32), .rejected, 400, "BadDeviceToken")
        ]
        try SendLog.append(newer, storeRoot: root, time: Date(timeIntervalSince1970: 1_790_000_600))
        var other = SendReport(delivery: "catalog-refresh", service: "neotrips", dryRun: false)
        other.results = [result("neotrips-ios-dev", .ios, String(repeating: "ef", count: 32), .sent, 200, nil)]
        try SendLog.append(other, storeRoot: root, time: Date(timeIntervalSince1970: 1_790_000_900))
    }

    func lines(_ a: ConsoleApp) -> [String] {
        let b = a.render(width: 80, height: 24)
        return (0..<b.height).map {
            b.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    func sendsOfSummerSale() -> ConsoleApp {
        let a = app()
        a.resize(width: 80, height: 24)
        a.press(.deliveries)
        for _ in 0..<4 where (a.top as? DeliveriesListScreen)?.selected?.name != "summer-sale" { a.press(.down) }
        a.press(.sends)
        return a
    }

    func testNewestFirstWithTheRejectionsHint() throws {
        try writeLog()
        let a = sendsOfSummerSale()
        let s = try XCTUnwrap(a.top as? SendsScreen)
        XCTAssertEqual(s.entries.map { $0["outcome"] as? String }, ["rejected", "sent"])
        let shown = normalized(lines(a))
        assertScreen(text: shown.joined(separator: "\n"), "newestFirstWithTheRejectionsHint", size: "80x24")
        a.press(.down)
        let b = a.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "apns-id        11111111-2222-3333-4444-555555555555"), b.text)
        XCTAssertNotNil(b.row(containing: "apns-unique-id aaaa-bbbb"), b.text)
        XCTAssertNil(b.row(containing: "Hint"), b.text)
    }

    /// What the app reported through `pushdesk listen` shows beside the send it matched:
    /// received and clicked, when and how long after the send.
    func testTrackingReportedByTheAppShowsBesideItsSend() throws {
        try writeLog()
        let sentAt = Date(timeIntervalSince1970: 1_790_000_600)
        for (event, after) in [(TrackingHit.Event.received, 3.0), (.clicked, 65.0), (.received, 90.0)] {
            var r = ListenRecord(time: sentAt + after, remote: "127.0.0.1:5", kind: .tracking, path: "/r/", status: 200)
            r.messageId = "0b7c0000-0000-4000-8000-cdcdcdcdcdcd"
            r.event = event
            try ListenLog.append(r, storeRoot: root)
        }
        let a = sendsOfSummerSale()
        var b = a.render(width: 80, height: 24)
        XCTAssertNotNil(
            b.row(containing: "09-21 14:23:20 neotrips-ios-dev cdcdcd…cdcd  rejected  400    rcv+clk BadDevi…"), b.text)
        XCTAssertNotNil(
            b.row(containing: "09-21 14:13:20 neotrips-ios-dev ababab…abab  sent      200          "), b.text)
        XCTAssertNil(b.row(containing: "ababab…abab  sent      200    rcv"), b.text)
        // The selected send's details: scroll past the hint to the message id and tracking.
        a.resize(width: 80, height: 60)
        b = a.render(width: 80, height: 60)
        XCTAssertNotNil(b.row(containing: "Message id     0b7c0000-0000-4000-8000-cdcdcdcdcdcd"), b.text)
        XCTAssertNotNil(b.row(containing: "Received       2026-09-21T14:23:23Z (3 s after)"), b.text)
        XCTAssertNotNil(b.row(containing: "Clicked        2026-09-21T14:24:25Z (1 min 5 s after)"), b.text)
        a.press(.down)
        b = a.render(width: 80, height: 60)
        XCTAssertNotNil(b.row(containing: "Received       not reported (pushdesk listen)"), b.text)
    }

    func testNoSendYetSaysWhereTheLogIs() throws {
        let a = sendsOfSummerSale()
        XCTAssertNotNil(
            a.render(width: 80, height: 24).row(containing: "No send of this delivery in .pushdesk/sent.jsonl yet."))
        a.press(.back)
        XCTAssertTrue(a.top is DeliveriesListScreen)
    }
}
