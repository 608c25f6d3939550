import Foundation

/// Collects field path → position while a file is read.
final class SourceMapRecorder {
    var positions: [String: SourceMap.Position] = [:]
    func record(_ path: String, _ p: (line: Int, column: Int)) {
        if positions[path] == nil { positions[path] = SourceMap.Position(line: p.line, column: p.column) }
    }
}

extension SourceMap {
    /// The positions `decode` records when it reads `data` again (none if it fails now).
    static func recorded<R>(_ data: Data, file: String, by decode: (Data, String, SourceMapRecorder?) throws -> R)
        -> [String: Position]
    {
        let recorder = SourceMapRecorder()
        _ = try? decode(data, file, recorder)
        return recorder.positions
    }

    /// A record decoded without positions, and its map, recorded from `data` the first time
    /// a position is asked for.
    static func decoding<R>(
        _ data: Data, file: String,
        _ decode: @escaping @Sendable (Data, String, SourceMapRecorder?) throws -> R
    ) throws -> (R, SourceMap) {
        (try decode(data, file, nil), SourceMap(lazy: { recorded(data, file: file, by: decode) }))
    }
}

/// Where each field of a loaded record stands in its file, so findings can be positioned.
///
/// Loading a store does not record positions: the map keeps the file's bytes and reads
/// them again, recording, the first time a position is asked for (a finding on that file).
public struct SourceMap: Sendable, Equatable {
    public struct Position: Sendable, Hashable {
        public var line: Int
        public var column: Int
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
        /// `inner` (1-based, inside a text that starts here) as a position in the file.
        public func offset(by inner: Position) -> Position {
            inner.line == 1
                ? Position(line: line, column: column + inner.column - 1)
                : Position(line: line + inner.line - 1, column: inner.column)
        }
    }
    private let storage: Storage

    public var positions: [String: Position] { storage.positions }

    public init(positions: [String: Position]) { storage = Storage(positions) }

    /// Positions computed on first use by `compute`.
    init(lazy compute: @escaping @Sendable () -> [String: Position]) { storage = Storage(compute) }

    public static func == (a: SourceMap, b: SourceMap) -> Bool { a.positions == b.positions }

    /// The position of `field`, or of its nearest recorded parent (`apps[1].variables[0].name` →
    /// `apps[1].variables[0]` → `apps[1]`), else of the root element: every finding in a file
    /// that was read has a line:column.
    public func position(of field: String) -> Position? {
        let positions = self.positions
        var f = field
        while !f.isEmpty {
            if let p = positions[f] { return p }
            guard let cut = f.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            f = String(f[..<cut])
        }
        return positions[""]
    }

    private final class Storage: @unchecked Sendable {
        private let lock = NSLock()
        private var value: [String: Position]?
        private var compute: (@Sendable () -> [String: Position])?
        init(_ value: [String: Position]) { self.value = value }
        init(_ compute: @escaping @Sendable () -> [String: Position]) { self.compute = compute }
        var positions: [String: Position] {
            lock.lock()
            defer { lock.unlock() }
            if let value { return value }
            let v = compute?() ?? [:]
            value = v
            compute = nil
            return v
        }
    }
}
