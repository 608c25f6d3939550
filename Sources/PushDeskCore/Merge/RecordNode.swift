import Foundation

/// A record as the merge sees it: the element tree of its canonical file. The merge works on
/// this generic shape (attributes, text, child elements) with `MergeSchema` naming the
/// lists and their identities, so it needs no knowledge of each delivery option or app
/// attribute: the codecs decide what a record holds, the tree only carries it.
struct RecordNode: Equatable, Sendable {
    var name: String
    /// In file order; each attribute is a field.
    var attributes: [Attribute]
    /// Character data directly inside (`<title>…</title>`, `<value …>…</value>`); "" = not set.
    var text: String
    var children: [RecordNode]

    struct Attribute: Equatable, Sendable {
        var name: String
        var value: String
    }

    init(name: String, attributes: [Attribute] = [], text: String = "", children: [RecordNode] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// `emptyAttributes` false: the tree without attributes whose value is empty. Services and
    /// deliveries read an empty attribute as not set (and a save writes some of them anyway,
    /// `label=""`), so for the merge they are fields without a value. Profiles keep them:
    /// there an empty field is a value personalization uses.
    init(_ node: XMLNode, emptyAttributes: Bool = true) {
        name = node.name
        attributes = []
        attributes.reserveCapacity(node.attributes.count)
        for a in node.attributes where emptyAttributes || !a.value.isEmpty {
            attributes.append(Attribute(name: a.name, value: a.value))
        }
        text = node.text
        children = node.children.map { RecordNode($0, emptyAttributes: emptyAttributes) }
    }

    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// Nothing in it: no attribute, no text, no child (an empty container is not written).
    var isEmpty: Bool { attributes.isEmpty && text.isEmpty && children.isEmpty }

    /// The file text of this element as the root of a document, through the one XML writer.
    func document() throws -> String {
        var w = XMLWriter()
        try write(into: &w)
        return w.output
    }

    /// The element tree the reader gives for `document()`'s text, built without writing and
    /// parsing that text (the merge decodes its result from it). As in the file, an element
    /// with children holds no text; there are no positions (a decode error is reported from
    /// the text instead: `RecordMerge`).
    func parsedTree() -> XMLNode {
        var count = 0
        func countElements(_ node: RecordNode) {
            count += 1
            for c in node.children { countElements(c) }
        }
        countElements(self)
        let doc = XMLDocument(source: SourceText([]), elements: count)
        func add(_ node: RecordNode, parent: Int) {
            let index = doc.names.count
            doc.names.append(node.name)
            doc.offsets.append(-1)
            doc.attributeStarts.append(doc.attributes.count)
            for a in node.attributes { doc.attributes.append((a.name, a.value)) }
            doc.texts.append(node.children.isEmpty ? node.text : "")
            doc.childCounts.append(0)
            doc.parents.append(parent)
            if parent >= 0 { doc.childCounts[parent] += 1 }
            for c in node.children { add(c, parent: index) }
        }
        add(self, parent: -1)
        doc.finish()
        return XMLNode(document: doc, index: 0)
    }

    func write(into w: inout XMLWriter) throws {
        let attrs = attributes.map { ($0.name, Optional($0.value)) }
        if children.isEmpty {
            if text.isEmpty {
                try w.empty(name, attrs)
            } else {
                try w.textElement(name, attrs, text: text)
            }
            return
        }
        try w.start(name, attrs)
        for c in children { try c.write(into: &w) }
        w.end()
    }

    /// One line of XML, the value a whole-element field (`<auth>`, `<tracking>`) shows in a
    /// conflict report.
    func inlineXML() -> String {
        let text = (try? document()) ?? ""
        let lines = text.split(separator: "\n").dropFirst()  // the XML declaration
        return lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }
}
