import Foundation

/// Three-way merge of one record file (SPEC §10.2), on the record rather than the text:
/// each version is read by the store's strict reader and written canonically, its element
/// tree merged field by field and list entry by identity (`TreeMerge`), and the result read
/// back and written exactly as a save writes it.
public enum RecordMerge {
    public struct Result: Sendable {
        /// The merged file, canonical; with conflicts it holds OURS' value of each.
        public var text: String
        /// In file order.
        public var conflicts: [MergeConflict]
    }

    /// A version cannot be read (not XML, an unknown attribute, a root that is not `kind`):
    /// thrown as the reader's `StoreError`, its file named `PATH (base|ours|theirs)`.
    public static func merge(base: Data, ours: Data, theirs: Data, path: String, kind: RecordFileKind) throws -> Result
    {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        func tree(_ data: Data, _ side: String) throws -> RecordNode {
            let file = "\(path) (\(side))"
            let text = try kind.canonicalText(data, file: file, name: name)
            let node = RecordNode(try XMLReader.parse(Data(text.utf8), file: file))
            return kind == .profile ? node : node.withoutEmptyAttributes()
        }
        let emptyBase = base.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        let b = emptyBase ? nil : try tree(base, "base")
        let o = try tree(ours, "ours")
        let t = try tree(theirs, "theirs")
        let (merged, conflicts) = TreeMerge(schema: MergeSchema(kind: kind)).merge(base: b, ours: o, theirs: t)
        // Through the codec again: the merged file is what a save writes, and loads back.
        let text = try kind.canonicalText(Data(try merged.document().utf8), file: "\(path) (merged)", name: name)
        return Result(text: text, conflicts: conflicts)
    }
}

/// `pushdesk merge-driver BASE OURS THEIRS PATH`, git's merge-driver contract (SPEC §10.2):
/// the result replaces OURS; 0 merged, 1 conflicts left (one report line each), 2 a version
/// cannot be read — and then OURS is left as it was.
public enum MergeDriver {
    public struct Outcome: Sendable {
        public var status: Int32
        /// What goes to stderr, one line each: the conflict report, or the one error.
        public var stderr: [String]
    }

    public static func run(base: String, ours: String, theirs: String, path: String) -> Outcome {
        guard let kind = RecordFileKind(path: path) else {
            return Outcome(
                status: 2,
                stderr: [
                    "\(Escape.inline(path, limit: .max)): error: not a record of a store (services/, deliveries/ or profiles/*.xml); merge it with git's own driver"
                ])
        }
        do {
            let result = try RecordMerge.merge(
                base: try read(base, path: path, side: "base"), ours: try read(ours, path: path, side: "ours"),
                theirs: try read(theirs, path: path, side: "theirs"), path: path, kind: kind)
            try replace(URL(fileURLWithPath: ours), with: Array(result.text.utf8))
            return Outcome(
                status: result.conflicts.isEmpty ? 0 : 1, stderr: result.conflicts.map { $0.reportLine(path: path) })
        } catch let e as StoreError {
            return Outcome(status: 2, stderr: [e.description])
        } catch {
            return Outcome(status: 2, stderr: ["\(Escape.inline(path, limit: .max)): error: \(error)"])
        }
    }

    private static func read(_ file: String, path: String, side: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw StoreError(
                file: "\(path) (\(side))", "cannot read \(file): \((error as NSError).localizedDescription)", kind: .io)
        }
    }

    /// OURS is git's temporary copy: replaced by rename so it is never half-written, without
    /// the fsyncs of a store save (git reads it back at once; a crash loses the merge anyway).
    private static func replace(_ url: URL, with bytes: [UInt8]) throws {
        let tmp = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).merge-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard FileManager.default.createFile(atPath: tmp.path, contents: Data(bytes)) else {
            throw StoreError(file: url.path, "cannot write the merged file next to it", kind: .io)
        }
        guard rename(tmp.path, url.path) == 0 else {
            unlink(tmp.path)
            throw StoreError(file: url.path, "cannot replace it with the merged file", kind: .io)
        }
    }
}
