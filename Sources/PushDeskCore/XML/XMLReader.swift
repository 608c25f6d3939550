import CLibXML2
import Foundation

/// Parses a PushDesk XML file into an `XMLNode` tree with exact positions.
///
/// libxml2's SAX2 parser does the parsing, called directly (not through Foundation's
/// XMLParser, which costs more than the parse itself: docs/PERFORMANCE.md). Before it runs,
/// the bytes are checked for what must never reach it (DTDs, invalid UTF-8, NUL, UTF-16),
/// and sizes and depth are bounded so a hostile file costs bounded time and memory.
/// Options: recover (so the error reported is the one Foundation reported before) and no
/// network; never entity substitution (XML_PARSE_NOENT) or DTD loading (XML_PARSE_DTDLOAD).
public enum XMLReader {
    /// Larger files are refused before parsing; real service and delivery files are a few KB.
    public static let maxFileBytes = 8 * 1024 * 1024
    /// Our formats nest 4 levels deep; anything far deeper is hostile or broken.
    public static let maxDepth = 32
    /// Most attributes (namespace declarations included) one start tag may have; real
    /// elements have a few, a profile a few dozen fields.
    public static let maxAttributes = 1000

    /// `cost`, when given, counts the work done (the linear-time tests compare counts, not times).
    static func parse(_ data: Data, file: String, cost: ParseCost?) throws -> XMLNode {
        if data.count > maxFileBytes {
            throw StoreError(
                file: file, line: 1, column: 1,
                "the file is \(data.count / 1024 / 1024) MB; PushDesk files are at most \(maxFileBytes / 1024 / 1024) MB — is this the right file?"
            )
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw StoreError(file: file, line: 1, column: 1, "the file is empty; it must hold exactly one root element")
        }
        var scan = SourceScan(SourceText([UInt8](data)))
        if let problem = scan.precheck() ?? scan.characterReferenceProblem() ?? scan.processingInstructionProblem() {
            let p = scan.position(ofByte: problem.offset)
            throw StoreError(file: file, line: p.line, column: p.column, problem.message)
        }
        scan.findElementStarts()
        if let crowded = scan.crowdedStartTag(limit: maxAttributes, cost: cost) {
            let p = scan.position(ofByte: crowded.offset)
            throw StoreError(
                file: file, line: p.line, column: p.column,
                "<\(Escape.inline(crowded.name, limit: 60))> has \(crowded.count) attributes; a PushDesk element has at most \(maxAttributes) — is this the right file?"
            )
        }

        let builder = TreeBuilder(scan: scan, file: file, cost: cost)
        let result = SAXParse.run(scan.text.bytes, builder)
        builder.document.finish()
        if let error = builder.error { throw error }
        // In recover mode libxml2 can end with success (or only "extra content", code 5) on a
        // file that stops being well-formed: elements still open mean the file is cut short
        // or a tag, attribute value or comment is not finished at the parser's position.
        // libxml2 may report a column past the end of its line: positions are kept inside the
        // file (found only for an error: the file's line starts cost a pass over it).
        if let open = builder.openElementName {
            let at = scan.clamped(line: result.line, column: result.column)
            throw StoreError(
                file: file, line: at.line, column: at.column,
                "the XML stops being well-formed here, inside <\(open)>: the file is cut short (truncated?) or a tag, attribute value or comment is not finished"
            )
        }
        if !result.ok || builder.lastErrorCode != nil || builder.root == nil {
            let at = scan.clamped(line: result.line, column: result.column)
            throw StoreError(
                file: file, line: at.line, column: at.column,
                describe(builder.lastErrorCode ?? result.code, builder: builder))
        }
        // …and may stop quietly at a second root element: every start tag must have been seen.
        if builder.elementIndex < scan.elementStarts.count {
            let p = scan.position(ofByte: scan.elementStarts[builder.elementIndex])
            throw StoreError(
                file: file, line: p.line, column: p.column,
                "content after the root element; a file holds exactly one root element")
        }
        return builder.root!
    }

    public static func parse(_ data: Data, file: String) throws -> XMLNode {
        try parse(data, file: file, cost: nil)
    }

