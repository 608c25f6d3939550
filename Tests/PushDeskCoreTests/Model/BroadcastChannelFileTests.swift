import Foundation
import XCTest

@testable import PushDeskCore

/// Broadcast channels in the service file (docs/SENDING.md): read and written in place, refused
/// with a position when malformed, checked by their rules, merged by id.
final class BroadcastChannelFileTests: XCTestCase {
    private let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    private func app(_ s: Service, _ i: Int) -> IOSApp? {
        if case .ios(let a) = s.apps[i] { return a }
        return nil
    }

    private func withChannels(_ channels: [BroadcastChannel], app i: Int = 0) -> Service {
        var s = DemoStore.neotrips
        if case .ios(var a) = s.apps[i] {
            a.channels = channels
            s.apps[i] = .ios(a)
        }
        return s
    }

    func testChannelsAreWrittenAfterSoundsAndReadBack() throws {
        let s = withChannels([
            BroadcastChannel(id: "dHJpcHMtbGl2ZQ==", label: "Match 1204"),
            BroadcastChannel(id: "bWF0Y2g=", storage: .mostRecent),
        ])
        let text = try ServiceXML.encode(s)
        XCTAssertTrue(
            text.contains(
                """
                    </sounds>
                    <channels>
                      <channel id="dHJpcHMtbGl2ZQ==" label="Match 1204" storage="none"/>
                      <channel id="bWF0Y2g=" storage="mostRecent"/>
                    </channels>
                  </iosApp>
                """), text)
        let decoded = try ServiceXML.decode(Data(text.utf8), file: "services/neotrips.xml").0
        XCTAssertEqual(decoded, s)
        XCTAssertEqual(try ServiceXML.encode(decoded), text)
        XCTAssertEqual(BroadcastChannel.definitions.names(), ["id", "label", "storage"])
    }

    func testStorageDefaultsToNoneAndABadOneIsPositioned() throws {
        let ok =
            head
            + #"<service format="1" name="s"><iosApp environment="sandbox"><channels><channel id="YQ=="/></channels></iosApp></service>"#
        XCTAssertEqual(
            try ServiceXML.decode(Data(ok.utf8), file: "services/s.xml").0.apps[0].channelsOfIOS.first?.storage,
            ChannelStorage.none)

        let bad =
            head
            + "<service format=\"1\" name=\"s\"><iosApp environment=\"sandbox\">\n<channels><channel id=\"YQ==\" storage=\"forever\"/></channels></iosApp></service>"
        XCTAssertThrowsError(try ServiceXML.decode(Data(bad.utf8), file: "services/s.xml")) { e in
            let e = e as? StoreError
            XCTAssertEqual(e?.line, 3)
            XCTAssertEqual(e?.column, 30, e?.description ?? "")
            XCTAssertTrue(e?.message.contains("expected none|mostRecent") == true, e?.message ?? "")
        }
        let unknown =
            head
            + "<service format=\"1\" name=\"s\"><iosApp environment=\"sandbox\">\n<channels><channel id=\"YQ==\" colour=\"red\"/></channels></iosApp></service>"
        XCTAssertThrowsError(try ServiceXML.decode(Data(unknown.utf8), file: "services/s.xml")) { e in
            XCTAssertEqual((e as? StoreError)?.line, 3)
            XCTAssertTrue((e as? StoreError)?.message.contains("expected one of: id, label, storage") == true, "\(e)")
        }
        // Android apps have no channels.
        let android = head + "<service format=\"1\" name=\"s\"><androidApp>\n<channels/></androidApp></service>"
        XCTAssertThrowsError(try ServiceXML.decode(Data(android.utf8), file: "services/s.xml")) { e in
            XCTAssertEqual((e as? StoreError)?.line, 3)
        }
    }

    func testBase64Ids() {
        for good in ["YQ==", "YWI=", "YWJj", "dHJpcHMtbGl2ZQ==", "a+/9"] {
            XCTAssertTrue(BroadcastChannel.isValidId(good), good)
        }
        for bad in ["", "YQ", "YQ=", "Y===", "Y=Q=", "YW J", "YWJj\n", "YQ==YQ==", "é123", "-_ab"] {
            XCTAssertFalse(BroadcastChannel.isValidId(bad), bad)
        }
    }

