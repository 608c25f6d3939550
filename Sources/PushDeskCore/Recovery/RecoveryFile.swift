import Foundation

/// One unsaved draft as written to a recovery file: what it is, what it was read from, and
/// its XML exactly as Ctrl-S would write it.
public struct RecoveryEntry: Equatable, Sendable {
    public var kind: RecordKind
    /// The record's name in the draft (may be empty or invalid: drafts are unfinished).
    public var name: String
    /// The name it was read under; nil for a record not saved yet.
    public var original: String?
    /// What the file was when the draft started from it (`.absent` for a new record).
    public var baseline: RecordBaseline
    /// The draft's XML bytes.
    public var xml: [UInt8]
    /// True when characters XML cannot hold (C0 controls) were replaced by U+FFFD so the
    /// draft could be written at all; such a draft could not have been saved as it was.
    public var replacedCharacters = false

    public init(
        kind: RecordKind, name: String, original: String?, baseline: RecordBaseline, xml: [UInt8],
        replacedCharacters: Bool = false
    ) {
        self.kind = kind
        self.name = name
        self.original = original
        self.baseline = baseline
        self.xml = xml
        self.replacedCharacters = replacedCharacters
    }

    /// `service neotrips`, `new service acme`, `service neotrips (renamed to trips)`.
    public var summary: String {
        let shown = name.isEmpty ? "(no name yet)" : Escape.inline(name, limit: 64)
        guard let original else { return "new \(kind.rawValue) \(shown)" }
        return original == name
            ? "\(kind.rawValue) \(shown)"
            : "\(kind.rawValue) \(Escape.inline(original, limit: 64)) (renamed to \(shown))"
    }
}

/// Unsaved drafts of one console, written on a hang-up, a SIGTERM and periodically, so the
/// next start can offer them back. Lives in `.pushdesk/recovery/`, never in a record
/// folder, so it is never read as a record. Holds only what the service files hold:
/// secrets typed in the console go to `secrets/` at once and are never part of a draft.
///
///     <recovery format="1" user="alice" host="build-01" pid="4242" written="…Z" reason="hangup">
///       <draft kind="service" name="neotrips" original="neotrips" baselineSize="1534"
///              baselineSHA256="…" baselineModified="…Z">BASE64 OF THE DRAFT'S XML</draft>
///     </recovery>
///
/// The draft's XML is base64 so that its bytes come back exactly, whatever they hold.
public struct RecoveryFile: Equatable, Sendable {
    public enum Reason: String, Sendable {
        /// Written every PUSHDESK_RECOVERY_INTERVAL seconds of unsaved work.
        case periodic
        /// SIGHUP: the terminal (SSH connection) is gone.
        case hangup
        /// SIGTERM / SIGINT: asked to stop.
        case terminate

        public var phrase: String {
            switch self {
            case .periodic: "periodic save of unsaved work"
            case .hangup: "the connection dropped"
            case .terminate: "the console was told to stop"
            }
        }
    }

    public var user: String
    public var host: String
    public var pid: Int32
    public var written: Date
    public var reason: Reason
    public var entries: [RecoveryEntry]

    public init(user: String, host: String, pid: Int32, written: Date, reason: Reason, entries: [RecoveryEntry]) {
        self.user = user
        self.host = host
        self.pid = pid
        self.written = written
        self.reason = reason
        self.entries = entries
    }

    public func encode() throws -> [UInt8] {
        var w = XMLWriter()
        try w.start(
            "recovery",
            [
                ("format", "1"), ("user", user), ("host", host), ("pid", String(pid)),
                ("written", LockHolder.iso(written)), ("reason", reason.rawValue),
            ])
        for e in entries {
            var attrs: [(String, String?)] = [("kind", e.kind.rawValue), ("name", e.name), ("original", e.original)]
            if case .read(let fp) = e.baseline {
                attrs += [
                    ("baselineSize", String(fp.size)), ("baselineSHA256", fp.sha256),
                    ("baselineModified", String(format: "%.9f", fp.modified.timeIntervalSince1970)),
                ]
            }
            if e.replacedCharacters { attrs.append(("replacedCharacters", "true")) }
            try w.textElement("draft", attrs, text: Data(e.xml).base64EncodedString())
        }
        w.end()
        return Array(w.output.utf8)
    }

    /// Reads a recovery file strictly (it is untrusted like any file): positioned errors.
    public static func decode(_ data: Data, file: String) throws -> RecoveryFile {
        let root = try XMLReader.parse(data, file: file)
        func fail(_ n: XMLNode, _ attr: String?, _ msg: String) -> StoreError {
            let p = attr.map { n.position(ofAttribute: $0) } ?? (line: n.line, column: n.column)
            return StoreError(file: file, line: p.line, column: p.column, msg)
        }
        func need(_ n: XMLNode, _ a: String) throws -> String {
            guard let v = n.attribute(a) else { throw fail(n, nil, "<\(n.name)> needs the attribute `\(a)`") }
            return v
        }
        guard root.name == "recovery" else {
            throw fail(root, nil, "the root element is <\(root.name)>; a recovery file starts with <recovery>")
        }
        guard root.attribute("format") == "1" else {
            throw fail(root, "format", "unknown recovery format; this PushDesk reads format=\"1\"")
        }
        guard let pid = Int32(try need(root, "pid")) else { throw fail(root, "pid", "pid is not a number") }
        guard let written = LockHolder.isoDate(try need(root, "written")) else {
            throw fail(root, "written", "`written` is not an ISO 8601 time")
        }
        guard let reason = Reason(rawValue: try need(root, "reason")) else {
            throw fail(root, "reason", "unknown reason; expected periodic, hangup or terminate")
        }
        var entries: [RecoveryEntry] = []
        for d in root.children {
            guard d.name == "draft" else {
                throw fail(d, nil, "unknown element <\(d.name)> inside <recovery>; expected <draft>")
            }
            guard let kind = RecordKind(rawValue: try need(d, "kind")) else {
                throw fail(d, "kind", "unknown record kind; expected \(RecordKind.expected)")
            }
            let base64 = d.text.filter { !$0.isWhitespace }
            guard let xml = Data(base64Encoded: base64) else { throw fail(d, nil, "the draft's content is not base64") }
            var baseline = RecordBaseline.absent
            if let size = d.attribute("baselineSize") {
                guard let n = Int(size), let hash = d.attribute("baselineSHA256"), hash.count == 64,
                    let t = d.attribute("baselineModified").flatMap(Double.init)
                else {
                    throw fail(
                        d, "baselineSize",
                        "the baseline needs baselineSize, baselineSHA256 (64 hex digits) and baselineModified")
                }
                baseline = .read(FileFingerprint(size: n, modified: Date(timeIntervalSince1970: t), sha256: hash))
            }
            entries.append(
                RecoveryEntry(
                    kind: kind, name: try need(d, "name"), original: d.attribute("original"),
                    baseline: baseline, xml: Array(xml),
                    replacedCharacters: d.attribute("replacedCharacters") == "true"))
        }
        return RecoveryFile(
            user: root.attribute("user") ?? "?", host: root.attribute("host") ?? "?", pid: pid,
            written: written, reason: reason, entries: entries)
    }
}
