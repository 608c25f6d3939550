import Foundation

/// The store: one directory, one XML file per record (docs/FORMATS.md).
///
///     STORE/services/<name>.xml   STORE/deliveries/<name>.xml   STORE/profiles/<name>.xml
public final class Store: Sendable {
    public let root: URL

    /// `root.path`, kept: files are opened by path, thousands per load.
    private let rootPath: String

    public init(root: URL) {
        rootPath = root.standardizedPlainPath
        self.root = URL(fileURLWithPath: rootPath, isDirectory: root.hasDirectoryPath)
    }

    /// Record names become file names: letters, digits, `_`, `-`, `.` (not first), at most 64.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64 else { return false }
        let allowed: (Unicode.Scalar) -> Bool = { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-"
                || s == "."
        }
        return first != "." && first != "-" && name.unicodeScalars.allSatisfy(allowed)
    }

    public static let nameRule = "letters, digits, `_`, `-` and `.` (not first), at most 64 characters"

    public func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// A store file's path, built as text (no URL to build and decode per file).
    func filePath(_ relative: String) -> String {
        rootPath.hasSuffix("/") ? rootPath + relative : rootPath + "/" + relative
    }

    // MARK: listing

    /// The names of the records of one kind, sorted (a directory listing; nothing is read).
    public func names<R: StoreRecord>(_: R.Type) throws -> [String] {
        let folder = R.folder
        let dirPath = filePath(folder)
        // A folder that is a link out of the store is refused, as a file would be.
        if let mode = SafeFile.lstatMode(dirPath), mode & S_IFMT == S_IFLNK,
            !url(folder).resolvingSymlinksInPath().path.hasPrefix(root.resolvingSymlinksInPath().path + "/")
        {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: dirPath)) ?? "?"
            throw StoreError(
                file: folder,
                "\(folder)/ is a symbolic link to \(Escape.inline(target)), outside the store; replace it with a directory",
                kind: .io)
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dirPath, isDirectory: &isDir) else { return [] }
        guard isDir.boolValue else {
            throw StoreError(
                file: folder, "\(folder) is not a directory; the store needs \(folder)/ to hold one file per record",
                kind: .io)
        }
        do {
            return try SafeFile.entryNames(dirPath)
                .filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }
                .map { String($0.dropLast(4)) }
                .sorted()
        } catch let r as SafeFile.Refusal {
            throw StoreError(file: folder, "cannot list \(folder)/: \(r.message)", kind: .io)
        }
    }

    // MARK: reading

    /// One record of any kind, by name.
    public func load<R: StoreRecord>(_ type: R.Type, _ name: String) throws -> R { try loadWithMap(type, name).0 }

    /// The record and its source map (no fingerprint: nothing will be saved from it).
    public func loadWithMap<R: StoreRecord>(_: R.Type, _ name: String) throws -> (R, SourceMap) {
        let path = R.path(name)
        return try decodeRecord(try read(path), name: name, path: path, map: .keptBytes, R.codec)
    }

    /// The record, its source map, and the fingerprint of the bytes it was read from
    /// (what a later save checks against the disk). The map reads the file again when a
    /// position is first asked for, and gives none if the file no longer has those bytes.
    public func loadRecord<R: StoreRecord>(_: R.Type, _ name: String) throws -> (R, SourceMap, FileFingerprint) {
        let path = R.path(name)
        let (data, fp) = try readRecord(path)
        let (record, map) = try decodeRecord(
            data, name: name, path: path,
            map: .reread(same: { bytes, _ in
                FileFingerprint(bytes: bytes, modified: fp.modified).matches(fp)
            }), R.codec)
        return (record, map, fp)
    }

    /// Where a decoded record's source map finds its positions when first asked: in the bytes
    /// kept in memory, or by reading the file again if `same` says it still holds the bytes
    /// decoded (else no position: none beats a wrong one). Re-reading keeps a store's files
    /// out of memory for the many that never have a finding.
    private enum MapSource {
        case keptBytes
        case reread(same: @Sendable (Data, Date) -> Bool)
    }

    /// One record of any kind: decoded without positions, its map lazy, its name checked
    /// against the file name.
    private func decodeRecord<R: StoreRecord>(
        _ data: Data, name: String, path: String, map source: MapSource, _ codec: RecordCodec<R>
    ) throws -> (R, SourceMap) {
        let record = try codec.decode(data, path, name, nil)
        let positions: @Sendable (Data) -> [String: SourceMap.Position] = {
            SourceMap.recorded($0, file: path, by: { try codec.decode($0, $1, name, $2) })
        }
        let map: SourceMap
        switch source {
        case .keptBytes: map = SourceMap(lazy: { positions(data) })
        case .reread(let same): map = rereadingMap(path, same: same, record: positions)
        }
        try checkName(record.name, expected: name, path: path, map: map)
        return (record, map)
    }

    private func rereadingMap(
        _ path: String, same: @escaping @Sendable (Data, Date) -> Bool,
        record: @escaping @Sendable (Data) -> [String: SourceMap.Position]
    ) -> SourceMap {
        SourceMap(lazy: { [self] in
            guard let (bytes, modified) = try? readChecked(path), same(bytes, modified) else { return [:] }
            return record(bytes)
        })
    }

    /// Where each field of a record's file stands, read from the file as it is when a
    /// position is first asked for (a command that has just saved it: one parse, and none
    /// when nothing asks).
    public func sourceMap<R: StoreRecord>(_: R.Type, _ name: String) -> SourceMap {
        let path = R.path(name)
        return SourceMap(lazy: { [self] in
            guard let data = try? read(path) else { return [:] }
            return SourceMap.recorded(data, file: path, by: { try R.codec.decode($0, $1, name, $2) })
        })
    }

    // MARK: reading once (validate, list)

    /// A record for a reader that saves nothing (no fingerprint); its map checks the file
    /// by size and modification time.
    private func readOnce<R: StoreRecord>(_: R.Type, _ name: String) throws -> (R, SourceMap) {
        let path = R.path(name)
        let (data, modified) = try readChecked(path)
        let size = data.count
        return try decodeRecord(
            data, name: name, path: path, map: .reread(same: { bytes, now in bytes.count == size && now == modified }),
            R.codec)
    }

    /// The file name is the record's name; a mismatch means a copied or renamed file.
    private func checkName(_ name: String, expected: String, path: String, map: SourceMap) throws {
        guard name == expected else {
            let p = map.position(of: "name")
            throw StoreError(
                file: path, line: p?.line, column: p?.column,
                "name \"\(Escape.inline(name))\" does not match the file name \"\(Escape.inline(expected)).xml\"; rename the file or the record"
            )
        }
    }

    /// Reads a store file, refusing what must not be followed or is too large to be ours.
    /// One `lstat`, one open and one `fstat` per file (a store can hold thousands).
    func read(_ relative: String) throws -> Data { try readChecked(relative).0 }

    /// Reads a store file and fingerprints the bytes read.
    func readRecord(_ relative: String) throws -> (Data, FileFingerprint) {
        let (data, modified) = try readChecked(relative)
        return (data, FileFingerprint(bytes: data, modified: modified))
    }

    private func readChecked(_ relative: String) throws -> (Data, Date) {
        let path = filePath(relative)
        var st = stat()
        guard lstat(path, &st) == 0 else {
            throw StoreError(file: relative, "no such file in the store (\(root.path))", kind: .io)
        }
        if st.st_mode & S_IFMT == S_IFLNK {
            let u = url(relative)
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: u.path)) ?? "?"
            let resolved = u.resolvingSymlinksInPath().path
            if !resolved.hasPrefix(root.resolvingSymlinksInPath().path + "/") {
                throw StoreError(
                    file: relative, line: 1, column: 1,
                    "is a symbolic link to \(Escape.inline(target)), outside the store; replace it with a regular file")
            }
            if stat(path, &st) != 0 { st.st_size = 0 }  // a dangling link fails at the read below
        }
        if let refusal = SafeFile.specialFile(st.st_mode, shownAs: relative) {
            throw StoreError(file: relative, line: 1, column: 1, refusal.message)
        }
        if st.st_size > XMLReader.maxFileBytes {
            throw StoreError(
                file: relative, line: 1, column: 1,
                "the file is \(Int(st.st_size) / 1024 / 1024) MB; PushDesk files are at most \(XMLReader.maxFileBytes / 1024 / 1024) MB — is this the right file?"
            )
        }
        do {
            guard let r = try FileFingerprint.readBytes(path: path) else {
                throw StoreError(file: relative, "no such file in the store (\(root.path))", kind: .io)
            }
            return r
        } catch let e as StoreError { throw e } catch {
            throw StoreError(file: relative, "cannot read: \(error)", kind: .io)
        }
    }

    /// The fingerprint of a store file as it is now; nil when it does not exist.
    public func fingerprint(_ relative: String) throws -> FileFingerprint? {
        do { return try FileFingerprint.current(url(relative)) } catch {
            throw StoreError(file: relative, "cannot read: \(error)", kind: .io)
        }
    }

    // MARK: writing

    /// Saves a record (no check of what is on disk: commands that write what they just made).
    public func save<R: StoreRecord>(_ record: R) throws {
        try saveRecord(record.name, kind: R.noun, path: R.path(record.name)) { try R.codec.encode(record) }
    }

    /// Saves only if the file on disk is still what `baseline` says (unchanged since it was
    /// read, or still absent for a new record); otherwise throws `StoreConflict` and writes
    /// nothing. Returns the fingerprint of the bytes written, the baseline of the next save.
    @discardableResult
    public func save<R: StoreRecord>(_ record: R, baseline: RecordBaseline) throws -> FileFingerprint {
        try saveRecord(record.name, kind: R.noun, path: R.path(record.name), baseline: baseline) {
            try R.codec.encode(record)
        }
    }

    /// Throws `StoreConflict` when the file is not what the baseline says.
    public func checkUnchanged(_ relative: String, baseline: RecordBaseline) throws {
        let now = try fingerprint(relative)
        switch (baseline, now) {
        case (.absent, nil): return
        case (.read(let then), .some(let now)) where then.matches(now): return
        default: throw StoreConflict(file: relative, expected: baseline, current: now)
        }
    }

    /// Deletes a record file only if it is unchanged since it was read.
    public func delete(_ relative: String, baseline: FileFingerprint) throws {
        try checkUnchanged(relative, baseline: .read(baseline))
        try delete(relative)
    }

    /// Checks the name, encodes (a value XML cannot hold stops here), then writes atomically.
    private func saveRecord(_ name: String, kind: String, path: String, encode: () throws -> String) throws {
        try checkSavable(name, kind: kind)
        let text: String
        do { text = try encode() } catch {
            throw StoreError(file: path, "\(error)")
        }
        try write(text, to: path)
    }

    /// The same, with the on-disk check right before the write. (A change landing between
    /// the check and the rename is not caught: other consoles are kept out by the store
    /// lock, see docs/RELIABILITY.md.)
    private func saveRecord(
        _ name: String, kind: String, path: String, baseline: RecordBaseline,
        encode: () throws -> String
    ) throws -> FileFingerprint {
        try checkSavable(name, kind: kind)
        let text: String
        do { text = try encode() } catch {
            throw StoreError(file: path, "\(error)")
        }
        try checkUnchanged(path, baseline: baseline)
        try write(text, to: path)
        let modified =
            (try? FileManager.default.attributesOfItem(atPath: url(path).path))?[.modificationDate] as? Date ?? Date()
        return FileFingerprint(bytes: Array(text.utf8), modified: modified)
    }

    /// Deletes a record; with a baseline, only if its file is still what the baseline says.
    public func delete<R: StoreRecord>(_: R.Type, _ name: String, baseline: RecordBaseline? = nil) throws {
        let path = R.path(name)
        if let baseline { try checkUnchanged(path, baseline: baseline) }
        try delete(path)
    }

    private func checkSavable(_ name: String, kind: String) throws {
        guard Self.isValidName(name) else {
            throw StoreError(
                file: "", "the \(kind) name \"\(Escape.inline(name))\" cannot be a file name; use \(Self.nameRule)",
                kind: .io)
        }
    }

    private func write(_ text: String, to relative: String) throws {
        do {
            try AtomicFile.write(Array(text.utf8), storeRoot: root, relative: relative)
        } catch let e as AtomicWriteError {
            throw StoreError(file: relative, "not saved, the file on disk is unchanged: \(e.message)", kind: .io)
        } catch {
            throw StoreError(
                file: relative, "not saved, the file on disk is unchanged: \(error.localizedDescription)", kind: .io)
        }
    }

    func delete(_ relative: String) throws {
        do { try FileManager.default.removeItem(at: url(relative)) } catch {
            throw StoreError(file: relative, "cannot delete: \(error.localizedDescription)", kind: .io)
        }
    }

    // MARK: everything at once

    /// Every record that loads, and an error for each file that does not. Files are read
    /// and decoded in parallel; the snapshot lists them in name order. `readOnly` is for a
    /// command that reads the store once and saves nothing (`validate`, `list`): no
    /// fingerprints (no hashing), and source maps read their file again if a finding needs a
    /// position instead of keeping every file's bytes in memory.
    public func loadAll(readOnly: Bool = false) -> StoreSnapshot {
        var snap = StoreSnapshot()
        do {
            snap.services = try loadEvery(Service.self, readOnly: readOnly, into: &snap)
            snap.deliveries = try loadEvery(Delivery.self, readOnly: readOnly, into: &snap)
            snap.profiles = try loadEvery(Profile.self, readOnly: readOnly, into: &snap)
        } catch let e as StoreError { snap.errors.append(e) } catch {}
        return snap
    }

    /// The services alone, as `loadAll` reads them: what the console's first frame shows.
    /// Their findings are those of the whole store's check (the rules of deliveries and
    /// profiles find only in their own files), so the rest can be read just after.
    public func loadServices() -> StoreSnapshot {
        var snap = StoreSnapshot()
        do {
            snap.services = try loadEvery(Service.self, readOnly: false, into: &snap)
        } catch let e as StoreError { snap.errors.append(e) } catch {}
        return snap
    }

    /// Every record of one kind, in parallel, in name order; their maps and fingerprints
    /// go into the snapshot, and an error for each file that does not load.
    private func loadEvery<R: StoreRecord>(_ type: R.Type, readOnly: Bool, into snap: inout StoreSnapshot) throws
        -> [R]
    {
        let names = try self.names(type)
        let results = Parallel.map(names) { name in
            Self.attempt { () throws -> (R, SourceMap, FileFingerprint?) in
                if !readOnly { return try self.loadRecord(type, name) }
                let (r, map) = try self.readOnce(type, name)
                return (r, map, nil)
            }
        }
        var records: [R] = []
        for (name, r) in zip(names, results) {
            if let (record, map, fp) = r.value {
                records.append(record)
                snap.sourceMaps[R.path(name)] = map
                snap.fingerprints[R.path(name)] = fp
            }
            if let e = r.error { snap.errors.append(e) }
        }
        return records
    }

    /// The value, or the store error (other errors are dropped, as before).
    private static func attempt<T>(_ body: () throws -> T) -> (value: T?, error: StoreError?) {
        do { return (try body(), nil) } catch let e as StoreError { return (nil, e) } catch { return (nil, nil) }
    }
}

/// All the records of a store at one moment, plus the files that failed to load.
public struct StoreSnapshot: Sendable {
    public var services: [Service] = []
    public var deliveries: [Delivery] = []
    public var profiles: [Profile] = []
    public var errors: [StoreError] = []
    /// Store-relative file → positions of its fields.
    public var sourceMaps: [String: SourceMap] = [:]
    /// Store-relative file → what its bytes were when read (the baseline of a later save).
    public var fingerprints: [String: FileFingerprint] = [:]

    public init(services: [Service] = [], deliveries: [Delivery] = [], profiles: [Profile] = []) {
        self.services = services
        self.deliveries = deliveries
        self.profiles = profiles
    }

    public func service(named name: String) -> Service? { services.first { $0.name == name } }

    /// Fills in line:column of findings from the files' source maps. In parallel: a first
    /// position reads its file again (20,000 services with a finding each: 20,000 files).
    public func positioned(_ findings: [Finding]) -> [Finding] {
        Parallel.map(findings) { [self] f in
            guard f.line == nil, var p = sourceMaps[f.file]?.position(of: f.field.description) else { return f }
            if let inner = f.within { p = p.offset(by: inner) }
            var f = f
            f.line = p.line
            f.column = p.column
            return f
        }
    }
}
