/// The machine-readable preview (docs/PAYLOADS.md): a contract read by other tools, so its keys,
/// their order and their types are fixed here and nowhere else.
public enum PreviewDocument {
    public static func json(_ p: Preview) -> JSONValue {
        .object([
            ("delivery", .string(p.delivery)),
            ("service", .string(p.service)),
            ("targets", .array(p.targets.map(target))),
            ("diagnostics", findings(p.diagnostics)),
        ])
    }

    static func target(_ t: PreviewTarget) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("app", .string(t.app)), ("label", .string(t.label)), ("platform", .string(t.platform.rawValue)),
        ]
        if let env = t.environment { m.append(("environment", .string(env.rawValue))) }
        m.append(("locale", t.locale.map { .string($0) } ?? .null))
        m += [
            ("api", .string(t.api.rawValue)),
            ("endpoint", .string(t.endpoint)),
            ("headers", .object(t.headers.map { ($0.name, .string($0.value)) })),
            ("payload", t.payload),
            ("bytes", .int(t.bytes)),
            ("limit", .int(t.limit)),
            ("diagnostics", findings(t.diagnostics)),
        ]
        return .object(m)
    }

    /// `severity`, `rule`, `field`, `message` as docs/PAYLOADS.md shows, then `file` (and `line`,
    /// `column` when known): the shared `Finding.json` shape.
    static func findings(_ list: [Finding]) -> JSONValue { .array(list.map(\.json)) }
}
