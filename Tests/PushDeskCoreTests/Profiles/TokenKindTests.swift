import XCTest

@testable import PushDeskCore

/// Token kinds of test devices (docs/FORMATS.md): the file, the rules, the merge driver.
final class TokenKindTests: XCTestCase {
    static let hex = String(repeating: "ab", count: 32)

    func testKindIsWrittenAfterLabelOnlyWhenNotDeviceAndReadBack() throws {
        let p = Profile(
            name: "ana", fields: [("firstName", "Ana")],
            subscriptions: [
                Subscription(app: "neotrips-ios-dev", token: Self.hex, label: "iPhone"),
                Subscription(
                    app: "neotrips-ios-dev", token: Self.hex + "01", userKey: "ana", label: "Call", kind: .voip),
                Subscription(app: "neotrips-ios-dev", token: Self.hex + "02", kind: .pushToStart),
            ])
        let text = try ProfileXML.encode(p)
        XCTAssertEqual(
            text,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <recipient firstName="Ana">
              <subscription app="neotrips-ios-dev" token="\(Self.hex)" label="iPhone"/>
              <subscription app="neotrips-ios-dev" token="\(Self.hex)01" userKey="ana" label="Call" kind="voip"/>
              <subscription app="neotrips-ios-dev" token="\(Self.hex)02" kind="pushToStart"/>
            </recipient>

            """)
        XCTAssertEqual(try ProfileXML.decode(Data(text.utf8), file: "profiles/ana.xml", name: "ana"), p)
        // `device` written out by hand reads as the default, and is left out when written again.
        let explicit = #"<recipient><subscription app="a" token="t" kind="device"/></recipient>"#
        let read = try ProfileXML.decode(Data(explicit.utf8), file: "profiles/p.xml", name: "p")
        XCTAssertEqual(read.subscriptions.first?.kind, .device)
        XCTAssertFalse(try ProfileXML.encode(read).contains("kind="))
    }

    func testAnUnknownKindIsAPositionedError() {
        let xml = #"<recipient><subscription app="a" token="t" kind="watch"/></recipient>"#
        XCTAssertThrowsError(try ProfileXML.decode(Data(xml.utf8), file: "profiles/p.xml", name: "p")) { e in
            let text = "\(e)"
            XCTAssertTrue(text.hasPrefix("profiles/p.xml:1:"), text)
            XCTAssertTrue(text.contains("device|pushToStart|activity|voip|widgets|controls|location|pushToTalk"), text)
        }
    }

    func testKindRules() {
        let ios = MobileApp.ios(PayloadFixture.iosApp(.sandbox))
        let android = MobileApp.android(PayloadFixture.androidApp())
        func rules(_ s: Subscription, _ app: MobileApp) -> [String] {
            ProfileRules.check(s, index: 0, profile: "ana", app: app).map { "\($0.rule) \($0.field)" }
        }
        XCTAssertEqual(
            rules(Subscription(app: "neotrips-android", token: "fcm", kind: .voip), android),
            ["subscription.kind subscriptions[0].kind"])
        XCTAssertEqual(rules(Subscription(app: "neotrips-android", token: "fcm"), android), [])
        // `fid` is an Android kind (docs/SENDING.md): FIDRuleTests has its rules.
        for kind in TokenKind.allCases where kind != .fid {
            XCTAssertEqual(
                rules(Subscription(app: "neotrips-ios-dev", token: Self.hex, kind: kind), ios), [], "\(kind)")
            XCTAssertEqual(
                rules(Subscription(app: "neotrips-ios-dev", token: "abc", kind: kind), ios),
                ["subscription.token-format subscriptions[0].token"], "every iOS kind is an APNs token: \(kind)")
        }
    }

    /// The merge driver merges `kind` as a field; the identity stays app + token.
    func testTheMergeDriverMergesKindAsAField() throws {
        let base = Profile(
            name: "ana", fields: [("firstName", "Ana")],
            subscriptions: [Subscription(app: "neotrips-ios-dev", token: Self.hex, label: "iPhone")])
        var ours = base
        ours.subscriptions[0].kind = .widgets
        var theirs = base
        theirs.subscriptions[0].label = "Ana's iPhone"
        let r = try RecordMerge.merge(
            base: Data(try ProfileXML.encode(base).utf8), ours: Data(try ProfileXML.encode(ours).utf8),
            theirs: Data(try ProfileXML.encode(theirs).utf8), path: "profiles/ana.xml", kind: .profile)
        XCTAssertEqual(r.conflicts, [])
        var expected = ours
        expected.subscriptions[0].label = "Ana's iPhone"
        XCTAssertEqual(r.text, try ProfileXML.encode(expected))

        // Both change the kind differently: a conflict on that field, not a second device.
        var other = base
        other.subscriptions[0].kind = .voip
        let c = try RecordMerge.merge(
            base: Data(try ProfileXML.encode(base).utf8), ours: Data(try ProfileXML.encode(ours).utf8),
            theirs: Data(try ProfileXML.encode(other).utf8), path: "profiles/ana.xml", kind: .profile)
        XCTAssertEqual(c.conflicts.count, 1)
        XCTAssertTrue("\(c.conflicts)".contains("kind"), "\(c.conflicts)")
        XCTAssertEqual(c.text.components(separatedBy: "<subscription").count - 1, 1, c.text)
    }
}
