/// A file that cannot be read, parsed or written: where, and what to do.
/// Printed as `FILE:LINE:COLUMN: error: MESSAGE` (README.md).
public struct StoreError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The file's content is wrong (exit 1).
        case invalidContent
        /// Missing file, permissions, disk full, bad name (exit 2).
        case io
    }
    /// Store-relative path when inside the store, else as given.
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String
    public var kind: Kind

    public init(file: String, line: Int? = nil, column: Int? = nil, _ message: String, kind: Kind = .invalidContent) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.kind = kind
    }

    /// Where the error leaves for a terminal: the file name (from a directory listing) and
    /// the message (which may quote an element name, a value) are escaped here, in one place.
    public var description: String {
        var loc = Escape.inline(file, limit: .max)
        if let line {
            loc += ":\(line)"
            if let column { loc += ":\(column)" }
        }
        return "\(loc): error: \(Escape.inline(message, limit: .max))"
    }
}
