import Foundation
import XCTest

@testable import PushDeskCore

/// A test device's language: `locale` on `<subscription>` and the recipient's `locale`
/// field, in the file, in the rules, in the merge, and the variant each device gets.
final class DeviceLanguageTests: XCTestCase {
    private func profile() -> Profile {
        Profile(
            name: "ana", fields: [("firstName", "Ana"), ("locale", "pt_br")],
            subscriptions: [
                Subscription(app: "neotrips-ios", token: String(repeating: "a1", count: 32), locale: "zh_hant_TW"),
                Subscription(app: "neotrips-android", token: "fcm", label: "Pixel", kind: .fid, locale: "de"),
                Subscription(app: "neotrips-ios-dev", token: String(repeating: "b2", count: 32)),
            ])
    }

    func testLocaleIsWrittenAfterKindCanonicallyAndReadBack() throws {
        let text = try ProfileXML.encode(profile())
        XCTAssertTrue(
            text.contains(
                #"<subscription app="neotrips-ios" token="\#(String(repeating: "a1", count: 32))" locale="zh-Hant-TW"/>"#
            ),
            text)
        XCTAssertTrue(
            text.contains(#"<subscription app="neotrips-android" token="fcm" label="Pixel" kind="fid" locale="de"/>"#),
            text)
        // The recipient's fields are as written: `locale` is one of them.
        XCTAssertTrue(text.contains(#"<recipient firstName="Ana" locale="pt_br">"#), text)
        let back = try ProfileXML.decode(Data(text.utf8), file: "profiles/ana.xml", name: "ana")
        XCTAssertEqual(back.subscriptions.map(\.locale), ["zh-Hant-TW", "de", nil])
        XCTAssertEqual(back.value(of: "locale"), "pt_br")
    }

    func testTheDevicesLanguageIsItsOwnElseTheRecipients() {
        let p = profile()
        XCTAssertEqual(p.subscriptions.map { p.language(of: $0)?.description }, ["zh-Hant-TW", "de", "pt-BR"])
        let none = Profile(name: "x", subscriptions: p.subscriptions)
        XCTAssertNil(none.language(of: none.subscriptions[2]))
    }

    func testSubscriptionLocaleNamesEachFieldThatIsNoTag() {
        var p = profile()
        p.fields[1].value = "português"
        p.subscriptions[1].locale = "default"
        let found = ProfileRules.check(profiles: [p], services: [DemoStore.neotrips])
            .filter { $0.rule == "subscription.locale" }
        XCTAssertEqual(found.map(\.field.description), ["locale", "subscriptions[1].locale"])
        XCTAssertTrue(found.allSatisfy { $0.severity == .error && $0.file == "profiles/ana.xml" })
        XCTAssertEqual(
            found[1].message,
            "the device's locale \"default\" is no language tag; write language[-Script][-REGION], e.g. de, pt-BR, zh-Hant-TW (_ for - is fine)"
        )
        XCTAssertEqual(
            ProfileRules.check(profiles: [profile()], services: [DemoStore.neotrips]).filter {
                $0.rule == "subscription.locale"
            }.map(\.formatted), [])
        // Without subscriptions the recipient's field is still checked.
        let bare = Profile(name: "bare", fields: [("locale", "??")])
        XCTAssertEqual(
            ProfileRules.check(profiles: [bare], services: []).map { "\($0.rule) \($0.field)" },
            ["subscription.locale locale"])
    }

    func testTheMergeTakesADevicesLocaleAsAField() throws {
        let base = profile()
        var ours = base
        ours.subscriptions[0].locale = "zh-Hant"
        var theirs = base
        theirs.subscriptions[0].locale = "zh-Hans"
        theirs.subscriptions[2].locale = "fr"
        let r = try RecordMerge.merge(
            base: Data(try ProfileXML.encode(base).utf8), ours: Data(try ProfileXML.encode(ours).utf8),
            theirs: Data(try ProfileXML.encode(theirs).utf8), path: "profiles/ana.xml", kind: .profile)
        XCTAssertEqual(
            r.conflicts.map { $0.reportLine(path: "profiles/ana.xml") },
            [#"profiles/ana.xml:subscriptions[0].locale: ours "zh-Hant", theirs "zh-Hans""#])
        var expected = ours
        expected.subscriptions[2].locale = "fr"
        XCTAssertEqual(r.text, try ProfileXML.encode(expected))
    }

    func testTheProfileSchemaTakesLocale() throws {
        guard let xmllint = ["/usr/bin/xmllint"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("xmllint is missing; `make test` installs libxml2-utils")
        }
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent("ana.xml")
        try ProfileXML.encode(profile()).write(to: file, atomically: true, encoding: .utf8)
        let r = try runProcess(
            xmllint,
            ["--noout", "--schema", packageRoot.appendingPathComponent("docs/schema/profile.xsd").path, file.path])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// `send --profile` plans each device's variant by its language, and an error in any
    /// variant blocks the whole send.
    func testTheSendPlanGivesEachDeviceItsVariant() {
        var d = VariantPayloadTests.summer()
        d.variants.append(DeliveryVariant(locale: "pt-PT", title: "Verão", body: "Olá"))
        var p = profile()
        p.subscriptions[1].kind = .device
        let plan = SendPlan.make(
            delivery: d, service: PayloadFixture.service(), profile: p, appKey: nil, token: nil,
            allServices: [PayloadFixture.service()], now: PayloadFixture.now, messageId: { "id" })
        XCTAssertEqual(plan.blocked.map(\.finding.formatted), [])
        XCTAssertEqual(
            plan.items.map { "\($0.target.app) \($0.target.locale ?? "null")" },
            [
                "neotrips-ios zh-Hant", "neotrips-android de", "neotrips-ios-dev null",
            ])
        // pt-BR reaches no variant (pt-PT is another language): the default, said as info.
        XCTAssertEqual(plan.items[2].target.diagnostics.map(\.rule), ["variant.fallback"])
        XCTAssertEqual(
            plan.items[0].target.payload,
            PreviewEngine.preview(
                delivery: d, service: PayloadFixture.service(), profile: p, appKey: "neotrips-ios",
                token: p.subscriptions[0].token, now: PayloadFixture.now, messageId: "id",
                locale: .tag(LocaleTag("zh-Hant-TW")!)
            ).targets[0].payload)

        var broken = d
        broken.variants[0].variables = [VariableValue(name: "mediaUrl", value: "ftp://x")]
        let blocked = SendPlan.make(
            delivery: broken, service: PayloadFixture.service(), profile: p, appKey: nil, token: nil,
            allServices: [PayloadFixture.service()], now: PayloadFixture.now)
        XCTAssertTrue(
            blocked.blocked.contains {
                $0.finding.rule == "image.url" && $0.finding.field == "variant[de].values.mediaUrl"
            },
            "\(blocked.blocked.map(\.finding.formatted))")
    }
}
