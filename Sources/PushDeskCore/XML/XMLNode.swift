/// The elements of one parsed file, stored flat: one array per field, elements in document
/// order, attributes of all elements end to end. A file's tree is built with a few array
/// appends per element and freed at once — no object per element (docs/PERFORMANCE.md:
/// building and freeing one object and two arrays per element cost more than libxml2's parse).
///
/// Written by one thread while parsing, read-only after `finish()`: no run-time exclusivity
/// checks, which cost more than the appends and reads themselves.
final class XMLDocument: @unchecked Sendable {
    let source: SourceText
    @exclusivity(unchecked) var names: [String] = []
    /// Byte offset of each start tag's `<` in `source`; -1 when the scan did not find it.
    @exclusivity(unchecked) var offsets: [Int] = []
    /// Element i's attributes are `attributes[attributeStarts[i]..<attributeStarts[i + 1]]`
    /// (one more start than elements once the parse is done).
    @exclusivity(unchecked) var attributeStarts: [Int] = []
    @exclusivity(unchecked) var attributes: [(name: String, value: String)] = []
    @exclusivity(unchecked) var texts: [String] = []
    @exclusivity(unchecked) var parents: [Int] = []
    @exclusivity(unchecked) var childCounts: [Int] = []
    /// Element i's children are `children[childStarts[i]..<childStarts[i] + childCounts[i]]`.
    @exclusivity(unchecked) var childStarts: [Int] = []
    @exclusivity(unchecked) var children: [Int] = []
    /// Where the parser stood for elements the scan did not find (rare: hostile files).
    @exclusivity(unchecked) var parserPositions: [Int: (line: Int, column: Int)] = [:]

    /// `elements`: how many start tags the byte scan found, so the arrays never grow.
    init(source: SourceText, elements: Int) {
        self.source = source
        do {
            let n = elements
            names.reserveCapacity(n)
            offsets.reserveCapacity(n)
            attributeStarts.reserveCapacity(n + 1)
            texts.reserveCapacity(n)
            parents.reserveCapacity(n)
            childCounts.reserveCapacity(n)
            attributes.reserveCapacity(2 * n)
        }
    }

    /// Called once after the parse: the attribute sentinel and the children lists (each
    /// element's children in document order).
    func finish() {
        attributeStarts.append(attributes.count)
        childStarts = [Int](repeating: 0, count: names.count)
        var next = 0
        for i in names.indices {
            childStarts[i] = next
            next += childCounts[i]
        }
        children = [Int](repeating: 0, count: next)
        var filled = [Int](repeating: 0, count: names.count)
        for i in names.indices where parents[i] >= 0 {
            let p = parents[i]
            children[childStarts[p] + filled[p]] = i
            filled[p] += 1
        }
    }
}

/// An element of a parsed XML file, with the position of its start tag and of each attribute.
///
/// Positions are computed when asked (an error message, a source map being built), not
/// while parsing: a valid file never pays for them.
public struct XMLNode: @unchecked Sendable {
    let document: XMLDocument
    let index: Int

    public var name: String { document.names[index] }
    /// In document order.
    public var attributes: ArraySlice<(name: String, value: String)> {
        document.attributes[document.attributeStarts[index]..<document.attributeStarts[index + 1]]
    }
    public var children: Children { Children(document: document, index: index) }
    /// Character data directly inside this element (entity references resolved). White
    /// space alone between child elements (indentation) is not kept: such an element has "".
    public var text: String { document.texts[index] }

    /// The child elements, in document order.
    public struct Children: RandomAccessCollection, @unchecked Sendable {
        let document: XMLDocument
        let index: Int
        public var startIndex: Int { 0 }
        public var endIndex: Int { document.childCounts[index] }
        public subscript(i: Int) -> XMLNode {
            XMLNode(document: document, index: document.children[document.childStarts[index] + i])
        }
    }

    /// Byte offset of the start tag's `<` in the file; nil when the scan did not find it.
    var offset: Int? {
        let o = document.offsets[index]
        return o >= 0 ? o : nil
    }

    /// 1-based position of the `<` of the start tag.
    public var line: Int { position.line }
    public var column: Int { position.column }
    private var position: (line: Int, column: Int) {
        offset.map { document.source.position(ofByte: $0) } ?? document.parserPositions[index] ?? (1, 1)
    }

    /// 1-based position of the first character after the start tag (where its text
    /// begins); the tag's own position when the scan did not find it.
    public var textPosition: (line: Int, column: Int) {
        guard let offset, let end = document.source.tagEnd(from: offset) else { return (line, column) }
        return document.source.position(ofByte: end)
    }

    public func attribute(_ name: String) -> String? {
        let d = document
        var i = d.attributeStarts[index]
        let end = d.attributeStarts[index + 1]
        while i < end {
            if d.attributes[i].name == name { return d.attributes[i].value }
            i += 1
        }
        return nil
    }

    /// 1-based positions of attributes by name (where their name starts).
    public var attributePositions: [String: (line: Int, column: Int)] {
        var out: [String: (line: Int, column: Int)] = [:]
        guard let offset else { return out }
        // One pass over the tag (attributeOffsets), not one scan from the tag's start per name.
        for (name, o) in document.source.attributeOffsets(inTagAt: offset) where attribute(name) != nil {
            out[name] = document.source.position(ofByte: o)
        }
        return out
    }

    /// Position of an attribute, falling back to the element's.
    public func position(ofAttribute name: String) -> (line: Int, column: Int) {
        if let offset, attribute(name) != nil, let o = document.source.attributeOffset(name, inTagAt: offset) {
            return document.source.position(ofByte: o)
        }
        return (line, column)
    }
}
