import Foundation

/// Reads one element strictly: every attribute and child must be known, enum values must
/// be valid. Errors carry the exact position of the offending attribute or element.
/// Positions of fields are recorded in a `SourceMap` so that later findings can point
/// back into the file — only when a recorder is given: loading does not record, and a
/// `SourceMap` reads the file again with one when a finding first needs a position.
struct ElementReader {
    let node: XMLNode
    let file: String
    /// Field path prefix for the source map (`apps[0].`); empty when not recording.
    let path: String
    let sourceMap: SourceMapRecorder?
    /// Put before every attribute name read (`pushdesk:` in a Campaign package, where the
    /// field tables' attributes are in our namespace); empty in the store's own files.
    private(set) var attributePrefix = ""

    /// This reader, reading the attributes named `prefix` + the name it is asked for.
    func prefixed(_ prefix: String) -> ElementReader {
        var r = self
        r.attributePrefix = prefix
        return r
    }

    init(_ node: XMLNode, file: String, path: String = "", sourceMap: SourceMapRecorder?) {
        self.node = node
        self.file = file
        self.path = path
        self.sourceMap = sourceMap
        // The first reader of a file is its root: "" is where a finding about the whole
        // record (a missing attribute or element, the payload's size) points.
        if path.isEmpty { sourceMap?.record("", (node.line, node.column)) }
    }

    func error(_ message: String) -> StoreError {
        StoreError(file: file, line: node.line, column: node.column, message)
    }

    func error(attribute: String, _ message: String) -> StoreError {
        let p = node.position(ofAttribute: attribute)
        return StoreError(file: file, line: p.line, column: p.column, message)
    }

    /// Longest attribute value or text accepted; real values are labels, keys and URLs.
    static let maxValueBytes = 16 * 1024

    /// Fails on the first attribute not in `allowed`, or one whose value is absurdly long.
    func checkAttributes(_ allowed: [String]) throws {
        for a in node.attributes where a.value.utf8.count > Self.maxValueBytes {
            throw error(
                attribute: a.name,
                "the value of `\(a.name)` on <\(node.name)> is \(a.value.utf8.count) bytes; at most \(Self.maxValueBytes) are accepted"
            )
        }
        for a in node.attributes where !allowed.contains(a.name) {
            throw error(
                attribute: a.name,
                "unknown attribute `\(a.name)` on <\(node.name)>; expected one of: \(allowed.joined(separator: ", "))")
        }
        if let sourceMap {
            for a in node.attributes { sourceMap.record(path + a.name, node.position(ofAttribute: a.name)) }
        }
    }

    /// Fails on the first child element not in `allowed`, on repeated single children, and on stray text.
    func checkChildren(_ allowed: [String], repeatable: [String] = [], textAllowed: Bool = false) throws {
        var seen: [String] = []  // a handful of names: a list beats hashing
        for c in node.children {
            guard allowed.contains(c.name) else {
                let expected =
                    allowed.isEmpty
                    ? "no child elements" : "one of: " + allowed.map { "<\($0)>" }.joined(separator: ", ")
                throw StoreError(
                    file: file, line: c.line, column: c.column,
                    "unknown element <\(c.name)> inside <\(node.name)>; expected \(expected)")
            }
            if !repeatable.contains(c.name) {
                if seen.contains(c.name) {
                    throw StoreError(
                        file: file, line: c.line, column: c.column,
                        "<\(c.name)> appears twice inside <\(node.name)>; keep one")
                }
                seen.append(c.name)
            }
        }
        if textAllowed, node.text.utf8.count > Self.maxValueBytes {
            throw error(
                "the text of <\(node.name)> is \(node.text.utf8.count) bytes; at most \(Self.maxValueBytes) are accepted"
            )
        }
        if !textAllowed, !Self.isBlank(node.text) {
            throw error("unexpected text inside <\(node.name)>; only child elements belong here")
        }
    }

    /// White space only (indentation between elements): ASCII checked byte by byte, the
    /// rest by Unicode's definition.
    static func isBlank(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D } || text.allSatisfy(\.isWhitespace)
    }

    func optional(_ name: String) -> String? { node.attribute(full(name)) }

    /// The attribute's name in the element (no copy when there is no prefix: the store's files).
    @inline(__always) private func full(_ name: String) -> String {
        attributePrefix.isEmpty ? name : attributePrefix + name
    }

    /// A required attribute; present but empty is allowed (the rules report empty values).
    func required(_ name: String) throws -> String {
        let name = full(name)
        guard let v = node.attribute(name) else {
            throw error("<\(node.name)> needs the attribute `\(name)`")
        }
        return v
    }

    func enumValue<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws -> T?
    where T.RawValue == String {
        let name = full(name)
        guard let raw = node.attribute(name) else { return nil }
        guard let v = T(rawValue: raw) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: "|")
            throw error(
                attribute: name, "`\(name)` on <\(node.name)> is \"\(Escape.inline(raw))\"; expected \(allowed)")
        }
        return v
    }

    /// A text attribute that must be one of `allowed` (a table's `.choice` held as text).
    func oneOf(_ name: String, _ allowed: [String]) throws -> String? {
        let name = full(name)
        guard let raw = node.attribute(name) else { return nil }
        guard allowed.contains(raw) else {
            throw error(
                attribute: name,
                "`\(name)` on <\(node.name)> is \"\(Escape.inline(raw))\"; expected \(allowed.joined(separator: "|"))")
        }
        return raw
    }

    func bool(_ name: String) throws -> Bool? {
        let name = full(name)
        guard let raw = node.attribute(name) else { return nil }
        switch raw {
        case "true": return true
        case "false": return false
        default:
            throw error(
                attribute: name, "`\(name)` on <\(node.name)> is \"\(Escape.inline(raw))\"; expected true|false")
        }
    }

    func int(_ name: String, min: Int) throws -> Int? {
        let name = full(name)
        guard let raw = node.attribute(name) else { return nil }
        guard let v = Int(raw), v >= min else {
            throw error(
                attribute: name,
                "`\(name)` on <\(node.name)> is \"\(Escape.inline(raw))\"; expected a whole number ≥ \(min)")
        }
        return v
    }

    func children(named name: String) -> [XMLNode] { node.children.filter { $0.name == name } }
    func child(named name: String) -> XMLNode? { node.children.first { $0.name == name } }

    /// A reader for a child; `path` is only built when positions are recorded.
    func reader(for child: XMLNode, path: @autoclosure () -> String) -> ElementReader {
        guard let sourceMap else { return ElementReader(child, file: file, sourceMap: nil) }
        let path = path()
        sourceMap.record(path.hasSuffix(".") ? String(path.dropLast()) : path, (child.line, child.column))
        return ElementReader(child, file: file, path: path, sourceMap: sourceMap)
    }

    /// Text of a leaf element (no child elements allowed).
    func leafText(of child: XMLNode, path: @autoclosure () -> String) throws -> String {
        let r = reader(for: child, path: path())
        try r.checkAttributes([])
        try r.checkChildren([], textAllowed: true)
        return child.text
    }

    func checkRoot(_ expected: String, formats: [String] = ["1"]) throws {
        guard node.name == expected else {
            throw error(
                "the root element is <\(node.name)>; a \(expected) file starts with <\(expected) format=\"1\" …>")
        }
        let format = try required("format")
        guard formats.contains(format) else {
            throw error(
                attribute: "format",
                "format \"\(Escape.inline(format))\" is not supported; this PushDesk reads format \(formats.joined(separator: ", "))"
            )
        }
    }
}
