import Foundation
import XCTest

@testable import PushDeskCore

/// The merge driver on hand-picked cases (docs/TEAMS.md): whole outputs and report lines.
final class RecordMergeTests: XCTestCase {
    private let servicePath = "services/neotrips.xml"
    private let deliveryPath = "deliveries/summer-sale.xml"

    private func merge(_ b: Service, _ o: Service, _ t: Service) throws -> RecordMerge.Result {
        try RecordMerge.merge(
            base: Data(try ServiceXML.encode(b).utf8), ours: Data(try ServiceXML.encode(o).utf8),
            theirs: Data(try ServiceXML.encode(t).utf8), path: servicePath, kind: .service)
    }

    private func merge(_ b: Delivery, _ o: Delivery, _ t: Delivery) throws -> RecordMerge.Result {
        try RecordMerge.merge(
            base: Data(try DeliveryXML.encode(b).utf8), ours: Data(try DeliveryXML.encode(o).utf8),
            theirs: Data(try DeliveryXML.encode(t).utf8), path: deliveryPath, kind: .delivery)
    }

    private func lines(_ r: RecordMerge.Result, _ path: String) -> [String] {
        r.conflicts.map { $0.reportLine(path: path) }
    }

    func testEditsOfDifferentFieldsBothLand() throws {
        let base = DemoStore.neotrips
        var ours = base
        ours.label = "Neotrips (EU)"
        var theirs = base
        theirs.marketingUrl = "https://m.neotrips.example/"
        theirs.apps[2].label = "Neotrips for Android"
        var expected = base
        expected.label = "Neotrips (EU)"
        expected.marketingUrl = "https://m.neotrips.example/"
        expected.apps[2].label = "Neotrips for Android"
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, try ServiceXML.encode(expected))
    }

    func testSameFieldChangedDifferentlyIsAConflictKeepingOurs() throws {
        let base = DemoStore.neotrips
        var ours = base
        ours.label = "Neotrips A"
        ours.apps[0].variables[1].label = "Screen"
        var theirs = base
        theirs.label = "Neotrips \"B\""
        theirs.apps[0].variables[1].label = "Deep link"
        theirs.trackingUrl = "https://t.neotrips.example/"
        var expected = ours
        expected.trackingUrl = "https://t.neotrips.example/"
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(
            lines(r, servicePath),
            [
                #"services/neotrips.xml:label: ours "Neotrips A", theirs "Neotrips \"B\"""#,
                #"services/neotrips.xml:apps[0].variables[1].label: ours "Screen", theirs "Deep link""#,
            ])
        XCTAssertEqual(r.text, try ServiceXML.encode(expected))
    }

    func testSameChangeOnBothSidesIsNoConflict() throws {
        let base = DemoStore.neotrips
        var ours = base
        ours.label = "Same"
        let r = try merge(base, ours, ours)
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, try ServiceXML.encode(ours))
    }

    func testAdditionsAtOnePlaceOursFirstThenTheirsInTheirOrder() throws {
        var base = DemoStore.neotrips
        base.apps = [base.apps[0]]
        var ours = base
        ours.apps[0].variables.insert(AppVariable(name: "o1"), at: 1)
        var theirs = base
        theirs.apps[0].variables.insert(contentsOf: [AppVariable(name: "t1"), AppVariable(name: "t2")], at: 1)
        theirs.apps[0].variables.insert(AppVariable(name: "t0"), at: 0)
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(r.conflicts, [])
        let merged = try ServiceXML.decode(Data(r.text.utf8), file: servicePath).0
        XCTAssertEqual(merged.apps[0].variables.map(\.name), ["t0", "mediaUrl", "o1", "t1", "t2", "VAR"])
    }

    func testReorderByTheirsOnlyIsNotKept() throws {
        let base = DemoStore.neotrips
        var theirs = base
        theirs.apps.swapAt(0, 2)
        let r = try merge(base, base, theirs)
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, try ServiceXML.encode(base))
    }

    func testRemovedOnOneSideChangedOnTheOther() throws {
        let base = DemoStore.neotrips
        var ours = base
        ours.apps.remove(at: 1)
        var theirs = base
        theirs.apps[1].label = "Prod"
        theirs.apps[2].variables.remove(at: 0)
        var r = try merge(base, ours, theirs)
        XCTAssertEqual(lines(r, servicePath), ["services/neotrips.xml:apps[1]: ours (removed), theirs (changed)"])
        var expected = ours
        expected.apps[1].variables.remove(at: 0)
        XCTAssertEqual(r.text, try ServiceXML.encode(expected))

        r = try merge(base, theirs, ours)
        XCTAssertEqual(lines(r, servicePath), ["services/neotrips.xml:apps[1]: ours (changed), theirs (removed)"])
        XCTAssertEqual(r.text, try ServiceXML.encode(expected.with { $0.apps.insert(theirs.apps[1], at: 1) }))
    }

    func testAuthIsOneField() throws {
        let base = DemoStore.neotrips
        var ours = base
        ours.apps[0] = ours.apps[0].withIOS { $0.auth = .token(keyId: "K2", teamId: "DEF123GHIJ", keyFile: "k.p8") }
        var theirs = base
        theirs.apps[0] = theirs.apps[0].withIOS {
            $0.auth = .certificate(certificateFile: "c.p12", passwordRef: "pw")
        }
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(
            lines(r, servicePath),
            [
                #"services/neotrips.xml:apps[0].auth: ours "<auth mode=\"token\" keyId=\"K2\" teamId=\"DEF123GHIJ\" keyFile=\"k.p8\"/>", theirs "<auth mode=\"certificate\" certificateFile=\"c.p12\" passwordRef=\"pw\"/>""#
            ])
        XCTAssertEqual(r.text, try ServiceXML.encode(ours))
    }

    func testDeliveryFieldsAndNamedValues() throws {
        let base = DemoStore.summerSale
        var ours = base
        ours.ios.badge = "4"
        ours.content.title = "Summer!"
        ours.variables[0].value = "https://cdn.example/a.jpg"
        ours.android.ttl = nil
        var theirs = base
        theirs.ios.badge = "5"
        theirs.content.body = "New body"
        theirs.variables[0].value = "https://cdn.example/b.jpg"
        theirs.variables.append(VariableValue(name: "extra", value: "x"))
        theirs.android.ttl = "60"
        theirs.tracking = Tracking(messageId: "m", deliveryId: "d")
        let r = try merge(base, ours, theirs)
        XCTAssertEqual(
            lines(r, deliveryPath),
            [
                #"deliveries/summer-sale.xml:ios.badge: ours "4", theirs "5""#,
                #"deliveries/summer-sale.xml:android.ttl: ours (not set), theirs "60""#,
                #"deliveries/summer-sale.xml:variables.mediaUrl: ours "https://cdn.example/a.jpg", theirs "https://cdn.example/b.jpg""#,
            ])
        var expected = ours
        expected.content.body = "New body"
        expected.variables.append(VariableValue(name: "extra", value: "x"))
        expected.tracking = Tracking(messageId: "m", deliveryId: "d")
        XCTAssertEqual(r.text, try DeliveryXML.encode(expected))
    }

    func testEmptyBaseMergesBothCreations() throws {
        var ours = DemoStore.summerSale
        ours.label = "Ours"
        let theirs = DemoStore.summerSale
        let r = try RecordMerge.merge(
            base: Data(), ours: Data(try DeliveryXML.encode(ours).utf8),
            theirs: Data(try DeliveryXML.encode(theirs).utf8), path: deliveryPath, kind: .delivery)
        XCTAssertEqual(
            lines(r, deliveryPath), [#"deliveries/summer-sale.xml:label: ours "Ours", theirs "Summer sale""#])
        XCTAssertEqual(r.text, try DeliveryXML.encode(ours))
    }

    func testProfileAttributesAddedByTheirsComeAfterOurs() throws {
        func data(_ s: String) -> Data { Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(s)\n".utf8) }
        let r = try RecordMerge.merge(
            base: data(#"<recipient firstName="Ana" email="a@x"/>"#),
            ours: data(#"<recipient firstName="Ana" lastName="Silva" email="a@x" city="Porto"/>"#),
            theirs: data(#"<recipient zip="4000" firstName="Ann" email="a@x" tier="gold"/>"#),
            path: "profiles/ana.xml", kind: .profile)
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(
            r.text,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + #"<recipient firstName="Ann" lastName="Silva" email="a@x" city="Porto" zip="4000" tier="gold"/>"#
                + "\n")
    }

    func testProfileSubscriptionsByAppAndToken() throws {
        var base = Profile(name: "ana", fields: [("firstName", "Ana")])
        base.subscriptions = [
            Subscription(app: "neotrips-ios-dev", token: String(repeating: "ab", count: 32), label: "iPhone"),
            Subscription(app: "neotrips-android", token: "fcm-1", label: "Pixel"),
        ]
        var ours = base
        ours.subscriptions[0].label = "Ana's iPhone"
        ours.subscriptions[1].userKey = "ana@example.com"
        var theirs = base
        theirs.subscriptions[0].label = "iPhone 15"
        theirs.subscriptions.insert(Subscription(app: "neotrips-android", token: "fcm-2"), at: 1)
        let r = try RecordMerge.merge(
            base: Data(try ProfileXML.encode(base).utf8), ours: Data(try ProfileXML.encode(ours).utf8),
            theirs: Data(try ProfileXML.encode(theirs).utf8), path: "profiles/ana.xml", kind: .profile)
        XCTAssertEqual(
            lines(r, "profiles/ana.xml"),
            [#"profiles/ana.xml:subscriptions[0].label: ours "Ana's iPhone", theirs "iPhone 15""#])
        var expected = ours
        expected.subscriptions.insert(Subscription(app: "neotrips-android", token: "fcm-2"), at: 1)
        XCTAssertEqual(r.text, try ProfileXML.encode(expected))
    }

    /// A large record's versions are read side by side: same result, and of two unreadable
    /// versions the error names the first in base, ours, theirs order.
    func testLargeRecordsReadInParallel() throws {
        var base = DemoStore.neotrips
        for i in 0..<20 {
            base.apps.append(
                .android(
                    AndroidApp(
                        label: "App \(i)", integrationKey: "big-\(i)", packageName: "com.big",
                        variables: (0..<50).map { AppVariable(name: "v\($0)", label: "Variable \($0)") })))
        }
        var ours = base
        ours.apps[5].variables[3].label = "Ours"
        var theirs = base
        theirs.apps[20].variables.remove(at: 0)
        let texts = try [base, ours, theirs].map { try ServiceXML.encode($0) }
        XCTAssertGreaterThan(texts.map(\.utf8.count).reduce(0, +), 32 * 1024)
        let r = try RecordMerge.merge(
            base: Data(texts[0].utf8), ours: Data(texts[1].utf8), theirs: Data(texts[2].utf8), path: servicePath,
            kind: .service)
        var expected = ours
        expected.apps[20].variables.remove(at: 0)
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, try ServiceXML.encode(expected))

        let broken = Data((texts[2] + "<extra/>").utf8)
        for _ in 0..<5 {
            XCTAssertThrowsError(
                try RecordMerge.merge(
                    base: Data(texts[0].utf8), ours: Data(texts[1].dropLast(20).utf8), theirs: broken,
                    path: servicePath, kind: .service)
            ) { error in
                XCTAssertTrue("\(error)".hasPrefix("services/neotrips.xml (ours):"), "\(error)")
            }
        }
    }

    /// Versions not written as a save writes them (hand-edited: other indentation, attribute
    /// order, quotes) merge exactly as their canonical forms do.
    func testHandEditedVersionsMergeAsTheirCanonicalForms() throws {
        let base = DemoStore.neotrips
        var ours = base
        ours.label = "Ours"
        var theirs = base
        theirs.marketingUrl = "https://theirs.example/"
        let canonical = try [base, ours, theirs].map { try ServiceXML.encode($0) }
        func handEdited(_ text: String) -> String {
            text.replacingOccurrences(of: "\n  ", with: "\n\t").replacingOccurrences(of: "\"", with: "'")
                .replacingOccurrences(
                    of: "<service format='1' name='neotrips'", with: "<service name='neotrips'  format='1'")
        }
        let edited = canonical.map(handEdited)
        XCTAssertNotEqual(edited, canonical)
        let expected = try RecordMerge.merge(
            base: Data(canonical[0].utf8), ours: Data(canonical[1].utf8), theirs: Data(canonical[2].utf8),
            path: servicePath, kind: .service)
        let r = try RecordMerge.merge(
            base: Data(edited[0].utf8), ours: Data(edited[1].utf8), theirs: Data(edited[2].utf8), path: servicePath,
            kind: .service)
        XCTAssertEqual(r.text, expected.text)
        XCTAssertEqual(r.conflicts, expected.conflicts)
        XCTAssertEqual(r.text, try ServiceXML.encode(ours.with { $0.marketingUrl = "https://theirs.example/" }))
    }

    /// The merged tree is decoded as built, without writing and parsing it: it must be the
    /// tree the reader gives for its file, escapes and texts included.
    func testMergedTreeIsTheTreeOfItsFile() throws {
        let tree = RecordNode(
            name: "delivery",
            attributes: [.init(name: "name", value: "a&b<c>\"d\"\n\t\re"), .init(name: "label", value: "")],
            children: [
                RecordNode(
                    name: "content",
                    children: [
                        RecordNode(name: "title", text: " Tom & Jerry <3 \"quoted\"\r\n line "),
                        RecordNode(name: "body", text: "&#38; é 🚀"),
                    ]),
                RecordNode(
                    name: "ios", attributes: [.init(name: "badge", value: "1")], text: "dropped: has children",
                    children: [RecordNode(name: "x", attributes: [.init(name: "k", value: "&amp;")])]),
                RecordNode(name: "empty"),
            ])
        let fromText = try XMLReader.parse(Data(try tree.document().utf8), file: "t")
        XCTAssertEqual(RecordNode(tree.parsedTree()), RecordNode(fromText))
        XCTAssertEqual(RecordNode(tree.parsedTree()).children[1].text, "")
    }

    func testValuesInTheReportAreEscapedJSON() {
        XCTAssertEqual(MergeConflict.quoted("a\u{1B}[2Jb\u{202E}c\n"), #""a\u001b[2Jb\u202ec\n""#)
        XCTAssertEqual(MergeConflict.quoted(nil), "(not set)")
    }

    // MARK: the driver on files

    private func files(_ base: String, _ ours: String, _ theirs: String) throws -> (URL, URL, URL) {
        let dir = try makeTempDir(self, "merge")
        let urls = ["base", "ours", "theirs"].map { dir.appendingPathComponent($0) }
        for (url, text) in zip(urls, [base, ours, theirs]) { try Data(text.utf8).write(to: url) }
        return (urls[0], urls[1], urls[2])
    }

    func testDriverWritesOursAndExitsByConflicts() throws {
        let base = try ServiceXML.encode(DemoStore.neotrips)
        let ours = try ServiceXML.encode(DemoStore.neotrips.with { $0.label = "A" })
        let theirs = try ServiceXML.encode(DemoStore.neotrips.with { $0.label = "B" })
        let (b, o, t) = try files(base, ours, theirs)
        var outcome = MergeDriver.run(base: b.path, ours: o.path, theirs: t.path, path: servicePath)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, [#"services/neotrips.xml:label: ours "A", theirs "B""#])
        XCTAssertEqual(try String(contentsOf: o, encoding: .utf8), ours)

        try Data(base.utf8).write(to: o)
        outcome = MergeDriver.run(base: b.path, ours: o.path, theirs: t.path, path: servicePath)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.stderr, [])
        XCTAssertEqual(try String(contentsOf: o, encoding: .utf8), theirs)
    }

    func testDriverRefusesAnUnreadableVersionAndLeavesOurs() throws {
        let base = try ServiceXML.encode(DemoStore.neotrips)
        let ours = base.replacingOccurrences(of: "label=\"Neotrips\"", with: "label=\"Ours\"")
        let bad = base.replacingOccurrences(of: "label=\"Neotrips\"", with: "label=\"X\" colour=\"red\"")
        let (b, o, t) = try files(base, ours, bad)
        var outcome = MergeDriver.run(base: b.path, ours: o.path, theirs: t.path, path: servicePath)
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.stderr.count, 1)
        XCTAssertTrue(
            outcome.stderr[0].hasPrefix("services/neotrips.xml (theirs):2:"), outcome.stderr.joined())
        XCTAssertTrue(outcome.stderr[0].contains("unknown attribute `colour`"), outcome.stderr[0])
        XCTAssertEqual(try String(contentsOf: o, encoding: .utf8), ours)

        // A delivery where PATH names a service: the reader refuses the root.
        try Data(try DeliveryXML.encode(DemoStore.summerSale).utf8).write(to: t)
        outcome = MergeDriver.run(base: b.path, ours: o.path, theirs: t.path, path: servicePath)
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(try String(contentsOf: o, encoding: .utf8), ours)

        outcome = MergeDriver.run(base: b.path, ours: o.path, theirs: t.path + "-missing", path: servicePath)
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(try String(contentsOf: o, encoding: .utf8), ours)
    }

    func testRecordKindFromPath() {
        XCTAssertEqual(RecordKind(path: "services/a.xml"), .service)
        XCTAssertEqual(RecordKind(path: "team/store/deliveries/b.xml"), .delivery)
        XCTAssertEqual(RecordKind(path: "profiles/ana.xml"), .profile)
        XCTAssertNil(RecordKind(path: "README.md"))
        XCTAssertNil(RecordKind(path: "other/a.xml"))
    }
}

extension Service {
    func with(_ change: (inout Service) -> Void) -> Service {
        var copy = self
        change(&copy)
        return copy
    }
}

extension MobileApp {
    func withIOS(_ change: (inout IOSApp) -> Void) -> MobileApp {
        guard case .ios(var a) = self else { return self }
        change(&a)
        return .ios(a)
    }
}
