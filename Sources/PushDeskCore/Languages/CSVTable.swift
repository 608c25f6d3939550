import Foundation

/// Translators' CSV files as RFC 4180 has them: comma-separated, `"` quoting with `""`
/// inside, CRLF or LF between records, UTF-8 (a leading BOM ignored on input, none
/// written). Every cell keeps where it started, so an error names `LINE:COLUMN`.
public enum CSVTable {
    /// At most this many bytes are read.
    public static let maxBytes = 10 * 1024 * 1024

    public struct Cell: Equatable, Sendable {
        public var text: String
        /// 1-based; the column counts characters from the start of the line.
        public var line: Int
        public var column: Int
    }

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// `csv.encoding`, `csv.row`, `csv.size`.
        public var rule: String
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "\(line):\(column): error: \(rule): \(message)" }
    }

    /// The file's records, each a list of cells; a last empty line is no record.
    public static func read(_ bytes: [UInt8]) throws(Failure) -> [[Cell]] {
        if bytes.count > maxBytes {
            throw Failure(
                rule: "csv.size", line: 1, column: 1,
                message: "the file is \(bytes.count) bytes; a translators' file is at most \(maxBytes) bytes")
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard String(validating: body, as: UTF8.self) != nil else {
            let (line, column) = firstInvalidUTF8(body)
            throw Failure(
                rule: "csv.encoding", line: line, column: column,
                message: "the file is not UTF-8 here; save it from the spreadsheet as \"CSV UTF-8\"")
        }
        return try records(Array(body))
    }

    /// The records of valid UTF-8 bytes. Read byte by byte (every character that shapes the
    /// table is ASCII, so never inside a longer character); `column` counts characters, kept
    /// as `chars`, the number of characters before byte `i`.
    private static func records(_ s: [UInt8]) throws(Failure) -> [[Cell]] {
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let lf = UInt8(ascii: "\n")
        let cr = UInt8(ascii: "\r")
        var out: [[Cell]] = []
        var record: [Cell] = []
        var i = 0
        var chars = 0
        var line = 1
        var lineStart = 0  // in characters
        func step() {
            if s[i] & 0xC0 != 0x80 { chars += 1 }
            i += 1
        }
        while i < s.count || !record.isEmpty {
            let cellLine = line
            let cellColumn = chars - lineStart + 1
            let text: String
            if i < s.count, s[i] == quote {
                step()
                var bytes: [UInt8] = []
                while true {
                    guard i < s.count else {
                        throw Failure(
                            rule: "csv.row", line: cellLine, column: cellColumn,
                            message:
                                "this quoted cell is never closed; add the closing \" (a quote inside a cell is written \"\")"
                        )
                    }
                    let c = s[i]
                    if c == quote {
                        if i + 1 < s.count, s[i + 1] == quote {
                            bytes.append(quote)
                            step()
                            step()
                            continue
                        }
                        step()
                        break
                    }
                    bytes.append(c)
                    step()
                    if c == lf || (c == cr && !(i < s.count && s[i] == lf)) {
                        line += 1
                        lineStart = chars
                    }
                }
                if i < s.count, s[i] != comma, s[i] != lf, s[i] != cr {
                    throw Failure(
                        rule: "csv.row", line: line, column: chars - lineStart + 1,
                        message: "text after a closing quote; quote the whole cell, with \"\" for a quote inside")
                }
                text = String(decoding: bytes, as: UTF8.self)
            } else {
                let start = i
                while i < s.count, s[i] != comma, s[i] != lf, s[i] != cr {
                    if s[i] == quote {
                        throw Failure(
                            rule: "csv.row", line: line, column: chars - lineStart + 1,
                            message: "a quote inside an unquoted cell; quote the cell and write the quote as \"\"")
                    }
                    step()
                }
                text = String(decoding: s[start..<i], as: UTF8.self)
            }
            record.append(Cell(text: text, line: cellLine, column: cellColumn))
            if i < s.count, s[i] == comma {
                // A comma at the very end: the next turn reads the last, empty cell.
                step()
                continue
            }
            // End of the record: CRLF, LF, a lone CR, or the end of the file.
            if i < s.count, s[i] == cr { step() }
            if i < s.count, s[i] == lf { step() }
            line += 1
            lineStart = chars
            out.append(record)
            record = []
        }
        return out
    }

    /// Line and column (in characters) of the first byte that is not UTF-8.
    private static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> (Int, Int) {
        var line = 1
        var column = 1
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            let length: Int
            switch b {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return (line, column)
            }
            guard i + length <= bytes.endIndex,
                String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil
            else { return (line, column) }
            if b == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            i += length
        }
        return (line, column)
    }

    // MARK: Writing

    /// The file: CRLF after every record, a cell quoted when it holds a comma, a quote, CR
    /// or LF. Cells are written as given: `spreadsheetSafe` is the export's own step.
    public static func write(_ records: [[String]]) -> String {
        var out = ""
        for record in records {
            out += record.map(quoted).joined(separator: ",")
            out += "\r\n"
        }
        return out
    }

    static func quoted(_ cell: String) -> String {
        guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else {
            return cell
        }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Spreadsheet safety (OWASP's CSV injection): a cell a spreadsheet would take for a
    /// formula — beginning with `=`, `+`, `-`, `@`, TAB or CR — is exported with a leading `'`.
    /// So is one that already is such a cell behind its own `'`s (`'=x` → `''=x`), so that
    /// import, which removes one `'`, gives it back as it was.
    public static func spreadsheetSafe(_ cell: String) -> String {
        escapesFormula(cell) ? "'" + cell : cell
    }

    /// On import, the `'` export added is removed again, so a round trip is lossless; any
    /// other leading `'` is the translator's own and stays.
    public static func unescapeSpreadsheetSafe(_ cell: String) -> String {
        let scalars = cell.unicodeScalars
        guard scalars.first == "'", escapesFormula(cell) else { return cell }
        return String(String.UnicodeScalarView(scalars.dropFirst()))
    }

    /// After any leading `'`s, the cell begins with a character that starts a formula.
    private static func escapesFormula(_ cell: String) -> Bool {
        guard let first = cell.unicodeScalars.first(where: { $0 != "'" }) else { return false }
        return formulaStarts.contains(first)
    }

    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}
