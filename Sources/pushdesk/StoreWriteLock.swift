import ArgumentParser
import Foundation
import PushDeskCore

/// Commands that write into the store hold its lock while they write, like a console does
/// for its whole life: while a console edits the store they refuse (exit 2) and say who
/// holds it, rather than changing records under an operator's open drafts.
/// (docs/RELIABILITY.md, "Two operators".)
func withStoreLock<T>(_ store: Store, command: String, _ body: () throws -> T) throws -> T {
    do {
        return try StoreLock.withLock(storeRoot: store.root, program: command, body)
    } catch let e as StoreLocked {
        printError(e.description)
        throw Exit.usageOrIO
    } catch let e as StoreError where e.file == StoreLock.relativePath {
        printError(e.description)
        throw Exit.usageOrIO
    }
}