    func testRulesFireOnTheChannelsField() {
        XCTAssertEqual(ServiceRules.check(service: withChannels([BroadcastChannel(id: "YQ==", label: "A")])), [])
        let f = ServiceRules.check(
            service: withChannels([
                BroadcastChannel(id: "YQ==", label: "A"), BroadcastChannel(id: "not base64!", label: "B"),
                BroadcastChannel(id: "YWI=", label: "A"),
                BroadcastChannel(id: "", label: ""),
            ]))
        XCTAssertEqual(
            f.map { "\($0.rule) \($0.severity) \($0.field)" },
            [
                "channel.id error apps[0].channels[1].id", "channel.label-duplicate error apps[0].channels[2].label",
                "channel.id error apps[0].channels[3].id",
            ])
        XCTAssertTrue(f[0].message.contains("\"not base64!\""), f[0].message)
        // The same label on the sandbox and the production app is fine: labels pick within one app.
        var both = withChannels([BroadcastChannel(id: "YQ==", label: "A")])
        if case .ios(var a) = both.apps[1] {
            a.channels = [BroadcastChannel(id: "YWI=", label: "A")]
            both.apps[1] = .ios(a)
        }
        XCTAssertEqual(ServiceRules.check(service: both), [])
    }

    func testFindingsArePositionedOnTheAttribute() throws {
        let root = try makeTempDir(self)
        try Store(root: root).save(
            withChannels([BroadcastChannel(id: "YQ==", label: "A"), BroadcastChannel(id: "bad", label: "A")]))
        let text = try String(contentsOf: root.appendingPathComponent("services/neotrips.xml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let f = ServiceRules.check(Store(root: root).loadAll())
        for (rule, attribute) in [("channel.id", "id="), ("channel.label-duplicate", "label=")] {
            guard let hit = f.first(where: { $0.rule == rule }), let line = hit.line, let column = hit.column else {
                return XCTFail("\(rule) unpositioned: \(f.map(\.formatted))")
            }
            let l = lines[line - 1]
            XCTAssertTrue(l.contains(#"id="bad""#), String(l))
            XCTAssertTrue(Array(l.utf8).dropFirst(column - 1).starts(with: Array(attribute.utf8)), String(l))
        }
    }

    func testTheMergeDriverMatchesChannelsById() throws {
        let base = withChannels([BroadcastChannel(id: "YQ==", label: "A")])
        let ours = withChannels([
            BroadcastChannel(id: "YQ==", label: "A"), BroadcastChannel(id: "b3Vycw==", label: "Ours"),
        ])
        let theirs = withChannels([
            BroadcastChannel(id: "YQ==", label: "Renamed"), BroadcastChannel(id: "dGhlaXJz", label: "Theirs"),
        ])
        func data(_ s: Service) throws -> Data { Data(try ServiceXML.encode(s).utf8) }
        let r = try RecordMerge.merge(
            base: data(base), ours: data(ours), theirs: data(theirs), path: "services/neotrips.xml", kind: .service)
        XCTAssertEqual(r.conflicts, [])
        let merged = try ServiceXML.decode(Data(r.text.utf8), file: "services/neotrips.xml").0
        XCTAssertEqual(
            app(merged, 0)?.channels,
            [
                BroadcastChannel(id: "YQ==", label: "Renamed"), BroadcastChannel(id: "b3Vycw==", label: "Ours"),
                BroadcastChannel(id: "dGhlaXJz", label: "Theirs"),
            ])
        // Both sides relabel one channel: a conflict named by its place, ours kept.
        let ours2 = withChannels([BroadcastChannel(id: "YQ==", label: "Ours")])
        let r2 = try RecordMerge.merge(
            base: data(base), ours: data(ours2), theirs: data(theirs), path: "services/neotrips.xml", kind: .service)
        XCTAssertEqual(
            r2.conflicts.map { $0.reportLine(path: "services/neotrips.xml") },
            [#"services/neotrips.xml:apps[0].channels[0].label: ours "Ours", theirs "Renamed""#])
    }
}

extension MobileApp {
    fileprivate var channelsOfIOS: [BroadcastChannel] {
        if case .ios(let a) = self { return a.channels }
        return []
    }
}
