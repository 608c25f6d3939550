/// What every app has, whatever its platform: label, integration key, variables and
/// subscription parameters.
enum AppRules {
    typealias R = ServiceRules

    static let check = RuleCheck<AppInput>(
        [
            R.fieldRequired, R.integrationKeyFormat, R.variableDuplicate, R.variableReserved, R.variableLongName,
            R.paramDuplicate, R.paramField,
        ]
    ) { a, out in
        let app = a.app
        var p: FieldPath { a.path }  // built only for a finding
        if R.isBlank(app.label) {
            out.append(a.finding(R.fieldRequired, p.appending("label"), "\(a.name) has no label"))
        }
        if app.integrationKey.isEmpty {
            out.append(
                a.finding(
                    R.fieldRequired, p.appending("integrationKey"),
                    "\(a.name) has no integration key; generate one and give it to the app's developers"))
        } else if R.containsWhitespace(app.integrationKey) {
            out.append(
                a.finding(
                    R.integrationKeyFormat, p.appending("integrationKey"),
                    "the integration key of \(a.name) contains white space; the SDK sends it verbatim, so it must match exactly"
                ))
        }
        R.duplicates(
            app.variables.map(\.name), rule: R.variableDuplicate, what: "variable", file: a.file,
            field: p.appending("variables"), into: &out)
        for (j, v) in app.variables.enumerated() {
            if v.name.isEmpty {
                out.append(
                    a.finding(
                        R.fieldRequired, p.item("variables", j).appending("name"), "a variable of \(a.name) has no name"
                    ))
            } else if R.isReservedVariableName(v.name) {
                out.append(
                    a.finding(
                        R.variableReserved, p.item("variables", j).appending("name"),
                        "variable `\(Escape.inline(v.name))` of \(a.name) uses a name reserved by APNs, FCM or Campaign; rename it"
                    ))
            } else if v.name.utf8.count > 32 {
                out.append(
                    a.finding(
                        R.variableLongName, p.item("variables", j).appending("name"),
                        "variable `\(Escape.inline(v.name))` is \(v.name.utf8.count) bytes long; every byte is sent in each payload (4 KB limit): keep names short"
                    ))
            }
        }
        R.duplicates(
            app.subscriptionParams.map(\.name), rule: R.paramDuplicate, what: "subscription parameter",
            file: a.file, field: p.appending("subscriptionParams"), into: &out)
        for (j, sp) in app.subscriptionParams.enumerated() {
            if sp.name.isEmpty {
                out.append(
                    a.finding(
                        R.fieldRequired, p.item("subscriptionParams", j).appending("name"),
                        "a subscription parameter of \(a.name) has no config name"))
            }
            // Exactly `@` and an XML name (`@@x`, `@a b`, `@a/b` are no attribute).
            if !sp.field.hasPrefix("@") || !XMLName.isName(sp.field.dropFirst()) {
                out.append(
                    a.finding(
                        R.paramField, p.item("subscriptionParams", j).appending("field"),
                        "subscription parameter `\(Escape.inline(sp.name))` maps to \"\(Escape.inline(sp.field))\"; expected one `@` and an attribute name of the extended nms:appSubscriptionRcp schema (an XML name: no space, `/` or second `@`), like @loyaltyId"
                    ))
            }
        }
    }
}
