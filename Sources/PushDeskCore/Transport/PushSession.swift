import Foundation

/// One push session (docs/SENDING.md): the environment's transport settings
/// (endpoints, CA file, proxies), one sender whose connections the session's requests share,
/// and the send log. `pushdesk send`, `pushdesk credentials check --online` and the console's
/// Send test and Check online all start from it, so they reach the same servers the same way.
public final class PushSession: @unchecked Sendable {
    public let sender: PushSender
    public let storeRoot: URL

    /// Reads the transport settings of `environment`; a bad PUSHDESK_* variable throws the
    /// error that names it. `cancellation` stops the session's waits and connections.
    public init(
        storeRoot: URL, environment: [String: String], cancellation: TransportCancellation = TransportCancellation()
    ) throws {
        let settings = try TransportSettings.fromEnvironment(environment)
        sender = PushSender(
            settings: settings, storeRoot: storeRoot, environment: environment, cancellation: cancellation)
        self.storeRoot = storeRoot
    }

    /// Progress while waiting (a retry's back-off): stderr on a terminal, the console's status line.
    public var progress: (@Sendable (String) -> Void)? {
        get { sender.progress }
        set { sender.progress = newValue }
    }

    /// Sends a plan (nothing when it is blocked); `onResult` sees each answer as it comes.
    public func send(_ plan: SendPlan, dryRun: Bool, onResult: (SendResult) -> Void = { _ in }) -> SendReport {
        sender.send(plan, dryRun: dryRun, onResult: onResult)
    }

    /// Check online for one app: dns → tcp → tls → auth, each step as it finishes.
    public func check(_ app: MobileApp, offlineFinding: Finding?, onStep: (OnlineStep) -> Void = { _ in })
        -> [OnlineStep]
    {
        ConnectionCheck.run(app: app, sender: sender, offlineFinding: offlineFinding, onStep: onStep)
    }

    /// Appends the requests made to the store's send log (docs/SENDING.md).
    public func log(_ report: SendReport) throws { try SendLog.append(report, storeRoot: storeRoot) }

    /// Closes the session's connections.
    public func close() { sender.closeAll() }
}
