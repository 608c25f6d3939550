import Foundation
import XCTest

@testable import PushDeskCore

/// `<liveActivity>` in the delivery file, its `aps`, and the `liveactivity.*` rules (docs/PAYLOADS.md).
final class LiveActivityTests: XCTestCase {
    private let at = 1_796_136_000
    private let now = Date(timeIntervalSince1970: 1_796_136_000)

    // MARK: file

    func testTheElementRoundTripsRightAfterIOSWithTheTextsAsWritten() throws {
        let d = liveActivityDelivery()
        let xml = try DeliveryXML.encode(d)
        XCTAssertTrue(
            xml.contains(
                """
                  <liveActivity event="start" attributesType="TripAttributes" staleDate="2026-12-01T18:00:00Z" inputPushToken="true" inputPushChannel="dHJpcHMtbGl2ZQ==">
                    <contentState>{"status":"boarding","gate":"B12","eta":1.764612E9,"seats":[1,2.50]}</contentState>
                    <attributes>{"flight":"NT 401","from":"LIS","to":"HND"}</attributes>
                  </liveActivity>
                """), xml)
        let ios = try XCTUnwrap(xml.range(of: "<ios "))
        let live = try XCTUnwrap(xml.range(of: "<liveActivity "))
        XCTAssertLessThan(ios.lowerBound, live.lowerBound)
        let (back, _) = try DeliveryXML.decode(Data(xml.utf8), file: "deliveries/flight.xml")
        XCTAssertEqual(back, d)
        XCTAssertEqual(try DeliveryXML.encode(back), xml)
    }

