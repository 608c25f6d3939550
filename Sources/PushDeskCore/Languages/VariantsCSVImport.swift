import Foundation

/// Reading a translators' file onto a delivery (`VariantsCSV.plan`): the header names the
/// format and its columns, each row sets the default or one variant, and every problem is
/// a finding at the file's `LINE:COLUMN` (docs/FORMATS.md, "Translators' files").
struct VariantsCSVImport {
    let file: String
    let base: Delivery
    let replace: Bool
    private var findings: [Finding] = []

    /// The default and 200 variants.
    static let maxRows = DeliveryVariant.maxCount + 1

    init(file: String, base: Delivery, replace: Bool) {
        self.file = file
        self.base = base
        self.replace = replace
    }

    /// One column of the header, as the format reads it.
    enum Column: Equatable {
        case locale
        case text(DeliveryText)
        /// `value:NAME` (pushdesk).
        case value(String)
        /// `customFields` (campaign-standard): the row's values as one JSON object.
        case customFields
        /// A campaign-standard column PushDesk keeps per delivery: compared, not imported.
        case perDelivery(VariantsCSVFormat.CampaignColumn)
        /// `language`: written for the translator, ignored on import.
        case ignored
    }

    /// What one row sets: the default (`tag` nil) or a variant.
    private struct Row {
        var tag: LocaleTag?
        var texts: [(DeliveryText, String)] = []
        var values: [(String, String)] = []
        /// customFields: the row's values as a set (names left out are removed).
        var valueSet: [(String, String)]?
    }

    mutating func plan(_ bytes: [UInt8]) -> VariantsImportPlan {
        let rows = readRows(bytes)
        guard let rows, !findings.hasErrors else {
            return VariantsImportPlan(result: nil, changes: [], findings: findings, base: base)
        }
        var result = base
        // Each variant's tag is read once: 200 rows must not parse 200 tags each.
        var index: [String: Int] = [:]
        for (i, v) in base.variants.enumerated() where index[Self.identity(v)] == nil { index[Self.identity(v)] = i }
        for row in rows { apply(row, to: &result, index: &index) }
        if replace {
            let named = Set(rows.compactMap { $0.tag })
            result.variants.removeAll { v in v.tag.map { !named.contains($0) } ?? true }
        }
        let changes = Self.changes(from: base, to: result)
        // The result goes through the delivery's language rules (variant.count, variant.empty, …):
        // an error the delivery did not already have stops the import.
        let path = Delivery.path(base.name)
        let after = DeliveryRules.languageFindings(result, file: path)
        findings += after
        let errors = after.filter { $0.severity == .error }
        let before = errors.isEmpty ? [] : Set(DeliveryRules.languageFindings(base, file: path).map(\.key))
        let blocked = errors.contains { !before.contains($0.key) }
        return VariantsImportPlan(result: blocked ? nil : result, changes: changes, findings: findings, base: base)
    }

    // MARK: reading

    private mutating func fail(_ rule: Rule, _ line: Int, _ column: Int, _ message: String) {
        findings.append(rule.finding(message, file: file, line: line, column: column))
    }

    private mutating func fail(_ rule: Rule, _ cell: CSVTable.Cell, _ message: String) {
        fail(rule, cell.line, cell.column, message)
    }

