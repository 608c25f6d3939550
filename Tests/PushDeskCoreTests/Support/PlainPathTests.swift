import Foundation
import XCTest

@testable import PushDeskCore

final class PlainPathTests: XCTestCase {
    /// The paths the store is opened by are Foundation's own, for the awkward ones too:
    /// spaces, percent signs, non-ASCII names, dot segments, repeated and trailing slashes.
    func testGivesWhatFoundationGives() {
        let inputs = [
            "/tmp/store", "/tmp/store/", "/tmp/a b/c", "relative/x", "/", "/tmp/%41", "/tmp/a%2Fb",
            "/tmp/x/../y", "/tmp/東京/ü", "//tmp//x//", "/tmp/a;b?c#d", ".", "/../a", "/a/./b/.", "/a/b/..",
            "/a/b/../..", "/a/b/../../..", "a/../../b", "/tmp/./x",
        ]
        for input in inputs {
            for url in [URL(fileURLWithPath: input), URL(fileURLWithPath: input, isDirectory: true)] {
                XCTAssertEqual(url.plainPath, url.path, input)
                XCTAssertEqual(url.standardizedPlainPath, url.standardizedFileURL.path, input)
            }
        }
    }

    /// A store opened by a path with dot segments has the same root, and the same URL, as
    /// Foundation's standardized one.
    func testStoreRootIsTheStandardizedURL() {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plain-path-\(getpid())")
        let services = dir.appendingPathComponent("services")
        try? FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let given = URL(fileURLWithPath: dir.path + "/services/../")
        XCTAssertEqual(Store(root: given).root, given.standardizedFileURL)
        XCTAssertEqual(Store(root: given).root.path, dir.path)
    }
}
