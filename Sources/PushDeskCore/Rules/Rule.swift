/// One rule of the catalog (docs/RULES.md): its stable id, its severity, what it looks at,
/// and one line on when it fires. A finding is made from its rule, so each id and
/// severity are spelled once, here in a `static let`, and nowhere in the checks.
///
///     static let badgeRange = Rule(
///         "badge.range", .error, .target, "badge not a whole number ≥ 0")
///     …
///     out.append(Self.badgeRange.finding("badge \"x\" is not …", file: file, field: "ios.badge"))
public struct Rule: Hashable, Sendable, CustomStringConvertible {
    public let id: String
    public let severity: Severity
    public let scope: RuleScope
    public let summary: String

    public init(_ id: String, _ severity: Severity, _ scope: RuleScope, _ summary: String) {
        self.id = id
        self.severity = severity
        self.scope = scope
        self.summary = summary
    }

    /// `within`: where inside the field's text (a JSON text's line:column, `Finding.within`).
    public func finding(
        _ message: String, file: String = "", field: FieldPath = .none, line: Int? = nil, column: Int? = nil,
        within: SourceMap.Position? = nil
    ) -> Finding {
        Finding(severity, id, message, file: file, field: field, line: line, column: column, within: within)
    }

    public var description: String { "\(id) (\(severity.rawValue), \(scope.rawValue))" }
}

/// What a rule looks at: the input its check receives, and so what must change for its
/// findings to change (the console reruns a scope's checks when that input changes).
public enum RuleScope: String, Sendable, CaseIterable {
    /// A store file that does not load.
    case file
    /// One service's own fields, and its apps as a whole (the iOS pair).
    case service
    /// One app of a service.
    case app
    /// The integration keys across every service of the store.
    case integrationKeys
    /// One delivery apart from any app (its variables, its service).
    case delivery
    /// One delivery sent to one app: a preview target, raised while its payload is built.
    case target
    /// What `pushdesk preview` was asked (an app key, a profile).
    case preview
    /// The test devices of the profiles, against the store's apps.
    case profile
    /// A request the `pushdesk listen` server received.
    case listen
    /// An app's key files, certificates and secrets.
    case credential
    /// A step of the online connection check.
    case connection
    /// A file being imported: a Campaign package, a translators' CSV file.
    case package
}

/// A check over one scope's input: it reports findings of the rules it names, in the order
/// of the fields it walks (a record's findings read top to bottom, whatever their rule).
public struct RuleCheck<Input>: Sendable {
    public let rules: [Rule]
    let run: @Sendable (Input, inout [Finding]) -> Void

    public init(_ rules: [Rule], _ run: @escaping @Sendable (Input, inout [Finding]) -> Void) {
        self.rules = rules
        self.run = run
    }

    public func callAsFunction(_ input: Input, into out: inout [Finding]) { run(input, &out) }
}
