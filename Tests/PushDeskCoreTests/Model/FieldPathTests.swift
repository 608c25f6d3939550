import XCTest

@testable import PushDeskCore

/// Field paths are built from steps and spelled as findings always printed them; the
/// console's questions (which app, which row, which form field) are answered from the steps.
final class FieldPathTests: XCTestCase {
    func testStepsAreSpelledAsFindingsPrintThem() {
        let key = FieldPath.app(1).appending("auth", "keyId")
        XCTAssertEqual(key.description, "apps[1].auth.keyId")
        XCTAssertEqual(key, "apps[1].auth.keyId")
        XCTAssertEqual(FieldPath.app(0).item("variables", 3).appending("name").description, "apps[0].variables[3].name")
        XCTAssertEqual(
            FieldPath.app(2).appending("sounds").at(1).appending("name").description, "apps[2].sounds[1].name")
        XCTAssertEqual(FieldPath.subscription(4).appending("token").description, "subscriptions[4].token")
        XCTAssertEqual(FieldPath("ios", "sound").description, "ios.sound")
        XCTAssertEqual(FieldPath.none.description, "")
        XCTAssertTrue(FieldPath.none.isEmpty)
        for text in ["label", "apps[1].connector", "apps[0].variables[3].name", "subscriptions[0]", "payload"] {
            XCTAssertEqual(FieldPath(parsing: text).description, text)
        }
    }

    func testTheConsolesQuestionsAreAnsweredFromTheSteps() {
        let p = FieldPath.app(2).item("subscriptionParams", 5).appending("field")
        XCTAssertEqual(p.index(in: "apps"), 2)
        XCTAssertNil(p.index(in: "subscriptions"))
        XCTAssertEqual(p.inside("apps").description, "subscriptionParams[5].field")
        XCTAssertEqual(p.inside("apps").head, "subscriptionParams")
        XCTAssertEqual(p.inside("apps").row, 5)
        XCTAssertEqual(p.leaf, "field")
        XCTAssertEqual(FieldPath.app(0).inside("apps").leaf, "")
        XCTAssertNil(FieldPath("label").index(in: "apps"))
        XCTAssertEqual(FieldPath("ios", "sound").tail.description, "sound")
        XCTAssertTrue(FieldPath.app(1).appending("auth").isWithin(.app(1)))
        XCTAssertFalse(FieldPath.app(10).isWithin(.app(1)))
    }

    func testANameHoldingDotsStaysOneStep() {
        // A delivery variable's name is one step however it is spelled: nothing parses it back.
        let p = FieldPath("variables", "a.b[1]")
        XCTAssertEqual(p.steps, [.name("variables"), .name("a.b[1]")])
        XCTAssertEqual(p.tail.description, "a.b[1]")
        XCTAssertEqual(p.description, "variables.a.b[1]")
    }

    func testFindingsSortAsTheirSpellings() {
        let paths: [FieldPath] = ["apps[10].label", "apps[1].label", "label", "apps[2]"]
        XCTAssertEqual(paths.sorted().map(\.description), paths.map(\.description).sorted())
    }
}
