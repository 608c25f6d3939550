/// The rules of a translators' CSV file being imported (`pushdesk variants import`,
/// docs/FORMATS.md "Translators' files"): each finding sits at the file's `LINE:COLUMN`.
public enum CSVRules {
    public static let encoding = Rule(
        "csv.encoding", .error, .package, "the file is not UTF-8, or a cell holds a control character XML cannot")
    public static let header = Rule("csv.header", .error, .package, "an unknown, repeated or missing column")
    public static let row = Rule(
        "csv.row", .error, .package, "a row with the wrong number of cells, or a quote out of place")
    public static let locale = Rule("csv.locale", .error, .package, "a locale cell that is no language tag")
    public static let duplicate = Rule("csv.duplicate", .error, .package, "a locale on two rows")
    public static let json = Rule("csv.json", .error, .package, "customFields is no JSON object of strings")
    public static let size = Rule(
        "csv.size", .error, .package,
        "over 10 MB, more than 201 rows (the default and 200 variants), or a cell over 16 KB")
    public static let perDelivery = Rule(
        "csv.per-delivery", .warning, .package,
        "a per-delivery column holds another value than the delivery's: not imported")

    /// In the order of docs/RULES.md.
    public static let all: [Rule] = [encoding, header, row, locale, duplicate, json, size, perDelivery]

    /// The rule of a reading failure (`CSVTable.Failure.rule`).
    static func rule(id: String) -> Rule { all.first { $0.id == id } ?? row }
}