    /// A message for libxml2's error number (xmlParserErrors).
    private static func describe(_ code: Int?, builder: TreeBuilder) -> String {
        guard let code else { return "the file is not well-formed XML" }
        switch code {
        case 4,
            5 where builder.root == nil:
            return "the file holds no XML element (empty?); it must hold exactly one root element"
        case 5:
            return "content after the root element; a file holds exactly one root element"
        case 9, 10, 11, 12, 14:
            return "a character that XML 1.0 does not allow (a control character or a surrogate); remove it"
        case 6, 7, 8, 23, 24, 25, 26, 27:
            return
                "unknown entity reference; only &amp; &lt; &gt; &quot; &apos; and character references are allowed (write & as &amp;)"
        case 38:
            return "`<` inside an attribute value; write it as &lt;"
        case 39, 40, 41, 42, 65:
            return "malformed attribute: each attribute is name=\"value\" (quoted), once per element"
        case 45:
            return "a comment (<!-- …) is not closed with -->"
        case 73, 74, 77:
            return "malformed tag: a `<` or `>` is missing or misplaced"
        case 76:
            return
                "an end tag does not match its start tag <\(builder.lastOpenedName ?? "?")>; close elements in the order they were opened"
        case 68:
            return "a tag or attribute name is missing or starts with a character names cannot start with"
        default:
            return "the file is not well-formed XML (libxml2 error \(code))"
        }
    }
}

/// Drives libxml2's push parser the way Foundation's XMLParser did, so that every error
/// keeps its message and position: the first 4 bytes create the context (encoding
/// detection), the rest goes in 128 KB chunks, the last one marked as the end of input.
enum SAXParse {
    static let chunkSize = 128 * 1024
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    struct Result {
        var ok: Bool
        var code: Int?
        var line: Int
        var column: Int
    }

    static func run(_ bytes: [UInt8], _ builder: TreeBuilder) -> Result {
        _ = initialized
        guard bytes.count >= 4 else { return Result(ok: false, code: nil, line: 1, column: 1) }
        var sax = handler()
        let user = Unmanaged.passUnretained(builder).toOpaque()
        return bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { base in
                guard let ctxt = xmlCreatePushParserCtxt(&sax, user, base, 4, nil) else {
                    return Result(ok: false, code: nil, line: 1, column: 1)
                }
                defer { xmlFreeParserCtxt(ctxt) }
                builder.context = ctxt
                xmlCtxtUseOptions(ctxt, pd_xml_parse_recover() | pd_xml_parse_nonet())
                var done = 4
                var end = min(chunkSize, buf.count)
                var code: Int32 = 0
                while true {
                    code = xmlParseChunk(ctxt, base + done, Int32(end - done), end == buf.count ? 1 : 0)
                    if code != 0 || end == buf.count { break }
                    done = end
                    end = min(end + chunkSize, buf.count)
                }
                builder.context = nil
                return Result(
                    ok: code == 0, code: code == 0 ? nil : Int(code),
                    line: Int(xmlSAX2GetLineNumber(ctxt)), column: Int(xmlSAX2GetColumnNumber(ctxt)))
            }
        }
    }

    /// The callbacks: elements, text and CDATA build the tree; every error or warning is
    /// recorded (never printed); comments and processing instructions are skipped.
    private static func handler() -> xmlSAXHandler {
        var h = xmlSAXHandler()
        h.initialized = UInt32(bitPattern: pd_xml_sax2_magic())
        h.startElementNs = { ctx, localname, prefix, _, nbNamespaces, namespaces, nbAttributes, _, attributes in
            TreeBuilder.from(ctx).start(localname, prefix, Int(nbNamespaces), namespaces, Int(nbAttributes), attributes)
        }
        h.endElementNs = { ctx, _, _, _ in TreeBuilder.from(ctx).end() }
        h.characters = { ctx, ch, len in TreeBuilder.from(ctx).characters(ch, Int(len)) }
        h.ignorableWhitespace = h.characters
        h.cdataBlock = h.characters
        h.serror = { ctx, error in
            if let error { TreeBuilder.from(ctx).lastErrorCode = Int(error.pointee.code) }
        }
        return h
    }
}

