import Foundation

/// A git read a view shows (a record's history, a version's text, a conflict's three
/// versions): it runs on its own thread through the console's `BackgroundWork`, so the view
/// opens at once saying "loading…", answers keys and redraws on a resize while git works,
/// and takes the answer on the run loop's thread (`take`, from the view's `update`).
final class GitLoad<Value: Sendable> {
    enum State {
        case loading
        case ready(Value)
        case failed(String)
    }

    private enum Answer: Sendable {
        case ready(Value)
        case failed(String)
    }

    private let mailbox: Mailbox<Answer>
    private(set) var state = State.loading

    /// Starts `read` at once.
    init(_ work: BackgroundWork, _ read: @escaping @Sendable () throws -> Value) {
        let mailbox = Mailbox<Answer>(work)
        self.mailbox = mailbox
        work.start {
            do { mailbox.put(.ready(try read())) } catch { mailbox.put(.failed("\(error)")) }
        }
    }

    /// Takes the answer once it is in; true when the state changed.
    @discardableResult
    func take() -> Bool {
        guard let answer = mailbox.take().last else { return false }
        switch answer {
        case .ready(let v): state = .ready(v)
        case .failed(let why): state = .failed(why)
        }
        return true
    }

    /// The view closed: its answer, when it comes, is dropped.
    func cancel() { mailbox.cancel() }

    var value: Value? {
        if case .ready(let v) = state { return v }
        return nil
    }
}
