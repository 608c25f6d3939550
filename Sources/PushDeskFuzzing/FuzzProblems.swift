import PushDeskCore

/// Broken promises found while checking one fuzz input. Empty means the input passed.
/// The libFuzzer entry aborts on the first non-empty result (so the input is saved as a
/// crash); the corpus replay test turns each problem into a test failure.
public struct FuzzProblems: CustomStringConvertible {
    public private(set) var list: [String] = []

    public init() {}

    public var isEmpty: Bool { list.isEmpty }
    public var description: String { list.joined(separator: "\n") }

    public mutating func add(_ problem: String) { list.append(problem) }

    public mutating func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition { list.append(problem()) }
    }

    /// Text that reaches a terminal (an error, a finding) must hold nothing the console
    /// or the command line would have to escape: `Escape.mustEscape` is the rule.
    public mutating func checkSafe(_ text: String, _ what: String) {
        let scalars = Array(text.unicodeScalars)
        for (i, s) in scalars.enumerated()
        where Escape.mustEscape(
            s, previous: i > 0 ? scalars[i - 1] : nil, next: i + 1 < scalars.count ? scalars[i + 1] : nil)
        {
            add(
                "\(what) holds U+\(String(s.value, radix: 16, uppercase: true)) unescaped: \(text.debugDescription.prefix(300))"
            )
            return
        }
    }
}
