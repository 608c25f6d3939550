/// Every rule of PushDesk, and the checks that report them by scope. docs/RULES.md is
/// compared with `all` (RuleCatalogTests); `pushdesk validate` and the console's live check
/// are both built from the checks listed here (StoreValidation, IncrementalValidation).
public enum RuleCatalog {
    /// Every rule, section by section as docs/RULES.md lists them. An id may appear twice
    /// when it is raised at two scopes or with two severities (`ios.pairing`, `variable.reserved`).
    public static let all: [Rule] =
        StoreValidation.all + ServiceRules.all + ChannelRules.all + ProfileRules.all + ListenRules.all
        + CredentialRules.all + ProviderTokenCheck.all
        + DeliveryRules.all + DeliveryRules.languageRules + BroadcastRequest.rules + SimulatorFile.all
        + ConnectionRules.all + [CampaignPackage.ignored] + CSVRules.all

    /// The checks of one service, in the order its findings are reported: its own fields,
    /// then each app (`appChecks`), then its apps as a pair.
    static let serviceChecks: [RuleCheck<Service>] = [
        ServiceFieldRules.check, ServiceRules.eachApp, IOSPairingRules.check,
    ]

    /// The checks of one app of a service, in the order its findings are reported.
    static let appChecks: [RuleCheck<AppInput>] = [
        AppRules.check, IOSAppRules.check, ChannelRules.check, AndroidAppRules.check,
    ]

    /// The checks of one delivery on one iOS app, in the order its findings are reported
    /// (`DeliveryRules.iosFindings`, raised while the preview builds the target's payload).
    static let iosTargetChecks: [RuleCheck<IOSTarget>] = [
        IOSTargetRules.silentContent, PushTypeRules.ignoredOption, PushTypeRules.priority,
        PushTypeRules.tokenAuth, IOSTargetRules.alertEmpty, IOSTargetRules.soundUnknown,
        IOSTargetRules.badgeRange, IOSTargetRules.relevanceRange, IOSTargetRules.volumeRange,
        IOSTargetRules.interruptionCritical, IOSTargetRules.mutableNoAlert, IOSTargetRules.richBinaryConnector,
        IOSTargetRules.collapseIdLength, IOSTargetRules.expiration, IOSTargetRules.liveActivity,
        IOSTargetRules.tokenFormat, IOSTargetRules.variantUnused, IOSTargetRules.localizedType,
    ]

    /// The checks of a Live Activity (type `liveactivity`) on one iOS app, in order
    /// (`LiveActivityRules.findings`; one without `<liveActivity>` is `liveactivity.event` alone).
    static let liveActivityChecks: [RuleCheck<LiveActivityTarget>] = [
        LiveActivityRules.event, LiveActivityRules.contentState, LiveActivityRules.json, LiveActivityRules.startAlert,
        LiveActivityRules.startAttributes, LiveActivityRules.alertTitle, LiveActivityRules.staleDate,
        LiveActivityRules.dismissalDate, LiveActivityRules.inputChannel, LiveActivityRules.budget,
    ]

    /// The checks of one delivery on one Android app, in order (`DeliveryRules.androidFindings`).
    static let androidTargetChecks: [RuleCheck<AndroidTarget>] = [
        AndroidTargetRules.ttlRange, AndroidTargetRules.colorFormat, AndroidTargetRules.imageUrl,
        AndroidTargetRules.notificationCountRange, AndroidTargetRules.analyticsLabel,
        AndroidTargetRules.notificationEmpty,
        AndroidTargetRules.ignoredOption, AndroidTargetRules.legacyIgnoredOption,
        AndroidTargetRules.localizedDataMessage,
    ]

    /// The checks of one delivery's variants and localization keys apart from any app, in
    /// order (`DeliveryRules.languageFindings`).
    static let deliveryChecks: [RuleCheck<DeliveryInput>] = [
        VariantRules.locale, VariantRules.empty, VariantRules.count, VariantRules.missingText,
        VariantRules.untranslated, VariantRules.localizedArgs,
    ]

    /// Every rule a check declares, whatever its scope: each must be in `all` (RuleCatalogTests).
    static var checkedRules: [Rule] {
        var rules: [Rule] = serviceChecks.flatMap(\.rules) + appChecks.flatMap(\.rules)
        rules += iosTargetChecks.flatMap(\.rules) + liveActivityChecks.flatMap(\.rules)
        rules += androidTargetChecks.flatMap(\.rules) + deliveryChecks.flatMap(\.rules)
        return rules
    }

    /// The scopes of the store check, in the order `pushdesk validate` reports them. Both
    /// `StoreValidation` (each over the whole store) and `IncrementalValidation` (each
    /// rechecking what an edit changed) are built from this list.
    static let storeScopes: [any StoreScope.Type] = [
        FileScope.self, ServiceScope.self, IntegrationKeyScope.self, DeliveryScope.self, ProfileScope.self,
    ]

    /// The rules with this id (two when one id has two scopes or severities).
    public static func rules(id: String) -> [Rule] { all.filter { $0.id == id } }
}
