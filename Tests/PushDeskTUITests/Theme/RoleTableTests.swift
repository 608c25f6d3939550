import XCTest

@testable import PushDeskTUI

final class RoleTableTests: XCTestCase {
    /// The table's index of a role is its place in `allCases`; were it anything else, two
    /// roles could share a slot or a role could fall outside the array.
    func testEveryRoleHasItsOwnSlotInDeclarationOrder() {
        for (i, role) in Role.allCases.enumerated() { XCTAssertEqual(role.ordinal, i, role.rawValue) }
    }

    func testValuesAreKeptPerRoleAndListedInRoleOrder() {
        var t: RoleTable<Int> = [.title: 1, .normal: 2]
        t[.deviceMuted] = 3
        t[.title] = nil
        XCTAssertEqual(t[.normal], 2)
        XCTAssertNil(t[.title])
        XCTAssertEqual(t[.deviceMuted], 3)
        XCTAssertEqual(t.entries.map(\.role), [.normal, .deviceMuted])
        XCTAssertEqual(t.entries.map(\.value), [2, 3])
    }
}
