import Foundation
import PushDeskCore

/// The push session of a command (`send`, `credentials check --online`, `channels`): the
/// store's transport settings and this process's environment. A setting that cannot be used
/// ends the command with its message (exit 2); `progress` prints each step to a terminal.
func openPushSession(_ store: Store, progress: Bool = false) throws -> PushSession {
    let session: PushSession
    do {
        session = try PushSession(storeRoot: store.root, environment: ProcessEnvironment.read())
    } catch {
        printError("error: \(Escape.inline("\(error)", limit: 4096))")
        throw Exit.usageOrIO
    }
    if progress, isatty(STDERR_FILENO) == 1 { session.progress = { printError($0) } }
    return session
}
