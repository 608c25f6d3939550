import PushDeskCore

/// A run of text with one theme role.
struct Span: Equatable {
    var text: String
    var role: Role
}

/// The pretty JSON of a payload as lines of coloured spans. The text is exactly
/// `JSONValue.pretty` (2-space indent, `": "`); strings and keys are written by the core's
/// own writer (`JSONValue.compact` of the string) and then `Escape.json`, as `pretty` does, so
/// escaping has one implementation and the pane shows `preview --json` byte for byte.
enum JSONLines {
    static func lines(_ value: JSONValue) -> [[Span]] {
        var out: [[Span]] = [[]]
        func emit(_ t: String, _ r: Role) { out[out.count - 1].append(Span(text: t, role: r)) }
        func newline(_ level: Int) {
            out.append([])
            if level > 0 { emit(String(repeating: "  ", count: level), .jsonPunctuation) }
        }
        func walk(_ v: JSONValue, _ level: Int) {
            switch v {
            case .string: emit(Escape.json(v.compact), .jsonString)
            case .number(let n): emit(n, .jsonNumber)
            case .bool(let b): emit(b ? "true" : "false", .jsonNumber)
            case .null: emit("null", .jsonNumber)
            case .array(let items):
                guard !items.isEmpty else {
                    emit("[]", .jsonPunctuation)
                    return
                }
                emit("[", .jsonPunctuation)
                for (i, item) in items.enumerated() {
                    if i > 0 { emit(",", .jsonPunctuation) }
                    newline(level + 1)
                    walk(item, level + 1)
                }
                newline(level)
                emit("]", .jsonPunctuation)
            case .object(let members):
                guard !members.isEmpty else {
                    emit("{}", .jsonPunctuation)
                    return
                }
                emit("{", .jsonPunctuation)
                for (i, (key, item)) in members.enumerated() {
                    if i > 0 { emit(",", .jsonPunctuation) }
                    newline(level + 1)
                    emit(Escape.json(JSONValue.string(key).compact), .jsonKey)
                    emit(": ", .jsonPunctuation)
                    walk(item, level + 1)
                }
                newline(level)
                emit("}", .jsonPunctuation)
            }
        }
        walk(value, 0)
        return out
    }

    /// Splits lines of spans into rows of at most `width` columns (long strings wrap).
    static func wrap(_ lines: [[Span]], width: Int) -> [[Span]] {
        guard width > 0 else { return [] }
        var rows: [[Span]] = []
        for line in lines {
            var row: [Span] = []
            var used = 0
            for span in line {
                var chunk = ""
                var chunkW = 0
                for c in span.text {
                    let w = TextArea.columns(c)
                    if used + chunkW + w > width {
                        if !chunk.isEmpty { row.append(Span(text: chunk, role: span.role)) }
                        rows.append(row)
                        row = []
                        used = 0
                        chunk = ""
                        chunkW = 0
                    }
                    chunk.append(c)
                    chunkW += w
                }
                if !chunk.isEmpty {
                    row.append(Span(text: chunk, role: span.role))
                    used += chunkW
                }
            }
            rows.append(row)
        }
        return rows
    }
}
