import Foundation

/// What the merge must know about a record's shape beyond its element tree (docs/TEAMS.md):
/// which children are lists and what identifies their entries, which elements are one
/// field as a whole, and how field paths are spelled (docs/RULES.md). Everything else is
/// generic: an attribute or a text is a field, a single child element is a group of fields.
/// Each record kind gives its own (`RecordKind`).
struct MergeSchema: Sendable {
    /// Children of an element that are list entries matched by identity.
    struct ListRule: Sendable {
        /// Path segment of the list (`apps`, `subscriptions`); nil when the list is the element
        /// itself (`apps[0].variables`).
        var segment: String?
        /// Attributes whose values identify an entry.
        var identity: [String]
        /// Entries are named in paths by their identity (`variables.mediaUrl`), not by index.
        var named: Bool = false
        /// Entries are named `NAME[identity]` in place of the list element's path
        /// (`variant[de]` for a `<variant locale="de">` of `<variants>`).
        var keyedAs: String? = nil
        /// How the entries' child elements are spelled in paths when not by their element
        /// name (a variant's `<variables>` are its `values`).
        var childNames: [String: String] = [:]
    }

    /// The list rule of each element whose children are list entries.
    var lists: [String: ListRule]
    /// The root's attributes are free-form fields in the order written (a profile's): THEIRS'
    /// new ones go after OURS'. Elsewhere attributes have one fixed order, found from the versions.
    var freeFormRoot = false
    /// An empty attribute is a value (a profile's field personalization uses). Services and
    /// deliveries read an empty attribute as not set, so for their merge it is no field.
    var emptyAttributesAreValues = false

    /// The list rule when `element`'s children are list entries; nil when they are single children.
    func list(in element: String) -> ListRule? { lists[element] }

    /// `<auth>` and `<tracking>` are one field each: a mode change never mixes attributes.
    func isWholeField(_ element: String) -> Bool {
        element == "auth" || element == "tracking"
    }

    /// Repeated children that are one field holding their whole sequence (a delivery's
    /// `<localized>` arguments: `titleArg`, `subtitleArg`, `bodyArg`).
    var sequenceFields: Set<String> = []
}
