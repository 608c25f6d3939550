import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore
@testable import PushDeskFuzzing

/// What the payload fuzzer's model generator (`FuzzModels`) reaches, on seeded random
/// inputs: the `<liveActivity>` element with JSON texts that read and ones that do not, Live
/// Activity payloads, broadcast channels, and test devices of every token kind; and every
/// input keeps `PayloadFuzz`'s promises (a bounded smoke of what `scripts/fuzz run payload`
/// does for minutes).
final class FuzzModelsTests: XCTestCase {
    static let inputs = 400

    func testRandomInputsReachLiveActivitiesChannelsAndTokenKindsAndKeepThePromises() {
        var rng = seededGenerator(self)
        var liveActivities = 0
        var readingStates = 0
        var brokenStates = 0
        var liveActivityPayloads = 0
        var channels = 0
        var kinds = Set<TokenKind>()
        for i in 0..<Self.inputs {
            let bytes = (0..<(64 + Int(rng.next() % 4033))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var input = FuzzBytes(bytes)
            let m = FuzzModels.make(&input)
            if let la = m.delivery.liveActivity {
                liveActivities += 1
                if (try? JSONReader.object(la.contentState)) != nil { readingStates += 1 } else { brokenStates += 1 }
            }
            channels += m.service.iosApps.map(\.channels.count).reduce(0, +)
            for s in m.profile?.subscriptions ?? [] { kinds.insert(s.kind) }
            let problems = PayloadFuzz.check(Data(bytes))
            XCTAssertTrue(problems.isEmpty, "input \(i) (\(bytes.count) bytes):\n\(problems)")
            if m.delivery.ios.effectiveType == .liveactivity, m.delivery.liveActivity != nil {
                let preview = PreviewEngine.preview(
                    delivery: m.delivery, service: m.service, profile: m.profile, appKey: m.appKey, token: m.token,
                    now: LoaderFuzz.now)
                if preview.targets.contains(where: { $0.payload.compact.contains("\"content-state\":") }) {
                    liveActivityPayloads += 1
                }
            }
            if testRun?.failureCount ?? 0 > 3 { break }
        }
        XCTAssertGreaterThan(liveActivities, Self.inputs / 8, "deliveries with <liveActivity>")
        XCTAssertGreaterThan(readingStates, Self.inputs / 20, "content states that read")
        XCTAssertGreaterThan(brokenStates, Self.inputs / 20, "content states that do not read")
        XCTAssertGreaterThan(liveActivityPayloads, 2, "Live Activity payloads built")
        XCTAssertGreaterThan(channels, Self.inputs / 4, "broadcast channels")
        XCTAssertEqual(kinds, Set(TokenKind.allCases), "token kinds of test devices")
    }

    /// The counting rule counts members whose keys differ only by U+FEFF from the model, not
    /// from what Foundation reads back: it drops a leading U+FEFF, so "\u{FEFF}" and "" read as
    /// one key holding one of the two values (a content state of such keys, of different types,
    /// failed one process in many, by the process's hash order).
    func testMembersWhoseKeysDifferOnlyByAU_FEFFAreCountedFromTheModel() throws {
        let model = JSONValue.object([
            ("aps", .object([("\u{FEFF}", .object([("x", .number("1"))])), ("", .string("s\u{FEFF}"))])),
            ("k", .array([.bool(true), .null])),
        ])
        let read = try JSONSerialization.jsonObject(with: Data(model.compactBytes))
        var p = FuzzProblems()
        XCTAssertEqual(PayloadCheck.bytes(&p, model, read, path: "t"), model.compactBytes.count)
        XCTAssertTrue(p.isEmpty, p.description)
        XCTAssertEqual(PayloadCheck.count(model), model.compactBytes.count)
    }

    /// The compact/pretty comparison reads both with Foundation, which drops a raw U+FEFF: keys
    /// that become one without it make a document it cannot compare (a content state with
    /// keys "" and "\u{FEFF}" once made this test depend on the process's hash order).
    func testKeysThatOnlyDifferByAU_FEFFAreNotCompared() {
        XCTAssertNil(PayloadFuzz.withoutBOM(["a": ["": 1, "\u{FEFF}": 2] as [String: Any]] as [String: Any]))
        XCTAssertNil(PayloadFuzz.withoutBOM([["x\u{FEFF}": 1, "x": 1] as [String: Any]] as [Any]))
        let kept = PayloadFuzz.withoutBOM(["\u{FEFF}k": ["v\u{FEFF}", 2] as [Any], "j": 1] as [String: Any])
        XCTAssertEqual(kept as? NSDictionary, ["k": ["v", 2], "j": 1] as NSDictionary)
    }
}
