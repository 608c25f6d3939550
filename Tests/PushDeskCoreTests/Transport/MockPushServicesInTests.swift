import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

extension MockPushServices {
    /// The mocks over a fresh demo store in a temporary directory the test removes.
    convenience init(_ test: XCTestCase, clientCA: Bool = false) throws {
        let store = try makeTempDir(test)
        try DemoStore.write(to: store)
        try self.init(store: store, clientCA: clientCA)
    }
}
