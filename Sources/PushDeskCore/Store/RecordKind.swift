import Foundation

/// The kinds of record a store holds, one XML file each (docs/FORMATS.md). Everything that differs
/// between them is a row here — folder, root element, record type (its codec and recovery
/// XML), merge schema — so the store, the merge driver, recovery files and the console ask
/// the kind instead of switching over it. A new kind is one case and its row.
public enum RecordKind: String, Sendable, CaseIterable {
    case service, delivery, profile

    /// What differs between the kinds, one row each.
    struct Row: Sendable {
        var folder: String
        var rootElement: String
        var type: any EditableRecord.Type
        var merge: MergeSchema
    }

    var row: Row {
        switch self {
        case .service: Self.serviceRow
        case .delivery: Self.deliveryRow
        case .profile: Self.profileRow
        }
    }

    private static let serviceRow = Row(
        folder: "services", rootElement: "service", type: Service.self,
        merge: MergeSchema(
            lists: [
                // Apps by integration key. The element name is part of the identity so an iOS
                // app and an Android app never merge into one element.
                "service": .init(segment: "apps", identity: ["integrationKey"]),
                "variables": .init(segment: nil, identity: ["name"]),
                "subscriptionParams": .init(segment: nil, identity: ["name"]),
                "sounds": .init(segment: nil, identity: ["name"]),
                "channels": .init(segment: nil, identity: ["id"]),
            ]))
    private static let deliveryRow = Row(
        folder: "deliveries", rootElement: "delivery", type: Delivery.self,
        merge: MergeSchema(
            lists: [
                "variables": .init(segment: nil, identity: ["name"], named: true),
                // Variants by language: `variant[de].title`, `variant[de].values.mediaUrl`.
                "variants": .init(
                    segment: nil, identity: ["locale"], keyedAs: "variant", childNames: ["variables": "values"]),
            ],
            sequenceFields: Set(LocalizedKeys.arguments.map(\.element))))
    private static let profileRow = Row(
        folder: "profiles", rootElement: "recipient", type: Profile.self,
        merge: MergeSchema(
            lists: ["recipient": .init(segment: "subscriptions", identity: ["app", "token"])],
            freeFormRoot: true, emptyAttributesAreValues: true))

    /// Its folder in the store (`services`).
    public var folder: String { row.folder }
    /// The root element of its files (`<service>`, `<delivery>`, `<recipient>`).
    public var rootElement: String { row.rootElement }
    /// What it is called in messages.
    public var noun: String { rawValue }
    /// The record type: its XML codec (`StoreRecord.codec`) and recovery XML.
    public var recordType: any EditableRecord.Type { row.type }
    /// What the merge driver must know of its shape beyond the element tree.
    var mergeSchema: MergeSchema { row.merge }

    /// `service, delivery or profile`, for messages.
    public static var expected: String {
        allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
    }

    /// Store-relative path of the record file of this kind and name.
    public func path(_ name: String) -> String { "\(folder)/\(name).xml" }

    /// The kind a store path names by its folder (`services/x.xml`, `store/deliveries/y.xml`).
    public init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts.last?.hasSuffix(".xml") == true,
            let kind = Self.allCases.first(where: { $0.folder == parts[parts.count - 2] })
        else { return nil }
        self = kind
    }

    /// The kind and record name of a store-relative record file (`services/neotrips.xml`, as
    /// findings name files); nil for any other path.
    public static func record(file: String) -> (kind: RecordKind, name: String)? {
        for kind in allCases {
            let prefix = kind.folder + "/"
            if file.hasPrefix(prefix), file.hasSuffix(".xml") {
                return (kind, String(file.dropFirst(prefix.count).dropLast(4)))
            }
        }
        return nil
    }

    /// The record's text exactly as a save writes it, decoded from a parsed file with the
    /// store's strict reader (unknown attributes and a wrong root element are refused here;
    /// malformed XML already by the parse).
    func canonicalText(_ root: XMLNode, file: String, name: String) throws -> String {
        func text<R: StoreRecord>(_: R.Type) throws -> String {
            try R.codec.encode(R.codec.decodeTree(root, file, name, nil))
        }
        return try text(recordType)
    }
}
