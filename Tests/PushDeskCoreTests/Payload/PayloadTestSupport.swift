import Foundation

@testable import PushDeskCore

/// The service and delivery of docs/FORMATS.md (Neotrips), built in memory for payload tests.
enum PayloadFixture {
    static let messageId = "5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10"
    /// 2026-11-21T00:00:00Z: before the fixture's expiration.
    static let now = Date(timeIntervalSince1970: 1_795_219_200)

    static let variables = [
        AppVariable(name: "mediaUrl", label: "Media URL"), AppVariable(name: "VAR", label: "Screen to open"),
    ]

    static func iosApp(_ env: IOSEnvironment, connector: IOSConnector = .http2) -> IOSApp {
        IOSApp(
            environment: env, label: env == .sandbox ? "Neotrips iOS (sandbox)" : "Neotrips iOS",
            integrationKey: env == .sandbox ? "neotrips-ios-dev" : "neotrips-ios", bundleId: "com.neotrips.app",
            connector: connector, auth: .token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/k.p8"),
            variables: variables, sounds: [Sound(name: "chime.caf", label: "Chime")])
    }

    static func androidApp(api: AndroidAPI = .httpv1, connector: AndroidConnector = .v2) -> AndroidApp {
        AndroidApp(
            label: "Neotrips Android", integrationKey: "neotrips-android", packageName: "com.neotrips.app",
            api: api, connector: connector,
            auth: api == .httpv1
                ? .serviceAccount(
                    projectId: "neotrips-12345", clientEmail: "push@neotrips-12345.iam.gserviceaccount.com",
                    keyFile: "credentials/neotrips-firebase.json")
                : .serverKey(serverKeyRef: "neotrips-fcm"),
            variables: variables)
    }

    static func service(ios: IOSConnector = .http2, api: AndroidAPI = .httpv1, connector: AndroidConnector = .v2)
        -> Service
    {
        Service(
            name: "neotrips", label: "Neotrips",
            apps: [
                .ios(iosApp(.sandbox, connector: ios)), .ios(iosApp(.production, connector: ios)),
                .android(androidApp(api: api, connector: connector)),
            ])
    }

    static let ana = Profile(
        name: "ana", fields: [("firstName", "Ana"), ("lastName", "Silva"), ("email", "ana@example.com")])

    /// A plain alert/data delivery with tracking and both variables.
    static func delivery(
        title: String = "Summer is here", subtitle: String = "",
        body: String = "Hi <%= recipient.firstName %>, 20% off until Sunday.",
        ios: IOSOptions = IOSOptions(), android: AndroidOptions = AndroidOptions(),
        variables: [VariableValue] = [
            VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer.jpg"),
            VariableValue(name: "VAR", value: "offers"),
        ],
        tracking: Tracking? = Tracking(messageId: messageId, deliveryId: "56c4")
    ) -> Delivery {
        Delivery(
            name: "summer-sale", label: "Summer sale", service: "neotrips",
            content: DeliveryContent(title: title, subtitle: subtitle, body: body),
            tracking: tracking, ios: ios, android: android, variables: variables)
    }

    static func preview(
        _ d: Delivery, service: Service = service(), profile: Profile? = ana, app: String? = nil,
        token: String? = nil, now: Date = now
    ) -> Preview {
        PreviewEngine.preview(delivery: d, service: service, profile: profile, appKey: app, token: token, now: now)
    }

    static func target(
        _ d: Delivery, app: String, service: Service = service(), profile: Profile? = ana,
        token: String? = nil
    ) -> PreviewTarget {
        let p = preview(d, service: service, profile: profile, app: app, token: token)
        precondition(p.targets.count == 1, "no app \(app)")
        return p.targets[0]
    }
}
