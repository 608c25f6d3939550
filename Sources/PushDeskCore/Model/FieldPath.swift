/// Where a field stands inside a record, as steps: `apps[1].connector` is the name `apps`,
/// the index 1, the name `connector`. Rules build it from steps (`.app(1).appending("connector")`),
/// `description` spells it for the terminal, JSON and source maps (docs/RULES.md), and the
/// console asks it which app, row and form field to open — nobody parses the text back.
/// Apps and list entries are indexed by position; a delivery's variables are named
/// (`variables.mediaUrl`).
public struct FieldPath: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public enum Step: Hashable, Sendable {
        case name(String)
        case index(Int)
        /// An entry of a list named by its identity: the `de` of `variant[de]`.
        case key(String)
    }

    public private(set) var steps: [Step]

    public init(_ steps: [Step]) { self.steps = steps }

    /// One field of the record itself (`label`, `payload`), or a path of names (`ios`, `sound`).
    public init(_ names: String...) { steps = names.map(Step.name) }

    /// A path as written in docs and tests (`apps[1].auth.keyId`). Rules build paths from steps.
    public init(stringLiteral text: String) { self.init(parsing: text) }

    /// Reads the spelling `description` writes: names between dots, `[n]` indexes.
    public init(parsing text: String) {
        steps = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) where !part.isEmpty {
            var rest = part[...]
            if let open = rest.firstIndex(of: "[") {
                if open > rest.startIndex { steps.append(.name(String(rest[..<open]))) }
                rest = rest[open...]
                while rest.first == "[", let close = rest.firstIndex(of: "]") {
                    let inner = String(rest[rest.index(after: rest.startIndex)..<close])
                    steps.append(Int(inner).map(Step.index) ?? .key(inner))
                    rest = rest[rest.index(after: close)...]
                }
                if !rest.isEmpty { steps.append(.name(String(rest))) }
            } else {
                steps.append(.name(String(rest)))
            }
        }
    }

    /// No field: the finding is about the file (or the store) as a whole.
    public static let none = FieldPath([])

    /// The `index`-th app of a service: `apps[1]`.
    public static func app(_ index: Int) -> FieldPath { FieldPath([.name("apps"), .index(index)]) }
    /// The `index`-th test device of a profile: `subscriptions[0]`.
    public static func subscription(_ index: Int) -> FieldPath {
        FieldPath([.name("subscriptions"), .index(index)])
    }

    /// This path, then these names: `.app(1).appending("auth", "keyId")` is `apps[1].auth.keyId`.
    public func appending(_ names: String...) -> FieldPath {
        var p = self
        p.steps += names.map(Step.name)
        return p
    }

    /// This path, then an entry of one of its lists: `.app(0).item("variables", 3)` is `apps[0].variables[3]`.
    public func item(_ list: String, _ index: Int) -> FieldPath {
        var p = self
        p.steps += [.name(list), .index(index)]
        return p
    }

    /// This path (a list), then one of its entries: `.app(0).appending("sounds").at(2)` is `apps[0].sounds[2]`.
    public func at(_ index: Int) -> FieldPath {
        var p = self
        p.steps.append(.index(index))
        return p
    }

    /// This path, then another.
    public func appending(_ other: FieldPath) -> FieldPath {
        var p = self
        p.steps += other.steps
        return p
    }

    public var isEmpty: Bool { steps.isEmpty }

    /// `apps[1].auth.keyId`, the form findings have always been printed in.
    public var description: String {
        var s = ""
        for step in steps {
            switch step {
            case .name(let n):
                if !s.isEmpty { s += "." }
                s += n
            case .index(let i): s += "[\(i)]"
            case .key(let k): s += "[\(k)]"
            }
        }
        return s
    }

    /// The entry of the record's list `list` this path is in: `apps[2].connector` → 2 for `apps`.
    public func index(in list: String) -> Int? {
        guard steps.count >= 2, steps[0] == .name(list), case .index(let i) = steps[1] else { return nil }
        return i
    }

    /// The path inside that entry: `apps[2].auth.keyId` → `auth.keyId`; the whole path when it
    /// is in no entry of `list`.
    public func inside(_ list: String) -> FieldPath {
        index(in: list) == nil ? self : FieldPath(Array(steps.dropFirst(2)))
    }

    /// Whether this path is `other` or a field inside it.
    public func isWithin(_ other: FieldPath) -> Bool { steps.starts(with: other.steps) }

    /// The first name (`ios` of `ios.sound`), "" when none.
    public var head: String {
        guard case .name(let n)? = steps.first else { return "" }
        return n
    }

    /// The last name, how form fields are named (`auth.keyId` → `keyId`,
    /// `variables[3].name` → `name`); "" when none.
    public var leaf: String {
        for step in steps.reversed() { if case .name(let n) = step { return n } }
        return ""
    }

    /// The first index: the row of a table field (`variables[3].name` → 3).
    public var row: Int? {
        for step in steps { if case .index(let i) = step { return i } }
        return nil
    }

    /// The path without its first name (`ios.sound` → `sound`).
    public var tail: FieldPath { FieldPath(Array(steps.dropFirst())) }

    /// Ordered as their spellings (lists sort as they always did).
    public static func < (a: FieldPath, b: FieldPath) -> Bool { a.description < b.description }
}