    /// The rows, or nil when the file cannot be read as a table with a known header.
    private mutating func readRows(_ bytes: [UInt8]) -> [Row]? {
        let records: [[CSVTable.Cell]]
        do { records = try CSVTable.read(bytes) } catch {
            fail(CSVRules.rule(id: error.rule), error.line, error.column, error.message)
            return nil
        }
        // A blank line (one empty cell) is no row: spreadsheets leave them at the end.
        let table = records.filter { !($0.count == 1 && $0[0].text.isEmpty) }
        guard let header = table.first else {
            fail(
                CSVRules.header, 1, 1,
                "the file is empty; its first line names the columns (locale,title,subtitle,body or Campaign Standard's)"
            )
            return nil
        }
        let format = VariantsCSVFormat.of(header: header.map(\.text))
        guard let columns = readHeader(header, format: format) else { return nil }
        let data = table.dropFirst()
        if data.count > Self.maxRows {
            let first = data[data.startIndex + Self.maxRows][0]
            fail(
                CSVRules.size, first,
                "row \(Self.maxRows + 1) after the header: a file holds at most \(Self.maxRows) rows (the default and \(DeliveryVariant.maxCount) variants); split it or remove languages"
            )
            return nil
        }
        var rows: [Row] = []
        var seen: [String: (line: Int, spelled: String)] = [:]
        for record in data {
            guard record.count == columns.count else {
                let at = record.count > columns.count ? record[columns.count] : record[record.count - 1]
                fail(
                    CSVRules.row, at,
                    "this row has \(record.count) cells and the header \(columns.count); quote a cell that holds a comma (\"a, b\") and give every row one cell per column"
                )
                continue
            }
            if let row = readRow(record, columns: columns, seen: &seen) { rows.append(row) }
        }
        return rows
    }

    /// The columns of the header row; nil (with findings) when one is unknown, repeated or missing.
    private mutating func readHeader(_ header: [CSVTable.Cell], format: VariantsCSVFormat) -> [Column]? {
        var columns: [Column] = []
        var names: [String: CSVTable.Cell] = [:]
        let before = findings.count
        for cell in header {
            let name = Self.trimmed(cell.text)
            let key = name.lowercased()
            if let earlier = names[key] {
                fail(
                    CSVRules.header, cell,
                    "column \"\(name)\" is given twice (also at column \(earlier.column)); keep one")
                continue
            }
            names[key] = cell
            if XMLWriter.firstForbiddenCharacter(in: name) != nil {
                fail(CSVRules.header, cell, "this column's name holds a control character; remove it")
                continue
            }
            guard let column = Self.column(name, format: format) else {
                let known =
                    format == .pushdesk
                    ? "a PushDesk file has locale, title, subtitle, body and value:NAME columns"
                    : "a Campaign Standard file has its 14 columns: "
                        + VariantsCSVFormat.CampaignColumn.allCases.map(\.rawValue).joined(separator: ", ")
                fail(CSVRules.header, cell, "unknown column \"\(name)\"; \(known)")
                continue
            }
            columns.append(column)
        }
        let required =
            format == .pushdesk ? ["locale"] : VariantsCSVFormat.CampaignColumn.allCases.map(\.rawValue)
        let last = header[header.count - 1]
        for name in required where names[name.lowercased()] == nil {
            fail(
                CSVRules.header, last.line, 1,
                "the header has no \(name) column; "
                    + (format == .pushdesk
                        ? "a PushDesk file starts locale,title,subtitle,body"
                        : "a Campaign Standard file has all of its 14 columns"))
        }
        return findings.count == before ? columns : nil
    }

    private static func column(_ name: String, format: VariantsCSVFormat) -> Column? {
        let key = name.lowercased()
        switch format {
        case .pushdesk:
            if key == "locale" { return .locale }
            if let text = DeliveryText(rawValue: key) { return .text(text) }
            let prefix = VariantsCSVFormat.valuePrefix
            if key.hasPrefix(prefix), name.count > prefix.count { return .value(String(name.dropFirst(prefix.count))) }
            return nil
        case .campaignStandard:
            guard let c = VariantsCSVFormat.CampaignColumn.allCases.first(where: { $0.rawValue.lowercased() == key })
            else { return nil }
            switch c {
            case .title: return .text(.title)
            case .messageBody: return .text(.body)
            case .customFields: return .customFields
            case .locale: return .locale
            case .language: return .ignored
            default: return .perDelivery(c)
            }
        }
    }

