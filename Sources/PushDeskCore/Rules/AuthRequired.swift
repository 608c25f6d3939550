/// `field.required` on an app's credential: every attribute its auth mode's row marks
/// required (`AuthMode`, `FieldDefinition.required`) and leaves empty, in the row's order.
enum AuthRequired {
    static func check(_ modes: AuthModeTable, mode: String, values: [String: String], input: AppInput)
        -> [Finding]
    {
        guard let row = modes[mode: mode] else { return [] }
        return row.stored.compactMap { d in
            guard let needs = d.required, (values[d.name] ?? "").isEmpty else { return nil }
            return input.finding(
                ServiceRules.fieldRequired, input.path.appending("auth", d.name),
                "\(row.subject) of \(input.name) needs \(needs)")
        }
    }
}
