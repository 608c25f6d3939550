/// Why a request got no answer. Each case names the §9 step it belongs to, so a send
/// failure and a connection check say the same thing. Messages never hold a credential.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Step: String, Sendable, CaseIterable {
        case dns, tcp, tls, auth
    }
    public var step: Step
    /// Whether the 10 s connect / 30 s response time-out ran out.
    public var timedOut: Bool
    public var message: String

    public init(_ step: Step, _ message: String, timedOut: Bool = false) {
        self.step = step
        self.message = message
        self.timedOut = timedOut
    }

    public var description: String { message }
}