    func testFileErrorsArePositioned() throws {
        func error(_ inner: String) -> StoreError? {
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <delivery format="1" name="x" service="s">
                  <ios type="alert"/>
                \(inner)
                </delivery>
                """
            do {
                _ = try DeliveryXML.decode(Data(xml.utf8), file: "deliveries/x.xml")
                return nil
            } catch let e as StoreError {
                return e
            } catch {
                XCTFail("\(error)")
                return nil
            }
        }
        let missing = try XCTUnwrap(error(#"  <liveActivity event="update"/>"#))
        XCTAssertEqual([missing.line, missing.column], [4, 3])
        XCTAssertTrue(missing.message.contains("needs <contentState>"), missing.message)
        let unknown = try XCTUnwrap(
            error(#"  <liveActivity event="end" colour="red"><contentState>{}</contentState></liveActivity>"#))
        XCTAssertEqual([unknown.line, unknown.column], [4, 29])
        let flag = try XCTUnwrap(
            error(#"  <liveActivity inputPushToken="yes"><contentState>{}</contentState></liveActivity>"#))
        XCTAssertTrue(flag.message.contains("expected true|false"), flag.message)
        XCTAssertEqual([flag.line, flag.column], [4, 17])
    }

    // MARK: aps

    func testAPSHoldsTheKeysInSpecOrderWithTheJSONAsWritten() throws {
        let payload = LiveActivityPayload.payload(delivery: liveActivityDelivery(), timestamp: at)
        XCTAssertEqual(
            payload.compact,
            #"{"aps":{"timestamp":1796136000,"event":"start","content-state":{"status":"boarding","gate":"B12","eta":1.764612E9,"seats":[1,2.50]},"attributes-type":"TripAttributes","attributes":{"flight":"NT 401","from":"LIS","to":"HND"},"stale-date":1796148000,"relevance-score":75,"input-push-token":1,"input-push-channel":"dHJpcHMtbGl2ZQ==","alert":{"title":"Boarding","body":"Gate B12 <now> & \"soon\"","sound":"chime.caf"}}}"#
        )
        XCTAssertEqual(
            LiveActivityPayload.payloadBytes(delivery: liveActivityDelivery(), timestamp: at),
            payload.compactByteCount)
    }

    func testUpdateAndEndSendOnlyWhatTheirEventTakes() throws {
        var end = liveActivityDelivery(event: "end")
        end.liveActivity?.dismissalDate = "2026-12-01T19:00:00Z"
        end.content = DeliveryContent()
        end.ios = IOSOptions()
        XCTAssertEqual(
            LiveActivityPayload.payload(delivery: end, timestamp: at).compact,
            #"{"aps":{"timestamp":1796136000,"event":"end","content-state":{"status":"boarding","gate":"B12","eta":1.764612E9,"seats":[1,2.50]},"stale-date":1796148000,"dismissal-date":1796151600}}"#
        )
        var update = liveActivityDelivery(event: "update")
        update.liveActivity?.contentState = "{\"gate\": \"C3\" ,\n \"delay\":15}"
        update.liveActivity?.staleDate = nil
        update.content = DeliveryContent(title: "Gate change")
        update.ios = IOSOptions(critical: true, volume: "0.5")
        XCTAssertEqual(
            LiveActivityPayload.payload(delivery: update, timestamp: at).compact,
            #"{"aps":{"timestamp":1796136000,"event":"update","content-state":{"gate":"C3","delay":15},"alert":{"title":"Gate change","sound":{"critical":1,"name":"default","volume":0.5}}}}"#
        )
    }

    func testATextThatDoesNotReadIsLeftOut() {
        var d = liveActivityDelivery(event: "update")
        d.liveActivity?.contentState = #"{"eta":1e999}"#
        d.liveActivity?.staleDate = "tomorrow"
        d.content = DeliveryContent()
        d.ios = IOSOptions()
        XCTAssertEqual(
            LiveActivityPayload.payload(delivery: d, timestamp: at).compact,
            #"{"aps":{"timestamp":1796136000,"event":"update"}}"#)
    }

    // MARK: rules

    private func rules(_ d: Delivery, priority: String = "5") -> [String: [Finding]] {
        Dictionary(
            grouping: LiveActivityRules.findings(d, priority: priority, now: now, file: "deliveries/x.xml"),
            by: \.rule)
    }

    func testAGoodStartHasNoFindingButTheBudgetNote() {
        var d = liveActivityDelivery()
        d.liveActivity?.staleDate = "2026-12-02T00:00:00Z"
        XCTAssertEqual(rules(d).keys.sorted(), [])
        let budget = rules(d, priority: "10")["liveactivity.budget"]
        XCTAssertEqual(budget?.map(\.severity), [.info])
        XCTAssertEqual(budget?.first?.field, "ios.priority")
    }

    func testEvent() {
        var d = liveActivityDelivery()
        d.liveActivity?.event = nil
        XCTAssertEqual(rules(d)["liveactivity.event"]?.map(\.field), ["liveActivity.event"])
        d.liveActivity?.event = "stop"
        XCTAssertTrue(rules(d)["liveactivity.event"]?.first?.message.contains("\"stop\"") == true)
        d.liveActivity?.event = "update"
        d.liveActivity?.dismissalDate = "2026-12-01T19:00:00Z"
        XCTAssertEqual(
            rules(d)["liveactivity.event"]?.map(\.field.description),
            [
                "liveActivity.attributesType", "liveActivity.attributes", "liveActivity.inputPushToken",
                "liveActivity.inputPushChannel", "liveActivity.dismissalDate",
            ])
        XCTAssertTrue(rules(d)["liveactivity.event"]!.allSatisfy { $0.severity == .error })
        var none = liveActivityDelivery()
        none.liveActivity = nil
        XCTAssertEqual(rules(none)["liveactivity.event"]?.map(\.field), ["ios.type"])
    }

    func testStartAlertAndAttributes() {
        var d = liveActivityDelivery()
        d.content.body = ""
        d.liveActivity?.attributesType = nil
        d.liveActivity?.attributes = nil
        let r = rules(d)
        XCTAssertEqual(r["liveactivity.start-alert"]?.map(\.field), ["content.body"])
        XCTAssertEqual(
            r["liveactivity.start-attributes"]?.map(\.field),
            ["liveActivity.attributesType", "liveActivity.attributes"])
        XCTAssertNil(r["liveactivity.alert-title"], "a start's missing text is start-alert's")
    }

    func testAlertTitleOnUpdate() {
        var d = liveActivityDelivery(event: "update")
        d.liveActivity?.attributesType = nil
        d.liveActivity?.attributes = nil
        d.liveActivity?.inputPushToken = nil
        d.liveActivity?.inputPushChannel = nil
        d.content = DeliveryContent(body: "Delayed")
        XCTAssertEqual(rules(d)["liveactivity.alert-title"]?.map(\.severity), [.warning])
        d.content = DeliveryContent()
        d.ios.sound = "default"
        XCTAssertEqual(rules(d)["liveactivity.alert-title"]?.map(\.field), ["content.title"])
        d.ios.sound = nil
        XCTAssertEqual(rules(d).keys.sorted(), [])
    }

    func testDates() {
        var d = liveActivityDelivery(event: "end")
        d.liveActivity?.attributesType = nil
        d.liveActivity?.attributes = nil
        d.liveActivity?.inputPushToken = nil
        d.liveActivity?.inputPushChannel = nil
        d.liveActivity?.staleDate = "2026-11-01T00:00:00Z"
        d.liveActivity?.dismissalDate = "2026-12-01T18:40:01Z"  // 4 h and 1 s after now
        var r = rules(d)
        XCTAssertEqual(r["liveactivity.stale-date"]?.map(\.severity), [.warning])
        XCTAssertEqual(r["liveactivity.dismissal-date"]?.map(\.severity), [.warning])
        d.liveActivity?.dismissalDate = "2026-12-01T18:40:00Z"
        d.liveActivity?.staleDate = "soon"
        r = rules(d)
        XCTAssertNil(r["liveactivity.dismissal-date"])
        XCTAssertEqual(r["liveactivity.date"]?.map(\.field), ["liveActivity.staleDate"])
    }

    /// Each bad text is a `liveactivity.json` error whose position, added to where the text
    /// starts in the file, is the line:column of the problem in the file.
    func testBadJSONIsPositionedInTheFile() throws {
        let cases: [(json: String, line: Int, column: Int, words: String)] = [
            ("[1,2]", 5, 19, "a JSON object"),
            (#"{"gate":"B12",\#n     "gate":"C3"}"#, 6, 6, "given twice"),
            (#"{"eta":1e999}"#, 5, 26, "out of range"),
            (#"{"s":"\ud83c"}"#, 5, 25, "surrogate"),
            (#"{"a":1} trailing"#, 5, 27, "after the end"),
            (String(repeating: "[", count: 40), 5, 19, "a JSON object"),
            ("{" + String(repeating: #""a":{"#, count: 40), 5, 19 + 5 * 32, "nested more than 32"),
        ]
        for c in cases {
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <delivery format="1" name="x" service="s">
                  <ios type="alert"/>
                  <liveActivity event="update">
                    <contentState>\(c.json)</contentState>
                  </liveActivity>
                </delivery>
                """
            let (d, map) = try DeliveryXML.decode(Data(xml.utf8), file: "deliveries/x.xml")
            let f = try XCTUnwrap(rules(d)["liveactivity.json"]?.first, c.json)
            XCTAssertEqual(f.severity, .error)
            XCTAssertEqual(f.field, "liveActivity.contentState")
            XCTAssertTrue(f.message.contains(c.words), f.message)
            let start = try XCTUnwrap(map.position(of: f.field.description))
            let p = start.offset(by: try XCTUnwrap(f.within))
            XCTAssertEqual([p.line, p.column], [c.line, c.column], c.json)
        }
    }

