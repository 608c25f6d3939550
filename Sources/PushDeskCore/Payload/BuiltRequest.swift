/// What one target's request looks like on the wire, before rules look at it.
struct BuiltRequest {
    var endpoint: String
    /// In sending order; values are strings (SPEC §6).
    var headers: [(String, String)]
    /// Exactly the body that would be sent.
    var payload: JSONValue
    /// UTF-8 bytes of the compact JSON that counts against the limit (SPEC §4.5): the APNs
    /// payload, the FCM v1 `message` without `token`, the legacy body without `to`.
    var bytes: Int
}

/// The custom keys every platform carries (SPEC §4): the delivery's variable values in the
/// app's declaration order, then `_mId` and `_dId`. Values are strings.
enum CustomKeys {
    /// `skip` names variables that must not be sent (reserved names, collisions); the rules
    /// report them, the payload simply never holds a duplicate or reserved key.
    static func members(delivery: Delivery, declared: [AppVariable], tracking: Tracking,
                        skip: (String) -> Bool) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        out.reserveCapacity(declared.count + 2)
        var seen = Set<String>()
        for variable in declared where !skip(variable.name) && seen.insert(variable.name).inserted {
            if let value = delivery.value(ofVariable: variable.name) { out.append((variable.name, .string(value))) }
        }
        out.append(("_mId", .string(tracking.messageId)))
        out.append(("_dId", .string(tracking.deliveryId)))
        return out
    }
}

extension String {
    /// nil for the empty string: empty attributes and texts count as not set.
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Optional where Wrapped == String {
    var nonEmpty: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}
