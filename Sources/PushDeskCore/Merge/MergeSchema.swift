import Foundation

/// The kinds of record file a store holds, named by their folder (SPEC §3); unlike
/// `RecordKind` (the records the console edits and recovers) it includes profiles.
public enum RecordFileKind: String, Sendable, CaseIterable {
    case service, delivery, profile

    /// The kind a store path names by its folder (`services/x.xml`, `store/deliveries/y.xml`).
    public init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts.last?.hasSuffix(".xml") == true else { return nil }
        switch parts[parts.count - 2] {
        case "services": self = .service
        case "deliveries": self = .delivery
        case "profiles": self = .profile
        default: return nil
        }
    }

    /// The record's text exactly as a save writes it, decoded from a parsed file with the
    /// store's strict reader (unknown attributes and a wrong root element are refused here;
    /// malformed XML already by the parse).
    func canonicalText(_ root: XMLNode, file: String, name: String) throws -> String {
        switch self {
        case .service: try ServiceXML.encode(ServiceXML.decode(root, file: file))
        case .delivery: try DeliveryXML.encode(DeliveryXML.decode(root, file: file))
        case .profile: try ProfileXML.encode(ProfileXML.decode(root, file: file, name: name))
        }
    }
}

/// What the merge must know about a record's shape beyond its element tree (SPEC §10.2):
/// which children are lists and what identifies their entries, which elements are one
/// field as a whole, and how field paths are spelled (docs/RULES.md). Everything else is
/// generic: an attribute or a text is a field, a single child element is a group of fields.
struct MergeSchema {
    /// Children of an element that are list entries matched by identity.
    struct ListRule {
        /// Path segment of the list (`apps`, `subscriptions`); nil when the list is the element
        /// itself (`apps[0].variables`).
        var segment: String?
        /// Attributes whose values identify an entry.
        var identity: [String]
        /// Entries are named in paths by their identity (`variables.mediaUrl`), not by index.
        var named: Bool = false
    }

    let kind: RecordFileKind

    /// The list rule when `element`'s children are list entries; nil when they are single children.
    func list(in element: String) -> ListRule? {
        switch (kind, element) {
        // Apps by integration key. The element name is part of the identity so an iOS app
        // and an Android app never merge into one element.
        case (.service, "service"): ListRule(segment: "apps", identity: ["integrationKey"])
        case (.service, "variables"), (.service, "subscriptionParams"), (.service, "sounds"):
            ListRule(segment: nil, identity: ["name"])
        case (.delivery, "variables"): ListRule(segment: nil, identity: ["name"], named: true)
        case (.profile, "recipient"): ListRule(segment: "subscriptions", identity: ["app", "token"])
        default: nil
        }
    }

    /// `<auth>` and `<tracking>` are one field each: a mode change never mixes attributes.
    func isWholeField(_ element: String) -> Bool {
        element == "auth" || element == "tracking"
    }
}
