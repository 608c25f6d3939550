import Foundation
import XCTest

@testable import PushDeskCore

final class ProcessIdentityTests: XCTestCase {
    func testTheUserIsTheNameTheUserDatabaseGivesThisProcess() throws {
        let pw = try XCTUnwrap(getpwuid(geteuid()))
        XCTAssertEqual(ProcessIdentity.user, String(cString: pw.pointee.pw_name))
    }

    func testAPasswdLineIsMatchedOnItsUidFieldOnly() {
        let text = """
            # comment:x:1000:1000
            root:x:0:0:root:/root:/bin/bash
            daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
            ana:x:1000:1000:Ana,,,1001:/home/ana:/bin/bash
            bo:x:1001:1000::/home/bo:/bin/sh
            :x:1002:1002::/:/bin/sh
            """
        XCTAssertEqual(ProcessIdentity.passwdName(uid: 0, in: Array(text.utf8)), "root")
        XCTAssertEqual(ProcessIdentity.passwdName(uid: 1000, in: Array(text.utf8)), "ana")
        XCTAssertEqual(
            ProcessIdentity.passwdName(uid: 1001, in: Array(text.utf8)), "bo", "the gecos field's 1001 is not a uid")
        XCTAssertNil(ProcessIdentity.passwdName(uid: 1002, in: Array(text.utf8)), "a line without a name")
        XCTAssertNil(ProcessIdentity.passwdName(uid: 4242, in: Array(text.utf8)))
    }
}