/// Builds the tree from the SAX events and enforces the depth bound.
///
/// One builder per parse, used by one thread: its state skips Swift's run-time
/// exclusivity checks (`@exclusivity(unchecked)`), which cost more than the work itself
/// in these callbacks (docs/PERFORMANCE.md).
final class TreeBuilder {
    let scan: SourceScan
    let file: String
    let cost: ParseCost?
    let document: XMLDocument
    /// The first element (the root), nil until one starts.
    var root: XMLNode? { document.names.isEmpty ? nil : XMLNode(document: document, index: 0) }
    /// Indexes of the open elements.
    @exclusivity(unchecked) var stack: [Int] = []
    @exclusivity(unchecked) var elementIndex = 0
    @exclusivity(unchecked) var error: StoreError?
    /// The last error or warning libxml2 reported (what Foundation's parserError held).
    @exclusivity(unchecked) var lastErrorCode: Int?
    @exclusivity(unchecked) var lastStarted: String?
    @exclusivity(unchecked) var context: xmlParserCtxtPtr?
    /// Text of the open elements, end to end: each one's text starts at its entry in `textStarts`.
    @exclusivity(unchecked) private var textBytes: [UInt8] = []
    @exclusivity(unchecked) private var textStarts: [Int] = []
    // libxml2 interns names: one Swift string per distinct name pointer (`name(_:)`).

    init(scan: SourceScan, file: String, cost: ParseCost? = nil) {
        self.scan = scan
        self.file = file
        self.cost = cost
        document = XMLDocument(source: scan.text, elements: scan.elementStarts.count)
    }

    static func from(_ ctx: UnsafeMutableRawPointer?) -> TreeBuilder {
        Unmanaged<TreeBuilder>.fromOpaque(ctx!).takeUnretainedValue()
    }

    var openElementName: String? { stack.last.map { document.names[$0] } }
    /// The element most recently opened, even if the parser already popped it.
    var lastOpenedName: String? { openElementName ?? lastStarted }

    private func name(_ p: UnsafePointer<xmlChar>) -> String {
        // An open-addressing table by pointer (a file has a few dozen distinct names, each
        // seen hundreds of times): a hit is a hash and a comparison.
        var slot = (Int(bitPattern: p) >> 4) & (Self.nameSlots - 1)
        while let q = namePointers[slot] {
            if q == p { return nameStrings[slot] }
            slot = (slot + 1) & (Self.nameSlots - 1)
        }
        let s = String(cString: p)
        if nameCount < Self.nameSlots / 2 {
            namePointers[slot] = p
            (nameStrings + slot).initialize(to: s)
            nameCount += 1
        }
        return s
    }
    private static let nameSlots = 256
    private let namePointers: UnsafeMutablePointer<UnsafePointer<xmlChar>?> = {
        let t = UnsafeMutablePointer<UnsafePointer<xmlChar>?>.allocate(capacity: nameSlots)
        t.initialize(repeating: nil, count: nameSlots)
        return t
    }()
    private let nameStrings = UnsafeMutablePointer<String>.allocate(capacity: nameSlots)
    @exclusivity(unchecked) private var nameCount = 0

    deinit {
        for i in 0..<Self.nameSlots where namePointers[i] != nil { (nameStrings + i).deinitialize(count: 1) }
        nameStrings.deallocate()
        namePointers.deallocate()
    }

    private func qualified(_ prefix: UnsafePointer<xmlChar>?, _ local: UnsafePointer<xmlChar>) -> String {
        guard let prefix else { return name(local) }
        return name(prefix) + ":" + name(local)
    }

