/// An element of a parsed XML file, with the position of its start tag and of each attribute.
public final class XMLNode: @unchecked Sendable {
    public let name: String
    /// In document order.
    public internal(set) var attributes: [(name: String, value: String)]
    public internal(set) var children: [XMLNode] = []
    /// Character data directly inside this element (entity references resolved).
    public internal(set) var text: String = ""
    /// 1-based position of the `<` of the start tag.
    public let line: Int
    public let column: Int
    /// 1-based positions of attributes by name (where their name starts).
    public internal(set) var attributePositions: [String: (line: Int, column: Int)] = [:]

    init(name: String, attributes: [(name: String, value: String)], line: Int, column: Int) {
        self.name = name; self.attributes = attributes; self.line = line; self.column = column
    }

    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// Position of an attribute, falling back to the element's.
    public func position(ofAttribute name: String) -> (line: Int, column: Int) {
        attributePositions[name] ?? (line, column)
    }
}
