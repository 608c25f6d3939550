/// A broadcast channel of an iOS app (docs/SENDING.md): Apple's base64 id, the operator's label
/// and the message storage policy chosen at creation (it cannot change afterwards).
public struct BroadcastChannel: Equatable, Sendable {
    public var id: String
    public var label: String
    public var storage: ChannelStorage

    public init(id: String, label: String = "", storage: ChannelStorage = .none) {
        self.id = id
        self.label = label
        self.storage = storage
    }

    /// `<channel>`'s attributes in the file's order.
    public static let definitions: [FieldDefinition<BroadcastChannel>] = [
        .string("id", "Channel id", .ios, \.id),
        .string("label", "Label", .ios, omitEmpty: true, \.label),
        .choice("storage", "Storage", .ios, default: ChannelStorage.none, \.storage),
    ]
}

/// Apple's `message-storage-policy`: 0 keeps no message, 1 keeps the most recent one.
public enum ChannelStorage: String, Sendable, CaseIterable {
    case none, mostRecent

    /// The number Apple's channel management API takes and answers.
    public var policy: Int { self == .none ? 0 : 1 }

    public init?(policy: Int) {
        switch policy {
        case 0: self = .none
        case 1: self = .mostRecent
        default: return nil
        }
    }
}

extension BroadcastChannel {
    /// Base64 as Apple writes channel ids: the standard alphabet, padded to a multiple of 4,
    /// decoding to at least one byte.
    public static func isValidId(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return false }
        var padding = 0
        for (i, b) in bytes.enumerated() {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
            case UInt8(ascii: "="):
                padding += 1
                if padding > 2 || i < bytes.count - 2 { return false }
            default: return false
            }
        }
        return true
    }
}
