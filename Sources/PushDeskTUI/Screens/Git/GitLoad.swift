import Foundation

/// A git read a view shows (a record's history, a version's text, a conflict's three
/// versions): a view `Job` started when the view is pushed (`ConsoleScreen.jobsOnOpen`), so
/// the view opens at once saying "loading…", answers keys and redraws on a resize while git
/// works, and takes the answer from its `update` (`take(ready:failed:)`). The view leaving the stack
/// cancels it: its answer, when it comes, is dropped.
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

    private(set) var state = State.loading
    private var arrived: Answer?
    /// The read, run by the app when the view that holds it opens.
    private(set) var job: Job!

    /// `owner` is the view that shows the value.
    init(owner: AnyObject, _ read: @escaping @Sendable () throws -> Value) {
        job = .make(
            .view, owner: owner,
            work: { _ -> Answer in
                do { return .ready(try read()) } catch { return .failed("\(error)") }
            },
            onResult: { [weak self] answer, _ in
                self?.arrived = answer
                return .none
            })
    }

    /// Takes the answer once it is in; true when the state changed.
    @discardableResult
    func take() -> Bool {
        guard let answer = arrived else { return false }
        arrived = nil
        switch answer {
        case .ready(let v): state = .ready(v)
        case .failed(let why): state = .failed(why)
        }
        return true
    }

    /// Takes the answer once it is in and hands it to `ready`, or git's reason (not yet
    /// sanitized) to `failed`; false while git still reads.
    func take(ready: (Value) -> Void, failed: (String) -> Void) -> Bool {
        guard take() else { return false }
        switch state {
        case .loading: return false
        case .ready(let v): ready(v)
        case .failed(let why): failed(why)
        }
        return true
    }

    var value: Value? {
        if case .ready(let v) = state { return v }
        return nil
    }
}