    private mutating func readRow(
        _ record: [CSVTable.Cell], columns: [Column], seen: inout [String: (line: Int, spelled: String)]
    ) -> Row? {
        guard let localeAt = columns.firstIndex(of: .locale) else { return nil }
        let localeCell = record[localeAt]
        let spelled = Self.trimmed(CSVTable.unescapeSpreadsheetSafe(localeCell.text))
        var row = Row()
        if spelled.lowercased() != "default" {
            guard let tag = LocaleTag(spelled) else {
                fail(
                    CSVRules.locale, localeCell,
                    spelled.isEmpty
                        ? "no locale on this row; write default for the delivery's own texts or a language tag such as de, pt-BR, zh-Hant"
                        : "locale \"\(spelled)\" is no language tag; write language[-Script][-REGION] (de, pt-BR, pt_br, zh-Hant, es-419) or default"
                )
                return nil
            }
            row.tag = tag
        }
        let key = row.tag?.description ?? "default"
        if let earlier = seen[key] {
            fail(
                CSVRules.duplicate, localeCell,
                "\(key) is on line \(earlier.line) already (as \"\(earlier.spelled)\"); keep one row per language")
            return nil
        }
        seen[key] = (localeCell.line, spelled)
        let failed = findings.count
        for (column, cell) in zip(columns, record) {
            let text = CSVTable.unescapeSpreadsheetSafe(cell.text)
            switch column {
            case .locale, .ignored: continue
            case .text(let t): if storable(text, cell) { row.texts.append((t, text)) }
            case .value(let name): if storable(text, cell) { row.values.append((name, text)) }
            case .customFields: row.valueSet = customFields(text, cell)
            case .perDelivery(let c):
                let expected = c.perDelivery(base) ?? ""
                guard text != expected else { continue }
                findings.append(
                    CSVRules.perDelivery.finding(
                        "\(c.rawValue) is \"\(text)\" here and \"\(expected)\" in the delivery; PushDesk keeps it per delivery, not per language: not imported (change it in the delivery's options)",
                        file: file, line: cell.line, column: cell.column))
            }
        }
        return findings[failed...].contains { $0.severity == .error } ? nil : row
    }

