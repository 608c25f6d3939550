/// A value per role, kept in an array in the roles' declaration order. A `[Role: …]`
/// dictionary would make the runtime prove `Role: Hashable` the first time one is built,
/// by walking every protocol conformance in the binary (about 0.5 M instructions of the
/// console's start: docs/PERFORMANCE.md), and hash a role for every run of cells drawn.
public struct RoleTable<Value> {
    private var values: [Value?]

    public init() { values = Array(repeating: nil, count: Role.allCases.count) }

    public subscript(role: Role) -> Value? {
        get { values[role.ordinal] }
        set { values[role.ordinal] = newValue }
    }

    /// The roles that have a value, with it, in declaration order.
    public var entries: [(role: Role, value: Value)] {
        Role.allCases.compactMap { r in values[r.ordinal].map { (r, $0) } }
    }
}

extension RoleTable: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (Role, Value)...) {
        self.init()
        for (role, value) in elements { self[role] = value }
    }
}

extension RoleTable: Equatable where Value: Equatable {}
extension RoleTable: Sendable where Value: Sendable {}

extension Role: CaseOrdinal {}
