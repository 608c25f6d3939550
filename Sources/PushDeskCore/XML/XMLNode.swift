/// An element of a parsed XML file, with the position of its start tag and of each attribute.
///
/// Positions are computed when asked (an error message, a source map being built), not
/// while parsing: a valid file never pays for them.
public final class XMLNode: @unchecked Sendable {
    public let name: String
    /// In document order.
    // Set only while the tree is built (by one thread), then read: no run-time exclusivity
    // checks, which cost more than the reads themselves (docs/PERFORMANCE.md).
    @exclusivity(unchecked) public internal(set) var attributes: [(name: String, value: String)]
    @exclusivity(unchecked) public internal(set) var children: [XMLNode] = []
    /// Character data directly inside this element (entity references resolved). White
    /// space alone between child elements (indentation) is not kept: such an element has "".
    @exclusivity(unchecked) public internal(set) var text: String = ""
    /// Byte offset of the start tag's `<` in `source`; nil when the scan did not find it.
    let offset: Int?
    let source: SourceText
    /// Where the parser stood when it reported the element: used only when `offset` is nil.
    private let parserPosition: (line: Int, column: Int)

    init(name: String, attributes: [(name: String, value: String)], offset: Int?, source: SourceText,
         parserPosition: (line: Int, column: Int) = (1, 1)) {
        self.name = name; self.attributes = attributes; self.offset = offset; self.source = source
        self.parserPosition = parserPosition
    }

    /// 1-based position of the `<` of the start tag.
    public var line: Int { position.line }
    public var column: Int { position.column }
    private var position: (line: Int, column: Int) {
        offset.map { source.position(ofByte: $0) } ?? parserPosition
    }

    public func attribute(_ name: String) -> String? {
        for a in attributes where a.name == name { return a.value }
        return nil
    }

    /// 1-based positions of attributes by name (where their name starts).
    public var attributePositions: [String: (line: Int, column: Int)] {
        var out: [String: (line: Int, column: Int)] = [:]
        guard let offset else { return out }
        for a in attributes {
            if let o = source.attributeOffset(a.name, inTagAt: offset) { out[a.name] = source.position(ofByte: o) }
        }
        return out
    }

    /// Position of an attribute, falling back to the element's.
    public func position(ofAttribute name: String) -> (line: Int, column: Int) {
        if let offset, attribute(name) != nil, let o = source.attributeOffset(name, inTagAt: offset) {
            return source.position(ofByte: o)
        }
        return (line, column)
    }
}
