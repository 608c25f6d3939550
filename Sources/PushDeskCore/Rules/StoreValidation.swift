import Foundation

/// Everything `pushdesk validate` reports: files that do not load, then every rule.
public enum StoreValidation {
    /// `now` is for `expiration.past`.
    /// The scopes of the catalog, in order, each over the whole store.
    public static func findings(_ snapshot: StoreSnapshot, now: Date = Date()) -> [Finding] {
        RuleCatalog.storeScopes.flatMap { $0.all(snapshot, now: now) }
    }
}

/// The files that did not load: known when the store is read, so edits do not change them.
final class FileScope: StoreScope, @unchecked Sendable {
    static func all(_ snapshot: StoreSnapshot, now: Date) -> [Finding] { StoreValidation.fileFindings(snapshot) }

    private let found: [Finding]
    init(_ snapshot: StoreSnapshot, now: Date) { found = Self.all(snapshot, now: now) }
    func findings(_ edit: StoreEdit) -> [Finding] { found }
}

extension StoreSnapshot {
    /// A service file did not load: its apps are unknown (ProfileRules).
    var servicesUnreadable: Bool { errors.contains { $0.file.hasPrefix(Service.folder + "/") } }
}

extension StoreValidation {
    public static let malformed = Rule("file.malformed", .error, .file, "a file cannot be read as its format")
    public static let io = Rule("file.io", .error, .file, "a file or folder cannot be read")

    /// Every file rule, in the order of docs/RULES.md.
    public static let all: [Rule] = [malformed, io]

    /// The files that did not load, as findings.
    static func fileFindings(_ snapshot: StoreSnapshot) -> [Finding] {
        snapshot.errors.map { e in
            (e.kind == .io ? io : malformed).finding(e.message, file: e.file, line: e.line, column: e.column)
        }
    }
}

extension Finding {
    /// The finding as JSON (the shape used by `validate --json` and docs/PAYLOADS.md diagnostics).
    public var json: JSONValue {
        var m: [(String, JSONValue)] = [
            ("severity", .string(severity.rawValue)), ("rule", .string(rule)),
            ("field", .string(field.description)), ("message", .string(message)),
        ]
        if !file.isEmpty { m.append(("file", .string(file))) }
        if let line { m.append(("line", .int(line))) }
        if let column { m.append(("column", .int(column))) }
        return .object(m)
    }
}
