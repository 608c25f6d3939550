import Foundation

/// A delivery's languages as a translators' CSV file, and such a file read back onto the
/// delivery (`pushdesk variants export|import`, the console's Languages tab;
/// docs/FORMATS.md, "Translators' files"). Pure: no file, no clock.
public enum VariantsCSV {
    /// The file: the default's row, then a row per variant in file order; CRLF, no BOM, and
    /// every cell spreadsheet-safe (`CSVTable.spreadsheetSafe`).
    public static func export(_ delivery: Delivery, format: VariantsCSVFormat) -> String {
        let records: [[String]]
        switch format {
        case .pushdesk: records = pushdeskRecords(delivery)
        case .campaignStandard: records = campaignRecords(delivery)
        }
        return CSVTable.write(records.map { $0.map(CSVTable.spreadsheetSafe) })
    }

    /// What importing `data` (the file named `file`, for findings) onto `delivery` would do;
    /// `replace` also removes the variants the file does not name. Nothing is written here.
    public static func plan(_ data: Data, file: String, onto delivery: Delivery, replace: Bool)
        -> VariantsImportPlan
    {
        var reader = VariantsCSVImport(file: file, base: delivery, replace: replace)
        return reader.plan(Array(data))
    }

    // MARK: pushdesk

    /// The variables set (non-empty) by the default or any variant, in order of first appearance.
    static func valueNames(_ d: Delivery) -> [String] {
        var names: [String] = []
        for v in d.variables + d.variants.flatMap(\.variables) where !v.value.isEmpty && !names.contains(v.name) {
            names.append(v.name)
        }
        return names
    }

    private static func pushdeskRecords(_ d: Delivery) -> [[String]] {
        let names = valueNames(d)
        func value(_ name: String, _ values: [VariableValue]) -> String {
            values.first { $0.name == name }?.value ?? ""
        }
        var records = [["locale", "title", "subtitle", "body"] + names.map { VariantsCSVFormat.valuePrefix + $0 }]
        let c = d.content
        records.append(["default", c.title, c.subtitle, c.body] + names.map { value($0, d.variables) })
        for v in d.variants {
            records.append(
                [v.tag?.description ?? v.locale, v.title, v.subtitle, v.body] + names.map { value($0, v.variables) })
        }
        return records
    }

    // MARK: campaign-standard

    private static func campaignRecords(_ d: Delivery) -> [[String]] {
        typealias C = VariantsCSVFormat.CampaignColumn
        func row(title: String, body: String, values: [VariableValue], locale: String, language: String) -> [String] {
            C.allCases.map { column in
                switch column {
                case .title: title
                case .messageBody: body
                case .customFields: customFields(values)
                case .locale: locale
                case .language: language
                default: column.perDelivery(d) ?? ""
                }
            }
        }
        var records = [C.allCases.map(\.rawValue)]
        records.append(
            row(title: d.content.title, body: d.content.body, values: d.variables, locale: "default", language: ""))
        for v in d.variants {
            records.append(
                row(
                    title: v.title, body: v.body, values: v.variables,
                    locale: v.tag.map(VariantsCSVFormat.campaignLocale) ?? v.locale,
                    language: v.tag.map(\.englishLanguageName) ?? ""))
        }
        return records
    }

    /// `{"mediaUrl":"https://…"}`: the values set, in order; `{}` when none.
    static func customFields(_ values: [VariableValue]) -> String {
        JSONValue.object(values.filter { !$0.value.isEmpty }.map { ($0.name, .string($0.value)) }).compact
    }
}