    private var parserPosition: (line: Int, column: Int) {
        guard let context else { return (1, 1) }
        return scan.clamped(line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)))
    }

    func start(
        _ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
        _ nbNamespaces: Int, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        _ nbAttributes: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard let localname else { return }
        let offset = elementIndex < scan.elementStarts.count ? scan.elementStarts[elementIndex] : nil
        elementIndex += 1
        if stack.count >= XMLReader.maxDepth {
            let pos = offset.map { scan.position(ofByte: $0) } ?? parserPosition
            error = StoreError(
                file: file, line: pos.line, column: pos.column,
                "elements nested deeper than \(XMLReader.maxDepth) levels; this is not a PushDesk file")
            if let context { xmlStopParser(context) }
            return
        }
        let doc = document
        if let cost {
            let k = nbAttributes + nbNamespaces
            cost.duplicateChecks += k * (k - 1) / 2
        }
        let first = doc.attributes.count
        doc.attributeStarts.append(first)
        // Namespace declarations are attributes here (namespaces are not processed).
        if let namespaces {
            for i in 0..<nbNamespaces {
                let n = namespaces[2 * i].map { "xmlns:" + name($0) } ?? "xmlns"
                doc.attributes.append((n, namespaces[2 * i + 1].map { String(cString: $0) } ?? ""))
            }
        }
        if let attributes {
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            for i in 0..<nbAttributes {
                guard let local = attributes[5 * i] else { continue }
                var value = ""
                if let v = attributes[5 * i + 3], let e = attributes[5 * i + 4], e > v {
                    let bytes = UnsafeBufferPointer(start: v, count: e - v)
                    value = String(decoding: bytes, as: UTF8.self)
                    // Without entity substitution (XML_PARSE_NOENT, never set) libxml2 hands an
                    // escaped `&` (`&amp;`, `&#38;`) over as the text `&#38;`; a literal `&`
                    // cannot stand in a value, so every `&#38;` here is one `&`.
                    if bytes.contains(0x26) { value = value.replacingOccurrences(of: "&#38;", with: "&") }
                }
                doc.attributes.append((qualified(attributes[5 * i + 1], local), value))
            }
        }
        // libxml2 gives declarations apart from attributes: restore document order from the bytes.
        if nbNamespaces > 0, doc.attributes.count - first > 1, let offset {
            let at = scan.text.attributeOffsets(inTagAt: offset, cost: cost)
            var placed: [(attr: (name: String, value: String), at: Int)] = []
            for a in doc.attributes[first...] { placed.append((a, at[a.name] ?? Int.max)) }
            placed.sort { x, y in x.at < y.at || (x.at == y.at && x.attr.name < y.attr.name) }
            doc.attributes.replaceSubrange(first..., with: placed.map { $0.attr })
        }
        let elementName = qualified(prefix, localname)
        let index = doc.names.count
        doc.names.append(elementName)
        doc.offsets.append(offset ?? -1)
        if offset == nil { doc.parserPositions[index] = parserPosition }
        doc.texts.append("")
        doc.childCounts.append(0)
        // A second root element (after the first closed) belongs to no parent; the parse
        // reports it as content after the root element.
        if let parent = stack.last {
            doc.parents.append(parent)
            doc.childCounts[parent] += 1
        } else {
            doc.parents.append(-1)
        }
        lastStarted = elementName
        stack.append(index)
        textStarts.append(textBytes.count)
    }

    func end() {
        guard let node = stack.popLast(), let start = textStarts.popLast() else { return }
        if textBytes.count > start {
            // Indentation between child elements is not kept (no string is built for it).
            let indentOnly =
                document.childCounts[node] > 0
                && textBytes[start...].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
            if !indentOnly { document.texts[node] = String(decoding: textBytes[start...], as: UTF8.self) }
            textBytes.removeSubrange(start...)
        }
    }

    func characters(_ ch: UnsafePointer<xmlChar>?, _ len: Int) {
        guard let ch, len > 0, !stack.isEmpty else { return }
        textBytes.append(contentsOf: UnsafeBufferPointer(start: ch, count: len))
    }
}

/// The work one parse did, counted: what the linear-time tests compare (a count does not
/// depend on the machine's load, a time does).
final class ParseCost {
    /// Attribute pairs the parser compares for its duplicate check. libxml2 2.9 compares
    /// each attribute (and namespace declaration) of a start tag with every earlier one:
    /// k(k − 1)/2 for a tag of k, counted from what each start tag handed over.
    var duplicateChecks = 0
    /// Bytes read again to find attributes in their tag (document order beside namespace
    /// declarations).
    var tagBytesRescanned = 0
    /// Bytes read to count the attributes of long start tags before parsing.
    var scannedBytes = 0

    var total: Int { duplicateChecks + tagBytesRescanned + scannedBytes }
}
