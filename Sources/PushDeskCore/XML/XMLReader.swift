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
        var scan = SourceScan([UInt8](data))
        if let problem = scan.precheck() {
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
        // libxml2 in push mode may accept a document that simply stops: an element still
        // open at the end means the file was cut short.
        if ok, let open = builder.openElementName {
            let end = scan.position(ofByte: data.count)
            throw StoreError(file: file, line: end.line, column: end.column,
                             "the file ends before <\(open)> is closed (truncated?); restore the missing end of the file")
        }
        if !ok || builder.root == nil {
            let line = max(parser.lineNumber, 1)
            let column = max(parser.columnNumber, 1)
            throw StoreError(file: file, line: line, column: column, describe(parser.parserError, builder: builder))
        }
        return builder.root!
    }

    private static func describe(_ error: Error?, builder: TreeBuilder) -> String {
        guard let ns = error as NSError? else { return "the file is not well-formed XML" }
        // libxml2's own numbers where Foundation's enum does not line up on Linux.
        if ns.code == 26 || ns.code == 27 {
            return "unknown entity reference; only &amp; &lt; &gt; &quot; &apos; and character references are allowed (write & as &amp;)"
        }
        let code = XMLParser.ErrorCode(rawValue: ns.code)
        switch code {
        case .prematureDocumentEndError?, .emptyDocumentError?:
            if let open = builder.openElementName {
                return "the file ends before <\(open)> is closed (truncated?); restore the missing end of the file"
            }
            return "the file is empty or ends too early; it must hold one root element"
        case .tagNameMismatchError?:
            return "end tag does not match the open element <\(builder.openElementName ?? "?")>"
        case .undeclaredEntityError?, .entityRefAtEOFError?, .entityReferenceWithoutNameError?,
             .entityReferenceMissingSemiError?, .entityNotStartedError?:
            return "unknown entity reference; only &amp; &lt; &gt; &quot; &apos; and character references are allowed (write & as &amp;)"
        case .ltRequiredError?, .gtRequiredError?, .ltSlashRequiredError?:
            return "malformed tag: a `<` or `>` is missing or misplaced"
        case .attributeNotStartedError?, .attributeNotFinishedError?,
             .attributeRedefinedError?, .literalNotStartedError?, .literalNotFinishedError?:
            return "malformed attribute: each attribute is name=\"value\", once per element"
        case .invalidCharacterError?, .invalidCharacterRefError?, .invalidCharacterInEntityError?:
            return "a character that XML 1.0 does not allow (a control character or a surrogate); remove it"
        case .extraContentError?:
            return "content after the root element; a file holds exactly one root element"
        case .documentStartError?:
            return "the file does not start with XML; is this the right file?"
        default:
            return "the file is not well-formed XML (parser error \(ns.code))"
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

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]) {
        let offset = elementIndex < scan.elementStarts.count ? scan.elementStarts[elementIndex] : nil
        elementIndex += 1
        let pos = offset.map { scan.position(ofByte: $0) } ?? (parser.lineNumber, parser.columnNumber)
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
