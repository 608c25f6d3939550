import Foundation
import PushDeskCore

/// The large store of docs/PERFORMANCE.md: 2,000 services × 3 apps (an iOS sandbox +
/// production pair and an Android app) × 20 variables, 5 subscription parameters and 5
/// sounds per iOS app, 5,000 deliveries, and the demo's sample profile (its test devices on the first service). Deterministic: the
/// same arguments write the same bytes, through the core's encoders (so every file is in
/// the canonical format) but without an fsync per file (this is a fixture, not a save).
/// Every record is valid: `pushdesk validate` reports no error on it.
enum LargeStore {
    static let services = 2000
    static let deliveries = 5000
    static let variables = 20
    static let params = 5
    static let sounds = 5

    static func serviceName(_ i: Int) -> String { String(format: "svc-%04d", i) }

    static func service(_ i: Int) -> Service {
        let name = serviceName(i)
        let words = ["Travel", "Ferries", "Hotels", "Rail", "Flights", "Cars", "Tours", "Cruises"]
        let vars = (1...variables).map {
            AppVariable(name: String(format: "v%02d", $0), label: "Variable \($0) of \(name)")
        }
        let ps = (1...params).map {
            SubscriptionParam(name: "param\($0)", label: "Parameter \($0)", field: "@field\($0)")
        }
        let snd = (1...sounds).map { Sound(name: "sound\($0).caf", label: "Sound \($0)") }
        let bundle = "com.example.\(name.replacingOccurrences(of: "-", with: ""))"
        return Service(
            name: name, label: "\(words[i % words.count]) \(i)",
            marketingUrl: "https://marketing.\(name).example:8443/",
            trackingUrl: "https://tracking.\(name).example/",
            apps: [
                .ios(
                    IOSApp(
                        environment: .sandbox, label: "\(name) iOS (sandbox)", integrationKey: "\(name)-ios-dev",
                        bundleId: bundle, icon: "icons/\(name)-48.png",
                        auth: .token(
                            keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/AuthKey_\(name).p8"),
                        variables: vars, subscriptionParams: ps, sounds: snd)),
                .ios(
                    IOSApp(
                        environment: .production, label: "\(name) iOS", integrationKey: "\(name)-ios",
                        bundleId: bundle, icon: "icons/\(name)-48.png",
                        auth: .certificate(
                            certificateFile: "credentials/\(name)-prod.p12", passwordRef: "\(name)-prod-p12"),
                        variables: vars, subscriptionParams: ps, sounds: snd)),
                .android(
                    AndroidApp(
                        label: "\(name) Android", integrationKey: "\(name)-android",
                        packageName: bundle, maxConnectPerChild: 8,
                        auth: .serviceAccount(
                            projectId: "\(name)-12345",
                            clientEmail: "push@\(name)-12345.iam.gserviceaccount.com",
                            keyFile: "credentials/\(name)-firebase.json"),
                        variables: vars, subscriptionParams: ps)),
            ])
    }

    /// Delivery `k` of a store with `n` services (each service gets every n-th one).
    static func delivery(_ k: Int, services n: Int = services) -> Delivery {
        let s = serviceName(k % n)
        return Delivery(
            name: String(format: "d-%05d", k), label: "Delivery \(k)", service: s,
            content: DeliveryContent(
                title: "Offer \(k)", subtitle: "For \(s)",
                body: "Hi <%= recipient.firstName %>, offer \(k) ends on Sunday."),
            tracking: Tracking(
                messageId: String(format: "5f1c2a9e-1b7d-4c8e-9a51-%012d", k), deliveryId: String(format: "%04x", k)),
            ios: IOSOptions(
                type: .alert, sound: "sound\(k % sounds + 1).caf", badge: String(k % 10), category: "offers",
                mutableContent: true, threadId: "offers", relevanceScore: "0.5", collapseId: "offer\(k)"),
            android: AndroidOptions(
                type: .notification, priority: .high, ttl: "86400", channelId: "offers",
                color: "#FF6600", image: "https://cdn.example/\(k).jpg"),
            variables: [
                VariableValue(name: "v01", value: "https://cdn.example/\(k).jpg"),
                VariableValue(name: "v02", value: "offers/\(k)"),
                VariableValue(name: "v03", value: "\(k)"),
            ])
    }

    /// A service with no app: one `service.no-apps` warning each, so a store of 20,000 has
    /// 20,000 findings for the console's list to place (the wide store of `make bench`).
    static func bareService(_ i: Int) -> Service {
        let name = serviceName(i)
        return Service(
            name: name, label: "Bare \(i)", marketingUrl: "https://marketing.\(name).example/",
            trackingUrl: "https://tracking.\(name).example/", apps: [])
    }

    /// Writes the store into `dir` (which must not hold a store yet); `bare`: services
    /// without apps (`bareService`).
    static func generate(
        into dir: URL, services n: Int = services, deliveries m: Int = deliveries, bare: Bool = false
    ) throws {
        let fm = FileManager.default
        for sub in RecordKind.allCases.map(\.folder) {
            try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        func write(_ text: String, _ relative: String) throws {
            try Data(text.utf8).write(to: dir.appendingPathComponent(relative))
        }
        for i in 0..<n {
            try write(try ServiceXML.encode(bare ? bareService(i) : service(i)), Service.path(serviceName(i)))
        }
        for k in 0..<m {
            let d = delivery(k, services: n)
            try write(try DeliveryXML.encode(d), Delivery.path(d.name))
        }
        // The demo's test devices subscribe to the demo's apps; here, to the first service's.
        var ana = DemoStore.ana
        for i in ana.subscriptions.indices {
            ana.subscriptions[i].app = ana.subscriptions[i].app.replacingOccurrences(
                of: "neotrips", with: serviceName(0))
        }
        try write(try ProfileXML.encode(ana), Profile.path(ana.name))
    }
}
