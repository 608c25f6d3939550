import Foundation
import XCTest

@testable import PushDeskTUI

/// A path dialog's Tab completion reads nothing itself: it completes from the listing it is
/// given (the app gives `AppContext.pathEntries`, one listing of the folder typed).
final class PathCompletionTests: XCTestCase {
    func testCompletionUsesOnlyTheListingItIsGiven() {
        var asked: [String] = []
        let listing = { (folder: String) -> [PathEntry] in
            asked.append(folder)
            return [
                PathEntry(name: "keys", isDirectory: true), PathEntry(name: "key.p8", isDirectory: false),
                PathEntry(name: ".hidden", isDirectory: false),
            ]
        }
        var d = Dialog.filePath(title: "Key file", message: "", value: "keys", base: "/no/such/folder")
        XCTAssertNil(d.handle(.tab, listing: listing))
        XCTAssertEqual(d.input.text, "keys/", "the one match that is a folder, with its slash")
        XCTAssertEqual(asked, ["/no/such/folder/."])
        var e = Dialog.filePath(title: "Key file", message: "", value: "ke", base: "/no/such/folder")
        _ = e.handle(.tab, listing: listing)
        XCTAssertEqual(e.input.text, "key", "the common prefix of two matches")
        XCTAssertEqual(e.candidates, ["key.p8", "keys/"])
        var f = Dialog.filePath(title: "Key file", message: "", value: "x", base: "/no/such/folder")
        _ = f.handle(.tab, listing: { _ in [] })
        XCTAssertEqual(f.candidates, ["(no match)"])
    }
}