    /// docs/RULES.md documents exactly the `liveactivity.*` rules these deliveries fire.
    func testTheCatalogueIsTheRulesThatFire() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/RULES.md"), encoding: .utf8)
        let ids = Set(
            text.components(separatedBy: "\n### `liveactivity.").dropFirst().compactMap {
                $0.split(separator: "`").first.map { "liveactivity." + $0 }
            })
        var bad = liveActivityDelivery()
        bad.content.body = ""
        bad.liveActivity?.attributes = "[]"
        bad.liveActivity?.attributesType = nil
        bad.liveActivity?.staleDate = "2020-01-01T00:00:00Z"
        var end = liveActivityDelivery(event: "end")
        end.content = DeliveryContent(body: "Landed")
        end.liveActivity?.dismissalDate = "2027-01-01T00:00:00Z"
        end.liveActivity?.staleDate = "later"
        var unknown = liveActivityDelivery(event: "pause")
        unknown.liveActivity = nil
        var stateless = liveActivityDelivery(event: "update")
        stateless.liveActivity?.contentState = ""
        var fired = Set<String>()
        for d in [bad, end, unknown, stateless] { fired.formUnion(rules(d, priority: "10").keys) }
        var subscribing = liveActivityDelivery()
        subscribing.liveActivity?.inputPushChannel = "dHJpcHMtbGl2ZQ=="
        let app = IOSApp(
            environment: .sandbox, label: "Trips", integrationKey: "trips-ios-dev", bundleId: "com.x.trips")
        fired.formUnion(
            LiveActivityRules.findings(subscribing, priority: "5", now: now, file: "deliveries/x.xml", app: app).map(
                \.rule))
        XCTAssertEqual(ids, fired)
        XCTAssertEqual(ids.count, 11)
    }
}
