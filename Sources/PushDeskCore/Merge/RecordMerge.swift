import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Three-way merge of one record file (docs/TEAMS.md), on the record rather than the text:
/// each version is parsed once, read by the store's strict reader and written canonically,
/// its element tree merged field by field and list entry by identity (`TreeMerge`), and the
/// result read back and written exactly as a save writes it.
public enum RecordMerge {
    public struct Result: Sendable {
        /// The merged file, canonical; with conflicts it holds OURS' value of each.
        public var text: String
        /// In file order.
        public var conflicts: [MergeConflict]
    }

    /// A version cannot be read (not XML, an unknown attribute, a root that is not `kind`):
    /// thrown as the reader's `StoreError`, its file named `PATH (base|ours|theirs)`.
    /// `theirsWins`: conflicts resolved for THEIRS, by reported field path (the console's resolve).
    public static func merge(
        base: Data, ours: Data, theirs: Data, path: String, kind: RecordKind, theirsWins: Set<String> = []
    ) throws -> Result {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let name = file.hasSuffix(".xml") ? String(file.dropLast(4)) : file
        @Sendable func tree(_ data: Data, _ side: String) throws -> RecordNode? {
            if side == "base", data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
            let file = "\(path) (\(side))"
            let parsed = try XMLReader.parse(data, file: file)
            let text = try kind.canonicalText(parsed, file: file, name: name)
            // A version as a save wrote it (the usual case) is its own canonical text: its tree
            // is the one just parsed. Any other is parsed again in its canonical form.
            let canonical = sameBytes(text, data) ? parsed : try XMLReader.parse(Data(text.utf8), file: file)
            return RecordNode(canonical, emptyAttributes: kind.mergeSchema.emptyAttributesAreValues)
        }
        let versions = [(base, "base"), (ours, "ours"), (theirs, "theirs")]
        let slots = VersionSlots()
        @Sendable func read(_ i: Int) { slots.set(i, Swift.Result { try tree(versions[i].0, versions[i].1) }) }
        // The three versions are read independently: on a large record, side by side, one
        // thread each (this one reads BASE). On two cores the kernel shares three threads out
        // evenly, where `concurrentPerform` would read two and then the third alone.
        if base.count + ours.count + theirs.count >= parallelBytes, sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 {
            let threads = [1, 2].map { i in (i, Joinable.start { read(i) }) }
            read(0)
            for (i, thread) in threads {
                if let thread { thread.join() } else { read(i) }
            }
        } else {
            for i in 0..<3 { read(i) }
        }
        // The first unreadable version in base, ours, theirs order, whichever thread finished first.
        let read = try slots.values.map { try $0.get() }
        let (b, o, t) = (read[0], read[1]!, read[2]!)
        let (merged, conflicts) = TreeMerge(schema: kind.mergeSchema, theirsWins: theirsWins).merge(
            base: b, ours: o, theirs: t)
        // Through the codec again: the merged file is what a save writes, and loads back.
        // Decoded from the merged tree as the reader would give it, not from its text parsed
        // again; when that tree does not decode (the error needs the text's positions) or the
        // result nears the reader's size limit, from the text, which decides as before.
        let mergedFile = "\(path) (merged)"
        if let text = try? kind.canonicalText(merged.parsedTree(), file: mergedFile, name: name),
            text.utf8.count <= XMLReader.maxFileBytes / 2
        {
            return Result(text: text, conflicts: conflicts)
        }
        let parsed = try XMLReader.parse(Data(try merged.document().utf8), file: mergedFile)
        return Result(text: try kind.canonicalText(parsed, file: mergedFile, name: name), conflicts: conflicts)
    }
}

/// `text`'s UTF-8 is exactly `data` (compared as memory: a byte-by-byte walk over `Data` costs
/// more than the parse it saves).
private func sameBytes(_ text: String, _ data: Data) -> Bool {
    var text = text
    return text.withUTF8 { t in
        data.withUnsafeBytes { d in
            t.count == d.count && (t.isEmpty || memcmp(t.baseAddress!, d.baseAddress!, t.count) == 0)
        }
    }
}

/// A thread started for one piece of work and waited for.
private struct Joinable {
    let thread: pthread_t

    private final class Work {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// nil when no thread can be started (the caller does the work itself).
    static func start(_ run: @escaping @Sendable () -> Void) -> Joinable? {
        let context = Unmanaged.passRetained(Work(run)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return nil
        }
        return Joinable(thread: thread)
    }

    func join() { pthread_join(thread, nil) }
}

/// Below this many bytes in all, one thread reads the three versions faster than three.
private let parallelBytes = 32 * 1024

/// The three versions read, each written by one thread before `values` is read.
private final class VersionSlots: @unchecked Sendable {
    private var slots: [Result<RecordNode?, Error>] = Array(repeating: .success(nil), count: 3)
    private let lock = NSLock()
    func set(_ i: Int, _ value: Result<RecordNode?, Error>) {
        lock.lock()
        slots[i] = value
        lock.unlock()
    }
    var values: [Result<RecordNode?, Error>] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}

/// `pushdesk merge-driver BASE OURS THEIRS PATH`, git's merge-driver contract (docs/TEAMS.md):
/// the result replaces OURS; 0 merged, 1 conflicts left (one report line each), 2 a version
/// cannot be read — and then OURS is left as it was.
public enum MergeDriver {
    public struct Outcome: Sendable {
        public var status: Int32
        /// What goes to stderr, one line each: the conflict report, or the one error.
        public var stderr: [String]
    }

    public static func run(base: String, ours: String, theirs: String, path: String) -> Outcome {
        guard let kind = RecordKind(path: path) else {
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
            try replace(ours, with: result.text)
            return Outcome(
                status: result.conflicts.isEmpty ? 0 : 1, stderr: result.conflicts.map { $0.reportLine(path: path) })
        } catch let e as StoreError {
            return Outcome(status: 2, stderr: [e.description])
        } catch {
            return Outcome(status: 2, stderr: ["\(Escape.inline(path, limit: .max)): error: \(error)"])
        }
    }

    /// The bytes of one version, read with plain system calls: git starts the driver once per
    /// file, and Foundation's file reading costs more than the merge's own work here.
    private static func read(_ file: String, path: String, side: String) throws -> Data {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StoreError(
                file: "\(path) (\(side))", "cannot read \(file): \(String(cString: strerror(errno)))", kind: .io)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else {
                throw StoreError(
                    file: "\(path) (\(side))", "cannot read \(file): \(String(cString: strerror(errno)))", kind: .io)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
            // A record is a few KB; the reader refuses anything over its limit anyway.
            if bytes.count > XMLReader.maxFileBytes { break }
        }
        return Data(bytes)
    }

    /// OURS is git's temporary copy: replaced by rename so it is never half-written, without
    /// the fsyncs of a store save (git reads it back at once; a crash loses the merge anyway).
    private static func replace(_ path: String, with text: String) throws {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let tmp = "\(dir)/.\(name).merge-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreError(file: path, "cannot write the merged file next to it", kind: .io) }
        var text = text
        let written = text.withUTF8 { buf in
            var done = 0
            while done < buf.count {
                let n = write(fd, buf.baseAddress! + done, buf.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        guard close(fd) == 0, written, rename(tmp, path) == 0 else {
            unlink(tmp)
            throw StoreError(file: path, "cannot replace it with the merged file", kind: .io)
        }
    }
}
