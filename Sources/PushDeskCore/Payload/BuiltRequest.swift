/// What one target's request looks like on the wire, before rules look at it.
struct BuiltRequest {
    var endpoint: String
    /// In sending order; values are strings (docs/PAYLOADS.md).
    var headers: [(String, String)]
    /// Exactly the body that would be sent.
    var payload: JSONValue
    /// UTF-8 bytes of the compact JSON that counts against the limit (docs/PAYLOADS.md): the APNs
    /// payload, the FCM v1 `message` without `token`, the legacy body without `to`.
    var bytes: Int
}

/// The custom keys every platform carries (docs/PAYLOADS.md): the delivery's variable values in the
/// app's declaration order, then `_mId` and `_dId`. Values are strings.
enum CustomKeys {
    /// `skip` names variables that must not be sent (reserved names, collisions); the rules
    /// report them, the payload simply never holds a duplicate or reserved key.
    static func members(
        delivery: Delivery, declared: [AppVariable], tracking: Tracking,
        skip: (String) -> Bool
    ) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        append(JSONTree.self, delivery: delivery, declared: declared, tracking: tracking, skip: skip, to: &out)
        return out
    }

    static func append<J: JSONOutput>(
        _: J.Type, delivery: Delivery, declared: [AppVariable], tracking: Tracking,
        skip: (String) -> Bool, to object: inout J.Object
    ) {
        // Only names with a value can be sent, so only those are checked (a name declared
        // twice is sent once: `sent` is the list of names seen).
        var sent: [String] = []
        for variable in declared {
            guard let value = delivery.value(ofVariable: variable.name), !skip(variable.name),
                !sent.contains(variable.name)
            else { continue }
            sent.append(variable.name)
            J.append(variable.name, J.string(value), to: &object)
        }
        J.append("_mId", J.string(tracking.messageId), to: &object)
        J.append("_dId", J.string(tracking.deliveryId), to: &object)
    }
}

extension String {
    /// nil for the empty string: empty attributes and texts count as not set.
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Optional where Wrapped == String {
    var nonEmpty: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}
