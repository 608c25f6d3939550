import Foundation
@testable import PushDeskCore

/// Services built in memory for the hand-off tests.
enum HandoffFixtures {
    /// The Neotrips service of SPEC §3.1 (the demo service), with the production iOS app and the
    /// Android app completed the way the demo store declares them.
    static var neotrips: Service {
        let variables = [AppVariable(name: "mediaUrl", label: "Media URL"),
                         AppVariable(name: "VAR", label: "Screen to open")]
        let params = [SubscriptionParam(name: "loyaltyId", label: "Loyalty number", field: "@loyaltyId")]
        let sounds = [Sound(name: "chime.caf", label: "Chime")]
        return Service(
            name: "neotrips", label: "Neotrips",
            marketingUrl: "https://marketing.neotrips.example:8443/",
            trackingUrl: "https://tracking.neotrips.example/",
            apps: [
                .ios(IOSApp(environment: .sandbox, label: "Neotrips iOS (sandbox)",
                            integrationKey: "neotrips-ios-dev", bundleId: "com.neotrips.app",
                            connector: .http2, icon: "icons/neotrips-48.png",
                            auth: .token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ",
                                         keyFile: "credentials/AuthKey_ABC123DEFG.p8"),
                            variables: variables, subscriptionParams: params, sounds: sounds)),
                .ios(IOSApp(environment: .production, label: "Neotrips iOS",
                            integrationKey: "neotrips-ios", bundleId: "com.neotrips.app",
                            connector: .http2,
                            auth: .certificate(certificateFile: "credentials/neotrips-prod.p12",
                                               passwordRef: "neotrips-prod-p12"),
                            variables: variables, subscriptionParams: params, sounds: sounds)),
                .android(AndroidApp(label: "Neotrips Android", integrationKey: "neotrips-android",
                                    packageName: "com.neotrips.app", api: .httpv1, connector: .v2,
                                    maxConnectPerChild: 8,
                                    auth: .serviceAccount(projectId: "neotrips-12345",
                                                          clientEmail: "push@neotrips-12345.iam.gserviceaccount.com",
                                                          keyFile: "credentials/neotrips-firebase.json"),
                                    variables: variables, subscriptionParams: params)),
            ])
    }

    /// Every secret-ish value of `neotrips` (file names, ids, references): none may reach a sheet.
    static let neotripsCredentialValues = [
        "ABC123DEFG", "DEF123GHIJ", "AuthKey_ABC123DEFG.p8", "neotrips-prod.p12", "neotrips-prod-p12",
        "neotrips-12345", "gserviceaccount", "neotrips-firebase.json", "credentials/",
    ]

    /// Text built to break naive generators: quotes, backslashes, a Java `\u000a` escape, comment
    /// terminators, a trigraph, backticks, table pipes, HTML, control characters, CJK.
    static let hostile = "a\"b\\c\\u000a */ ??/ `x` | <script>alert(1)</script> &amp; \u{1B}[31m\n東京"

    static var hostileService: Service {
        let variables = [AppVariable(name: hostile, label: hostile), AppVariable(name: "VAR", label: "")]
        let params = [SubscriptionParam(name: "class", label: hostile, field: "@x\"y"),
                      SubscriptionParam(name: "loyalty-id", label: "", field: "@loyaltyId"),
                      SubscriptionParam(name: "loyalty_id", label: "", field: "@loyaltyId2"),
                      SubscriptionParam(name: "2fa", label: "", field: "@twoFactor"),
                      SubscriptionParam(name: "userKey", label: "", field: "@userKey")]
        return Service(
            name: "odd", label: hostile, marketingUrl: hostile, trackingUrl: "https://t.example/\"",
            apps: [
                .ios(IOSApp(environment: .sandbox, label: hostile, integrationKey: hostile, bundleId: hostile,
                            variables: variables, subscriptionParams: params,
                            sounds: [Sound(name: hostile, label: hostile)])),
                .android(AndroidApp(label: hostile, integrationKey: hostile, packageName: "com.class.app",
                                    variables: variables, subscriptionParams: params)),
            ])
    }
}
