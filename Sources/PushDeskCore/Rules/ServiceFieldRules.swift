import Foundation

/// The service's own fields: name, label, target mapping, server URLs, and having an app.
enum ServiceFieldRules {
    typealias R = ServiceRules

    static let check = RuleCheck<Service>(
        [R.serviceName, R.fieldRequired, R.targetMappingFormat, R.urlFormat, R.noApps]
    ) { s, out in
        let file = Service.path(s.name)
        if !Store.isValidName(s.name) {
            out.append(
                R.serviceName.finding(
                    "the service name \"\(Escape.inline(s.name))\" must be \(Store.nameRule); it is also the file name",
                    file: file, field: "name"))
        }
        if R.isBlank(s.label) {
            out.append(
                R.fieldRequired.finding(
                    "the service has no label; give it the name operators know it by", file: file, field: "label"))
        }
        if !R.isSchemaName(s.targetMapping) {
            out.append(
                R.targetMappingFormat.finding(
                    "target mapping \"\(Escape.inline(s.targetMapping))\" is not a schema name like nms:appSubscriptionRcp",
                    file: file, field: "targetMapping"))
        }
        for (field, value, what) in [
            ("marketingUrl", s.marketingUrl, "marketing"), ("trackingUrl", s.trackingUrl, "tracking"),
        ] {
            if value.isEmpty {
                out.append(
                    R.fieldRequired.finding(
                        "the \(what) server URL is empty; the SDK needs it (e.g. https://\(what).example.com/)",
                        file: file, field: FieldPath(field)))
            } else if let problem = R.urlProblem(value) {
                out.append(
                    R.urlFormat.finding(
                        "the \(what) server URL \"\(Escape.inline(value))\" \(problem)", file: file,
                        field: FieldPath(field)))
            }
        }
        if s.apps.isEmpty {
            out.append(
                R.noApps.finding(
                    "the service has no app; add an iOS pair or an Android app", file: file, field: "apps"))
        }
    }
}
