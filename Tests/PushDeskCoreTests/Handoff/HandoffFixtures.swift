import Foundation

@testable import PushDeskCore

/// Services built in memory for the hand-off tests.
enum HandoffFixtures {
    /// The demo service as an operator has it: the demo store written to disk and read back.
    static func neotrips() throws -> Service {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushdesk-handoff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try DemoStore.write(to: root)
        return try Store(root: root).load(Service.self, "neotrips")
    }

    /// Every secret-ish value of `neotrips` (file names, ids, references): none may reach a sheet.
    static let neotripsCredentialValues = [
        "ABC123DEFG", "DEF123GHIJ", "AuthKey_ABC123DEFG.p8", "neotrips-prod.p12", "neotrips-prod-p12",
        "neotrips-12345", "gserviceaccount", "neotrips-firebase.json", "credentials/",
    ]

    /// Text built to break naive generators: quotes, backslashes, a Java `\u000a` escape, comment
    /// terminators, a trigraph, backticks, table pipes, HTML, control characters, CJK.
    /// Quotes, backslashes, comment ends, trigraphs, markup, ESC, a line break, and what
    /// `Escape.mustEscape` flags beyond C0: CSI (U+009B), NEL, DEL, a bidi override, a
    /// zero-width space, a BOM and a tag character.
    static let hostile =
        "a\"b\\c\\u000a */ ??/ `x` | <script>alert(1)</script> &amp; \u{1B}[31m\n東京 \u{9B}2J\u{85}\u{7F}\u{202E}txt\u{200B}\u{FEFF}\u{E0041}"

    static var hostileService: Service {
        let variables = [AppVariable(name: hostile, label: hostile), AppVariable(name: "VAR", label: "")]
        let params = [
            SubscriptionParam(name: "class", label: hostile, field: "@x\"y"),
            SubscriptionParam(name: "loyalty-id", label: "", field: "@loyaltyId"),
            SubscriptionParam(name: "loyalty_id", label: "", field: "@loyaltyId2"),
            SubscriptionParam(name: "2fa", label: "", field: "@twoFactor"),
            SubscriptionParam(name: "userKey", label: "", field: "@userKey"),
        ]
        return Service(
            name: "odd", label: hostile, marketingUrl: hostile, trackingUrl: "https://t.example/\"",
            apps: [
                .ios(
                    IOSApp(
                        environment: .sandbox, label: hostile, integrationKey: hostile, bundleId: hostile,
                        variables: variables, subscriptionParams: params,
                        sounds: [Sound(name: hostile, label: hostile)])),
                .android(
                    AndroidApp(
                        label: hostile, integrationKey: hostile, packageName: "com.class.app",
                        variables: variables, subscriptionParams: params)),
            ])
    }
}
