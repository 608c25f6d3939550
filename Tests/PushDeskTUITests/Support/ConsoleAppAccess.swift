import Foundation
import PushDeskCore

@testable import PushDeskTUI

/// What the tests set up and read of the console beyond its public face: its state, and the
/// events the run loop feeds it (a load, a git read, a message), each applied as the effect
/// the loop would apply.
extension ConsoleApp {
    var store: any ConsoleStorage { state.store }
    var access: StoreAccess { state.access }
    var services: [Service] { state.services }
    var profiles: [Profile] { state.profiles }
    var viewWidth: Int { state.viewWidth }
    var viewHeight: Int { state.viewHeight }
    var exitOutput: [String] { state.outputs.exitOutput }
    var pendingTheme: String? { state.outputs.theme }
    var recovery: RecoveryKeeper? {
        get { state.recovery }
        set { state.recovery = newValue }
    }
    var clock: @Sendable () -> Date {
        get { state.clock }
        set { state.clock = newValue }
    }
    var environment: [String: String] {
        get { state.environment }
        set { state.environment = newValue }
    }

    /// A status-line message from outside the views (nil clears it).
    func say(_ text: String?) {
        state.message = text
        settle()
    }
    func reload() { state.reload(stack) }
    func finishLoading(_ loaded: LoadedStore) { perform(.loaded(loaded, offerRecovery: false)) }
    func finishGitStatus(_ status: GitStatus?) { perform(.gitRead(status)) }
    func offerPendingRecovery() { perform(.offerPendingRecovery) }
}
