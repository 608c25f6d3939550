/// One app of a service, as the app checks see it.
struct AppInput {
    let app: MobileApp
    /// Its position in the service's apps.
    let index: Int
    /// The service file.
    let file: String

    /// `apps[N]`; built only for a finding.
    var path: FieldPath { .app(index) }
    /// The app as messages name it; built only for a finding.
    var name: String { ServiceRules.appName(app) }

    /// A finding of `rule` on `field` of the app (`apps[N].field`).
    func finding(_ rule: Rule, _ field: FieldPath, _ message: String) -> Finding {
        rule.finding(message, file: file, field: field)
    }
}
