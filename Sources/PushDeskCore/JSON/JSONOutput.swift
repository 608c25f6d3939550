/// One payload builder, two outputs: the JSON value itself (previews show it), or only the
/// byte count of its compact form (what `size.limit` needs; `validate` checks thousands of
/// deliveries). The builders in Payload/ are written once against this protocol, so the
/// count can never describe another payload than the one shown.
protocol JSONOutput {
    associatedtype Value
    associatedtype Object
    static var emptyObject: Object { get }
    static func string(_ s: String) -> Value
    /// A number kept as its literal text.
    static func number(_ literal: String) -> Value
    static func bool(_ b: Bool) -> Value
    static func append(_ key: String, _ value: Value, to object: inout Object)
    static func isEmpty(_ object: Object) -> Bool
    static func value(_ object: Object) -> Value
    /// A value read whole (a Live Activity's content state), written as it is.
    static func json(_ v: JSONValue) -> Value
}

extension JSONOutput {
    static func int(_ v: Int) -> Value { number(String(v)) }
    /// An array of strings (localization arguments).
    static func strings(_ s: [String]) -> Value { json(.array(s.map { .string($0) })) }
}

/// Builds the `JSONValue`.
enum JSONTree: JSONOutput {
    static var emptyObject: [(String, JSONValue)] { [] }
    static func string(_ s: String) -> JSONValue { .string(s) }
    static func number(_ literal: String) -> JSONValue { .number(literal) }
    static func bool(_ b: Bool) -> JSONValue { .bool(b) }
    static func append(_ key: String, _ value: JSONValue, to object: inout [(String, JSONValue)]) {
        object.append((key, value))
    }
    static func isEmpty(_ object: [(String, JSONValue)]) -> Bool { object.isEmpty }
    static func value(_ object: [(String, JSONValue)]) -> JSONValue { .object(object) }
    static func json(_ v: JSONValue) -> JSONValue { v }
}

/// Counts the bytes `JSONValue.compact` would write, building nothing.
enum JSONByteCount: JSONOutput {
    struct Object {
        var members = 0
        var bytes = 0
    }
    static var emptyObject: Object { Object() }
    static func string(_ s: String) -> Int { JSONValue.stringByteCount(s) }
    static func number(_ literal: String) -> Int { literal.utf8.count }
    static func bool(_ b: Bool) -> Int { b ? 4 : 5 }
    static func append(_ key: String, _ value: Int, to object: inout Object) {
        object.members += 1
        object.bytes += JSONValue.stringByteCount(key) + 1 + value
    }
    static func isEmpty(_ object: Object) -> Bool { object.members == 0 }
    /// Braces, commas between members, and the members.
    static func value(_ object: Object) -> Int { 2 + max(0, object.members - 1) + object.bytes }
    static func json(_ v: JSONValue) -> Int { v.compactByteCount }
}
