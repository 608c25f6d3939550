import Foundation

/// What importing a translators' file would do to a delivery: the delivery after it (nil
/// when anything is an error, so nothing is written), what changed language by language
/// (`--dry-run`), and the findings — the file's at `FILE:LINE:COLUMN`, then the result's
/// language rules.
public struct VariantsImportPlan: Sendable {
    public let result: Delivery?
    public let changes: [VariantsImportChange]
    public let findings: [Finding]
    /// The delivery the file was read onto: a result's error it already had does not block.
    let base: Delivery

    init(result: Delivery?, changes: [VariantsImportChange], findings: [Finding], base: Delivery) {
        self.result = result
        self.changes = changes
        self.findings = findings
        self.base = base
    }

    /// The same plan with the result checked as `validate` checks it against its service
    /// (every variant on every app: sizes, variables, personalization). An error the delivery
    /// did not already have stops the import (`result` nil); the others are reported.
    public func checked(service: Service, profiles: [Profile], now: Date) -> VariantsImportPlan {
        guard let result else { return self }
        let shown = Set(findings)
        let more = DeliveryRules.check(delivery: result, service: service, profiles: profiles, now: now)
            .filter { !shown.contains($0) }
        let all = findings + more
        // The delivery as it was is checked only when the result has an error to compare.
        let errors = more.filter { $0.severity == .error }
        let before =
            errors.isEmpty
            ? []
            : Set(DeliveryRules.check(delivery: base, service: service, profiles: profiles, now: now).map(\.key))
        let blocked = errors.contains { !before.contains($0.key) }
        return VariantsImportPlan(result: blocked ? nil : result, changes: changes, findings: all, base: base)
    }

    /// A file refused before it was read (more than `CSVTable.maxBytes`): nothing to import.
    public static func refused(_ finding: Finding, onto delivery: Delivery) -> VariantsImportPlan {
        VariantsImportPlan(result: nil, changes: [], findings: [finding], base: delivery)
    }

    /// A file over `CSVTable.maxBytes`, refused before it is read whole (`csv.size`): the
    /// command's and the console's reader stop at that size.
    public static func tooLarge(_ file: String, onto delivery: Delivery) -> VariantsImportPlan {
        refused(
            CSVRules.size.finding(
                "the file is more than \(CSVTable.maxBytes) bytes; a translators' file is at most 10 MB: split it",
                file: file, line: 1, column: 1), onto: delivery)
    }

    /// Nothing would change.
    public var isEmpty: Bool { changes.isEmpty }

    /// `--json`: `delivery`, `file`, `saved`, `changes`, `findings` (docs/FORMATS.md);
    /// `positioned`: the findings with their line:column in the saved file, when there is one.
    public func json(delivery: String, file: String, saved: Bool, positioned: [Finding]? = nil) -> JSONValue {
        .object([
            ("delivery", .string(delivery)), ("file", .string(file)), ("saved", .bool(saved)),
            ("changes", .array(changes.map(\.json))), ("findings", .array((positioned ?? findings).map(\.json))),
        ])
    }
}

/// What an import does to one language: the default (`locale` nil) or a variant.
public struct VariantsImportChange: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case added, changed, removed
    }

    public let kind: Kind
    /// The variant's tag as written in the delivery; nil for the default.
    public let locale: String?
    /// What differs, as findings name it: `title`, `subtitle`, `body`, `values.NAME`.
    public let fields: [String]

    /// `added de: title, body` · `changed default: values.mediaUrl` · `removed fr`.
    public var line: String {
        let what = "\(kind.rawValue) \(locale ?? "default")"
        return fields.isEmpty || kind == .removed ? what : what + ": " + fields.joined(separator: ", ")
    }

    var json: JSONValue {
        .object([
            ("change", .string(kind.rawValue)), ("locale", locale.map(JSONValue.string) ?? .null),
            ("fields", .array(fields.map(JSONValue.string))),
        ])
    }
}

extension Finding {
    /// A finding's identity apart from its wording (a size.limit message holds the bytes).
    var key: String { "\(rule) \(file) \(field)" }
}
