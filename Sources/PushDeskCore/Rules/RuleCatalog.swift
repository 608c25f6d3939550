/// Every rule of PushDesk, and the checks that report them by scope. docs/RULES.md is
/// compared with `all` (RuleCatalogTests); `pushdesk validate` and the console's live check
/// are both built from the checks listed here (StoreValidation, IncrementalValidation).
public enum RuleCatalog {
    /// Every rule, section by section as docs/RULES.md lists them. An id may appear twice
    /// when it is raised at two scopes or with two severities (`ios.pairing`, `variable.reserved`).
    public static let all: [Rule] =
        StoreValidation.all + ServiceRules.all + ChannelRules.all + ProfileRules.all + ListenRules.all
        + CredentialRules.all + ProviderTokenCheck.all
        + DeliveryRules.all + BroadcastRequest.rules + SimulatorFile.all + ConnectionRules.all + [
            CampaignPackage.ignored
        ]

    /// The checks of one service, in the order its findings are reported: its own fields,
    /// then each app (`appChecks`), then its apps as a pair.
    static let serviceChecks: [RuleCheck<Service>] = [
        ServiceFieldRules.check, ServiceRules.eachApp, IOSPairingRules.check,
    ]

    /// The checks of one app of a service, in the order its findings are reported.
    static let appChecks: [RuleCheck<AppInput>] = [
        AppRules.check, IOSAppRules.check, ChannelRules.check, AndroidAppRules.check,
    ]

    /// The scopes of the store check, in the order `pushdesk validate` reports them. Both
    /// `StoreValidation` (each over the whole store) and `IncrementalValidation` (each
    /// rechecking what an edit changed) are built from this list.
    static let storeScopes: [any StoreScope.Type] = [
        FileScope.self, ServiceScope.self, IntegrationKeyScope.self, DeliveryScope.self, ProfileScope.self,
    ]

    /// The rules with this id (two when one id has two scopes or severities).
    public static func rules(id: String) -> [Rule] { all.filter { $0.id == id } }
}
