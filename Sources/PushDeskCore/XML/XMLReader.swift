import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses a PushDesk XML file into an `XMLNode` tree with exact positions.
///
/// libxml2 (through Foundation's XMLParser) does the parsing; before it runs, the bytes
/// are checked for what must never reach it (DTDs, invalid UTF-8, NUL, UTF-16), and sizes
/// and depth are bounded so a hostile file costs bounded time and memory.
public enum XMLReader {
    /// Larger files are refused before parsing; real service and delivery files are a few KB.
    public static let maxFileBytes = 8 * 1024 * 1024
    /// Our formats nest 4 levels deep; anything far deeper is hostile or broken.
    public static let maxDepth = 32

    public static func parse(_ data: Data, file: String) throws -> XMLNode {
        if data.count > maxFileBytes {
            throw StoreError(file: file, line: 1, column: 1,
                             "the file is \(data.count / 1024 / 1024) MB; PushDesk files are at most \(maxFileBytes / 1024 / 1024) MB — is this the right file?")
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw StoreError(file: file, line: 1, column: 1, "the file is empty; it must hold exactly one root element")
        }
        var scan = SourceScan([UInt8](data))
        if let problem = scan.precheck() ?? scan.characterReferenceProblem() ?? scan.processingInstructionProblem() {
            let p = scan.position(ofByte: problem.offset)
            throw StoreError(file: file, line: p.line, column: p.column, problem.message)
        }
        scan.findElementStarts()

        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        let builder = TreeBuilder(scan: scan, file: file)
        parser.delegate = builder
        let ok = parser.parse()
        if let error = builder.error { throw error }
        // Foundation on Linux reports success with code 5 for a file that stops being
        // well-formed (it loses libxml2's own error): elements still open mean the file is
        // cut short or a tag, attribute or comment is not finished at the parser's position.
        if let open = builder.openElementName {
            let (line, column) = scan.clamped(line: parser.lineNumber, column: parser.columnNumber)
            throw StoreError(file: file, line: line, column: column,
                             "the XML stops being well-formed here, inside <\(open)>: the file is cut short (truncated?) or a tag, attribute value or comment is not finished")
        }
        if !ok || parser.parserError != nil || builder.root == nil {
            let (line, column) = scan.clamped(line: parser.lineNumber, column: parser.columnNumber)
            throw StoreError(file: file, line: line, column: column, describe(parser.parserError, builder: builder))
        }
        // …and may stop quietly at a second root element: every start tag must have been seen.
        if builder.elementIndex < scan.elementStarts.count {
            let p = scan.position(ofByte: scan.elementStarts[builder.elementIndex])
            throw StoreError(file: file, line: p.line, column: p.column,
                             "content after the root element; a file holds exactly one root element")
        }
        return builder.root!
    }

    /// A message for libxml2's error number (Foundation passes libxml2's codes through).
    private static func describe(_ error: Error?, builder: TreeBuilder) -> String {
        guard let ns = error as NSError? else { return "the file is not well-formed XML" }
        switch ns.code {
        case 4, 5 where builder.root == nil:
            return "the file holds no XML element (empty?); it must hold exactly one root element"
        case 5:
            return "content after the root element; a file holds exactly one root element"
        case 9, 10, 11, 12, 14:
            return "a character that XML 1.0 does not allow (a control character or a surrogate); remove it"
        case 6, 7, 8, 23, 24, 25, 26, 27:
            return "unknown entity reference; only &amp; &lt; &gt; &quot; &apos; and character references are allowed (write & as &amp;)"
        case 38:
            return "`<` inside an attribute value; write it as &lt;"
        case 39, 40, 41, 42, 65:
            return "malformed attribute: each attribute is name=\"value\" (quoted), once per element"
        case 45:
            return "a comment (<!-- …) is not closed with -->"
        case 73, 74, 77:
            return "malformed tag: a `<` or `>` is missing or misplaced"
        case 76:
            return "an end tag does not match its start tag <\(builder.lastOpenedName ?? "?")>; close elements in the order they were opened"
        case 68:
            return "a tag or attribute name is missing or starts with a character names cannot start with"
        default:
            return "the file is not well-formed XML (libxml2 error \(ns.code))"
        }
    }
}

/// SAX delegate that builds the tree and enforces the depth bound.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    let scan: SourceScan
    let file: String
    var root: XMLNode?
    var stack: [XMLNode] = []
    var elementIndex = 0
    var error: StoreError?

    init(scan: SourceScan, file: String) { self.scan = scan; self.file = file }

    var openElementName: String? { stack.last?.name }
    /// The element most recently opened, even if the parser already popped it.
    var lastOpenedName: String? { openElementName ?? stack.last?.name ?? lastStarted }
    var lastStarted: String?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]) {
        let offset = elementIndex < scan.elementStarts.count ? scan.elementStarts[elementIndex] : nil
        elementIndex += 1
        let pos = offset.map { scan.position(ofByte: $0) } ?? scan.clamped(line: parser.lineNumber, column: parser.columnNumber)
        if stack.count >= XMLReader.maxDepth {
            error = StoreError(file: file, line: pos.0, column: pos.1,
                               "elements nested deeper than \(XMLReader.maxDepth) levels; this is not a PushDesk file")
            parser.abortParsing()
            return
        }
        // XMLParser hands attributes over as a dictionary; restore document order from the bytes.
        var ordered: [(name: String, value: String, offset: Int)] = attributes.map { (k, v) in
            (k, v, offset.flatMap { scan.attributeOffset(k, inTagAt: $0) } ?? Int.max)
        }
        ordered.sort { $0.offset < $1.offset || ($0.offset == $1.offset && $0.name < $1.name) }
        let node = XMLNode(name: elementName, attributes: ordered.map { ($0.name, $0.value) },
                           line: pos.0, column: pos.1)
        for a in ordered where a.offset != Int.max {
            let p = scan.position(ofByte: a.offset)
            node.attributePositions[a.name] = (p.line, p.column)
        }
        lastStarted = elementName
        if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
    }
}
