import XCTest

@testable import PushDeskCore

final class ModelTests: XCTestCase {
    func testDefaults() {
        XCTAssertEqual(IOSOptions().effectiveType, .alert)
        XCTAssertEqual(AndroidOptions().effectiveType, .data)
        XCTAssertEqual(Service(name: "a", label: "A").targetMapping, "nms:appSubscriptionRcp")
    }
}
