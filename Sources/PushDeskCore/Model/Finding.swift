/// One result of a rule: what is wrong, how bad, and where.
public struct Finding: Equatable, Hashable, Sendable {
    public var severity: Severity
    /// Stable rule id, e.g. `integration-key.duplicate` (docs/RULES.md).
    public var rule: String
    /// Says what is wrong and what to do.
    public var message: String
    /// Store-relative file (`services/neotrips.xml`), empty when none.
    public var file: String
    /// Field path inside the record (`apps[1].connector`, `ios.sound`, `variables.mediaUrl`), empty when none.
    public var field: FieldPath
    public var line: Int?
    public var column: Int?
    /// Where inside the field's text the problem is (1-based, a JSON text's line:column);
    /// positioning a finding adds it to where the text starts in the file.
    public var within: SourceMap.Position?

    public init(
        _ severity: Severity, _ rule: String, _ message: String, file: String = "",
        field: FieldPath = .none, line: Int? = nil, column: Int? = nil, within: SourceMap.Position? = nil
    ) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.file = file
        self.field = field
        self.line = line
        self.column = column
        self.within = within
    }

    /// `FILE:LINE:COLUMN: severity: MESSAGE [rule]` (README.md), position parts left out when unknown.
    /// This is where a finding leaves for a terminal, so every part is escaped here (the
    /// file name, a field path holding a variable name, a message quoting a value): one
    /// place that no new rule can forget. Fuzzing found three that had.
    public var formatted: String {
        var loc = Escape.inline(file, limit: .max)
        if let line {
            loc += ":\(line)"
            if let column { loc += ":\(column)" }
        }
        var s = loc.isEmpty ? "" : loc + ": "
        s += "\(severity.rawValue): "
        if !field.isEmpty { s += "\(Escape.inline(field.description, limit: .max)): " }
        s += Escape.inline(message, limit: .max) + " [\(rule)]"
        return s
    }
}

public enum Severity: String, Sendable, Comparable, CaseIterable {
    case info, warning, error
    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

extension Array where Element == Finding {
    /// The most severe finding's severity, nil when empty.
    public var worst: Severity? { map(\.severity).max() }
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
