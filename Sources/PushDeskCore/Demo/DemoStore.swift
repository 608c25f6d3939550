import Foundation

/// The Neotrips demo of Adobe Campaign Classic's mobile-app-channel pages: an iOS sandbox + production pair and an Android app,
/// with realistic variables, a subscription parameter, two sounds, a sample recipient with two test devices and
/// two deliveries (a rich iOS alert and a silent update).
public enum DemoStore {
    public static let neotrips: Service = {
        let variables = [
            AppVariable(name: "mediaUrl", label: "Media URL"), AppVariable(name: "VAR", label: "Screen to open"),
        ]
        let params = [SubscriptionParam(name: "loyaltyId", label: "Loyalty number", field: "@loyaltyId")]
        let sounds = [Sound(name: "chime.caf", label: "Chime"), Sound(name: "horn.caf", label: "Boat horn")]
        return Service(
            name: "neotrips", label: "Neotrips",
            marketingUrl: "https://marketing.neotrips.example:8443/",
            trackingUrl: "https://tracking.neotrips.example/",
            apps: [
                .ios(
                    IOSApp(
                        environment: .sandbox, label: "Neotrips iOS (sandbox)", integrationKey: "neotrips-ios-dev",
                        bundleId: "com.neotrips.app", icon: "icons/neotrips-48.png",
                        auth: .token(
                            keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/AuthKey_ABC123DEFG.p8"),
                        variables: variables, subscriptionParams: params, sounds: sounds)),
                .ios(
                    IOSApp(
                        environment: .production, label: "Neotrips iOS", integrationKey: "neotrips-ios",
                        bundleId: "com.neotrips.app", icon: "icons/neotrips-48.png",
                        auth: .certificate(
                            certificateFile: "credentials/neotrips-prod.p12", passwordRef: "neotrips-prod-p12"),
                        variables: variables, subscriptionParams: params, sounds: sounds)),
                .android(
                    AndroidApp(
                        label: "Neotrips Android", integrationKey: "neotrips-android",
                        packageName: "com.neotrips.app", maxConnectPerChild: 8,
                        auth: .serviceAccount(
                            projectId: "neotrips-12345",
                            clientEmail: "push@neotrips-12345.iam.gserviceaccount.com",
                            keyFile: "credentials/neotrips-firebase.json"),
                        variables: variables, subscriptionParams: params)),
            ])
    }()

    /// A rich iOS alert (category `image`, mutable-content, a media URL) that also reaches Android.
    public static let summerSale = Delivery(
        name: "summer-sale", label: "Summer sale", service: "neotrips",
        content: DeliveryContent(
            title: "Summer is here", subtitle: "Trips from 199 EUR",
            body: "Hi <%= recipient.firstName %>, 20% off until Sunday."),
        tracking: Tracking(messageId: "5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10", deliveryId: "56c4"),
        ios: IOSOptions(
            type: .alert, sound: "chime.caf", badge: "3", category: "image", mutableContent: true,
            threadId: "trips", interruptionLevel: .timeSensitive, relevanceScore: "0.8",
            targetContentId: "offers", collapseId: "summer"),
        android: AndroidOptions(
            type: .notification, priority: .high, ttl: "86400", collapseKey: "summer",
            channelId: "offers", sound: "default", icon: "ic_offer", color: "#FF6600",
            tag: "summer", clickAction: "OPEN_OFFER",
            image: "https://cdn.neotrips.example/summer.jpg",
            visibility: .public, notificationPriority: .high),
        variables: [
            VariableValue(name: "mediaUrl", value: "https://cdn.neotrips.example/summer.jpg"),
            VariableValue(name: "VAR", value: "offers"),
        ])

    /// A silent (background) update: no alert, sound or badge; priority 5 as APNs requires.
    public static let catalogRefresh = Delivery(
        name: "catalog-refresh", label: "Catalog refresh (silent)", service: "neotrips",
        ios: IOSOptions(type: .silent, priority: .powerConsiderate),
        android: AndroidOptions(type: .data, priority: .normal, ttl: "3600"),
        variables: [VariableValue(name: "VAR", value: "catalog")])

    /// Ana with two test devices (fake tokens, shaped like real ones), so a new operator sees
    /// the console's Test devices view populated: an iPhone on the sandbox app, a Pixel.
    public static let ana = Profile(
        name: "ana", fields: [("firstName", "Ana"), ("lastName", "Silva"), ("email", "ana@example.com")],
        subscriptions: [
            Subscription(
                app: "neotrips-ios-dev", token: "3f2a9b7c41d0e8f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d49c1d",
                userKey: "ana@example.com", label: "Ana's iPhone 15"),
            Subscription(
                app: "neotrips-android",
                token: "fY3kQ7pL2mN:APA91bH4xT8vR1cW6zJ0sD5gK9uE3oI7yA2qM6nB1vC8xZ4lP0rT5wS9hF3jG7dK2a",
                label: "Ana's Pixel 8"),
        ])

    /// Writes the demo records into `root` (creating the store's folders).
    public static func write(to root: URL) throws {
        let store = Store(root: root)
        try store.save(neotrips)
        try store.save(summerSale)
        try store.save(catalogRefresh)
        try store.save(ana)
    }
}
