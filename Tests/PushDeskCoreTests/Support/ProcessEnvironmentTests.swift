import Foundation
import XCTest

@testable import PushDeskCore

final class ProcessEnvironmentTests: XCTestCase {
    /// The console's own reading gives what Foundation's does, values with `=` in them included.
    func testReadsWhatProcessInfoReads() {
        setenv("PUSHDESK_ENV_TEST", "a=b=c", 1)
        setenv("PUSHDESK_ENV_EMPTY", "", 1)
        defer {
            unsetenv("PUSHDESK_ENV_TEST")
            unsetenv("PUSHDESK_ENV_EMPTY")
        }
        let env = ProcessEnvironment.read()
        XCTAssertEqual(env["PUSHDESK_ENV_TEST"], "a=b=c")
        XCTAssertEqual(env["PUSHDESK_ENV_EMPTY"], "")
        XCTAssertNil(env["PUSHDESK_ENV_UNSET"])
        XCTAssertEqual(env, ProcessInfo.processInfo.environment)
    }
}
