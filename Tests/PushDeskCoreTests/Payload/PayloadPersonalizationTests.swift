import XCTest

@testable import PushDeskCore

/// `<%= recipient.FIELD %>` (docs/PAYLOADS.md) and byte counting (docs/PAYLOADS.md).
final class PayloadPersonalizationTests: XCTestCase {
    let misaki = Profile(name: "misaki", fields: [("firstName", "美咲 🌸"), ("city", "東京\"\\")])

    func testCJKAndEmojiArePersonalizedAndCountedInBytes() {
        let d = PayloadFixture.delivery(
            title: "<%=recipient.city%>へようこそ 🎉", body: "Hi <%= recipient.firstName %>, 20% off until Sunday.",
            variables: [VariableValue(name: "VAR", value: "city=<%= recipient.city %>")])
        let p = PayloadFixture.preview(d, profile: misaki)
        let ios = p.targets.first { $0.app == "neotrips-ios" }!
        let expected =
            #"{"aps":{"alert":{"title":"東京\"\\へようこそ 🎉","body":"Hi 美咲 🌸, 20% off until Sunday."}},"VAR":"city=東京\"\\","_mId":"5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10","_dId":"56c4"}"#
        XCTAssertEqual(ios.payload.compact, expected)
        XCTAssertEqual(ios.bytes, expected.utf8.count)
        XCTAssertGreaterThan(ios.bytes, expected.count, "bytes, not characters")
        let android = p.targets.first { $0.app == "neotrips-android" }!
        XCTAssertEqual(android.payload["message"]?["data"]?["_msg"], .string("Hi 美咲 🌸, 20% off until Sunday."))
        XCTAssertEqual(p.diagnostics, [])
    }

    func testWithoutProfileTextStaysAsWritten() {
        let t = PayloadFixture.target(PayloadFixture.delivery(), app: "neotrips-ios", profile: nil)
        XCTAssertEqual(
            t.payload["aps"]?["alert"]?["body"], .string("Hi <%= recipient.firstName %>, 20% off until Sunday."))
    }

    func testUnknownFieldIsAnErrorAndTheTagStays() {
        let d = PayloadFixture.delivery(subtitle: "<%= recipient.loyaltyTier %>")
        let p = PayloadFixture.preview(d, profile: PayloadFixture.ana)
        XCTAssertEqual(
            p.diagnostics.map { "\($0.severity) \($0.rule) \($0.field)" },
            ["error personalization.unknown-field content.subtitle"])
        XCTAssertTrue(p.diagnostics[0].message.contains("loyaltyTier"))
        XCTAssertEqual(p.targets[1].payload["aps"]?["alert"]?["subtitle"], .string("<%= recipient.loyaltyTier %>"))
        XCTAssertTrue(p.hasErrors)
    }

    func testScannerLeavesLookAlikesAlone() {
        let text = "<%= foo.bar %> <%= recipient. %> <%= recipient.x <%=recipient.email%>%> 100%"
        XCTAssertEqual(Personalization.fields(in: text), ["email"])
        XCTAssertEqual(
            Personalization.apply(text, profile: PayloadFixture.ana).text,
            "<%= foo.bar %> <%= recipient. %> <%= recipient.x ana@example.com%> 100%")
    }

    /// An APNs payload of exactly 4096 bytes passes; one byte more is `size.limit`.
    /// Two-byte characters prove the count is in UTF-8 bytes.
    func testExactly4096BytesIsOkAnd4097IsAnError() {
        let skeleton = #"{"aps":{"alert":{"body":""}},"_mId":"00000000-0000-0000-0000-000000000000","_dId":"00000000"}"#
        let room = 4096 - skeleton.utf8.count
        func body(_ bytes: Int) -> String {
            String(repeating: "é", count: bytes / 2) + String(repeating: "x", count: bytes % 2)
        }
        func target(_ b: String) -> PreviewTarget {
            PayloadFixture.target(
                PayloadFixture.delivery(title: "", body: b, variables: [], tracking: nil), app: "neotrips-ios")
        }
        let ok = target(body(room))
        XCTAssertEqual(ok.bytes, 4096)
        XCTAssertEqual(ok.payload.compact.utf8.count, 4096)
        XCTAssertFalse(ok.diagnostics.contains { $0.rule == "size.limit" })
        let over = target(body(room + 1))
        XCTAssertEqual(over.bytes, 4097)
        XCTAssertEqual(over.diagnostics.map { "\($0.severity) \($0.rule) \($0.field)" }, ["error size.limit payload"])
        XCTAssertTrue(over.diagnostics[0].message.contains("4097"))
    }

    func testFCMSizeExcludesTheToken() {
        let d = PayloadFixture.delivery()
        let short = PayloadFixture.target(d, app: "neotrips-android", token: "t")
        let long = PayloadFixture.target(d, app: "neotrips-android", token: String(repeating: "t", count: 5000))
        XCTAssertEqual(short.bytes, long.bytes)
        XCTAssertFalse(long.diagnostics.contains { $0.rule == "size.limit" })
    }
}