    /// A cell without the blanks around it (tab and the space separators, as Foundation's
    /// `.whitespaces`), in Swift: a 200-row file trims every locale.
    static func trimmed(_ text: String) -> String {
        func blank(_ s: Unicode.Scalar) -> Bool {
            s == " " || s == "\t" || (s.value > 0x7F && s.properties.generalCategory == .spaceSeparator)
        }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, blank(scalars[start]) { start = scalars.index(after: start) }
        while end > start, blank(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return start == scalars.startIndex && end == scalars.endIndex ? text : String(scalars[start..<end])
    }

    /// What a delivery file can hold: no control character XML 1.0 refuses (`csv.encoding`),
    /// at most a field's 16 KB (`csv.size`), so an import never fails at its save.
    private mutating func storable(_ text: String, _ cell: CSVTable.Cell) -> Bool {
        if let bad = XMLWriter.firstForbiddenCharacter(in: text) {
            fail(
                CSVRules.encoding, cell,
                "this cell holds the control character U+\(Escape.hex4(bad.value)), which a delivery file cannot hold; remove it"
            )
            return false
        }
        guard text.utf8.count <= ElementReader.maxValueBytes else {
            fail(
                CSVRules.size, cell,
                "this cell is \(text.utf8.count) bytes; a text or value holds at most \(ElementReader.maxValueBytes): shorten it"
            )
            return false
        }
        return true
    }

    /// customFields: a JSON object of strings, or empty (no values).
    private mutating func customFields(_ text: String, _ cell: CSVTable.Cell) -> [(String, String)]? {
        guard !Self.trimmed(text).isEmpty else { return [] }
        let object: JSONValue
        do { object = try JSONReader.object(text) } catch {
            fail(
                CSVRules.json, cell,
                "customFields is no JSON object (\(error.line):\(error.column) in the cell: \(error.message)); write {\"NAME\":\"value\"} or leave it empty"
            )
            return nil
        }
        guard case .object(let members) = object else { return nil }
        var out: [(String, String)] = []
        for (name, value) in members {
            guard case .string(let s) = value else {
                fail(
                    CSVRules.json, cell,
                    "customFields' \"\(name)\" is no string; every value is a string: quote it (\"\(name)\":\"…\")")
                return nil
            }
            guard storable(name, cell), storable(s, cell) else { return nil }
            out.append((name, s))
        }
        return out
    }

    // MARK: applying

    /// `index`: the position of each variant by `identity`.
    private func apply(_ row: Row, to d: inout Delivery, index: inout [String: Int]) {
        if let tag = row.tag {
            let i: Int
            if let at = index[tag.description] {
                i = at
            } else {
                d.variants.append(DeliveryVariant(locale: tag.description))
                i = d.variants.count - 1
                index[tag.description] = i
            }
            for (t, text) in row.texts { t.set(text, in: &d.variants[i]) }
            Self.setValues(row, in: &d.variants[i].variables)
        } else {
            for (t, text) in row.texts { t.set(text, in: &d.content) }
            Self.setValues(row, in: &d.variables)
        }
    }

    /// An empty cell clears a value; a name with no column is kept; customFields is the whole set.
    private static func setValues(_ row: Row, in values: inout [VariableValue]) {
        for (name, value) in row.values { set(name, value, in: &values) }
        guard let set = row.valueSet else { return }
        values.removeAll { v in !set.contains { $0.0 == v.name } }
        for (name, value) in set { Self.set(name, value, in: &values) }
    }

    private static func set(_ name: String, _ value: String, in values: inout [VariableValue]) {
        if let i = values.firstIndex(where: { $0.name == name }) {
            if value.isEmpty { values.remove(at: i) } else { values[i].value = value }
        } else if !value.isEmpty {
            values.append(VariableValue(name: name, value: value))
        }
    }

    // MARK: changes

    /// Language by language: the default, the variants of the result in order, then those removed.
    static func changes(from base: Delivery, to result: Delivery) -> [VariantsImportChange] {
        var out: [VariantsImportChange] = []
        let defaultFields = fields(base.content, base.variables, result.content, result.variables)
        if !defaultFields.isEmpty {
            out.append(VariantsImportChange(kind: .changed, locale: nil, fields: defaultFields))
        }
        let empty = DeliveryVariant(locale: "")
        var before: [String: DeliveryVariant] = [:]
        for v in base.variants where before[identity(v)] == nil { before[identity(v)] = v }
        let after = Set(result.variants.map(identity))
        for v in result.variants {
            if let old = before[identity(v)] {
                let f = fields(old, old.variables, v, v.variables)
                if !f.isEmpty { out.append(VariantsImportChange(kind: .changed, locale: v.locale, fields: f)) }
            } else {
                out.append(
                    VariantsImportChange(
                        kind: .added, locale: v.locale, fields: fields(empty, [], v, v.variables)))
            }
        }
        for old in base.variants where !after.contains(identity(old)) {
            out.append(VariantsImportChange(kind: .removed, locale: old.locale, fields: []))
        }
        return out
    }

    /// What names a variant: its canonical tag, or its locale as written when that is no tag.
    private static func identity(_ v: DeliveryVariant) -> String {
        v.tag?.description ?? "\u{0}" + v.locale
    }

    private static func fields(
        _ a: some DeliveryTexts, _ av: [VariableValue], _ b: some DeliveryTexts, _ bv: [VariableValue]
    ) -> [String] {
        var out = DeliveryText.allCases.filter { $0.value(in: a) != $0.value(in: b) }.map(\.rawValue)
        func value(_ name: String, _ vs: [VariableValue]) -> String { vs.first { $0.name == name }?.value ?? "" }
        var names: [String] = []
        for v in av + bv where !names.contains(v.name) { names.append(v.name) }
        out += names.filter { value($0, av) != value($0, bv) }.map { "values.\($0)" }
        return out
    }
}
