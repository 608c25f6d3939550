/// Why a request got no answer. Each case names the step of `credentials check --online` (docs/SENDING.md) it belongs to, so a send
/// failure and a connection check say the same thing. Messages never hold a credential.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Step: String, Sendable, CaseIterable {
        case dns, tcp, tls, auth
    }
    public var step: Step
    /// Whether the 10 s connect / 30 s response time-out ran out.
    public var timedOut: Bool
    public var message: String
    /// Whether the work was cancelled (`TransportCancellation`, the console's Esc).
    public var cancelled: Bool

    public init(_ step: Step, _ message: String, timedOut: Bool = false, cancelled: Bool = false) {
        self.step = step
        self.message = message
        self.timedOut = timedOut
        self.cancelled = cancelled
    }

    public var description: String { message }
}
