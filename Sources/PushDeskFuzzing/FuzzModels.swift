import PushDeskCore

/// Model values decoded from fuzzer bytes: whatever the bytes say, a service with a few
/// apps (and their broadcast channels), a delivery with any options and maybe a
/// `<liveActivity>`, maybe a profile with test devices of any token kind, an app key and a
/// token. Values are
/// anything a String can hold (the console lets an operator type or paste them), so the
/// payload builders and the rules meet more than a file would let through.
public struct FuzzModels {
    public var service: Service
    public var delivery: Delivery
    public var profile: Profile?
    public var appKey: String?
    public var token: String?

    public static func make(_ f: inout FuzzBytes) -> FuzzModels {
        var service = Service(
            name: "fuzz", label: f.text(), targetMapping: f.bool() ? Service.defaultTargetMapping : f.text(),
            marketingUrl: f.text(), trackingUrl: f.text())
        for _ in 0..<(1 + f.int(4)) { service.apps.append(f.bool() ? .ios(iosApp(&f)) : .android(androidApp(&f))) }
        var delivery = Delivery(
            name: "fuzz", label: f.text(), service: "fuzz",
            content: DeliveryContent(title: f.text(), subtitle: f.text(), body: f.text()),
            tracking: f.maybe { Tracking(messageId: $0.text(), deliveryId: $0.text()) },
            ios: iosOptions(&f), android: androidOptions(&f),
            variables: (0..<f.int(5)).map { _ in VariableValue(name: variableName(&f), value: f.text()) })
        let profile = f.maybe { p in
            Profile(
                name: "fuzz",
                fields: (0..<p.int(4)).map { _ in (p.pick(["firstName", "city", "email", p.text()]), p.text()) })
        }
        let appKey: String? =
            f.byte() % 4 == 0 ? (f.bool() ? service.apps[f.int(service.apps.count)].integrationKey : f.text()) : nil
        let token = f.maybe { $0.bool() ? "a1b2c3d4e5f6" : $0.text() }
        // Options still unset (the ones added through the option tables after the typed
        // generators were written, and a second chance for the rest) get values from their
        // definitions; read last, so older inputs decode as before.
        unset(IOSOptions.definitions, &delivery.ios, &f)
        unset(AndroidOptions.definitions, &delivery.android, &f)
        // Read after everything above, for the same reason: the `<liveActivity>` element (any
        // type may carry one; the rules say when it is not sent) and the test devices with
        // their token kinds.
        // A Live Activity delivery always has one (without it, the rules' one finding blocks).
        if delivery.ios.effectiveType.payload == .liveActivity || f.bool() { delivery.liveActivity = liveActivity(&f) }
        var withDevices = profile
        withDevices?.subscriptions = (0..<f.int(4)).map { _ in
            Subscription(
                app: f.bool() ? service.apps[f.int(service.apps.count)].integrationKey : f.text(),
                token: f.bool() ? "a1b2c3d4e5f6" : f.text(), userKey: f.maybe { $0.text() },
                label: f.maybe { $0.text() }, kind: f.pick(TokenKind.allCases))
        }
        return FuzzModels(service: service, delivery: delivery, profile: withDevices, appKey: appKey, token: token)
    }

    /// A `<liveActivity>`: any event (mostly a known one), the dates, the input push token
    /// and channel (often a channel id the apps have), and the two JSON texts.
    static func liveActivity(_ f: inout FuzzBytes) -> LiveActivity {
        func date(_ f: inout FuzzBytes) -> String {
            f.bool() ? f.pick(["2026-12-01T18:00:00Z", "2020-01-01T00:00:00Z", "2027-01-01T00:00:00Z"]) : f.text()
        }
        return LiveActivity(
            event: f.maybe { $0.bool() ? $0.pick(LiveActivityEvent.allCases).rawValue : $0.text() },
            attributesType: f.maybe { $0.bool() ? "TripAttributes" : $0.text() },
            staleDate: f.maybe(date), dismissalDate: f.maybe(date), inputPushToken: f.maybe { $0.bool() },
            inputPushChannel: f.maybe { $0.bool() ? "dHJpcHM=" : $0.text() },
            contentState: jsonText(&f), attributes: f.maybe { jsonText(&$0) })
    }

    /// A content state or attributes text: mostly an object built from JSON pieces — half
    /// the time only valid ones, so payloads get built, else with pieces the reader refuses
    /// — and sometimes any text.
    static func jsonText(_ f: inout FuzzBytes) -> String {
        switch f.int(4) {
        case 0: f.text()
        case 1: jsonObject(&f, depth: 0, valid: false)
        default: jsonObject(&f, depth: 0, valid: true)
        }
    }

    static func jsonObject(_ f: inout FuzzBytes, depth: Int, valid: Bool) -> String {
        let members = (0..<f.int(5)).map { _ in
            jsonString(f.bool() ? f.pick(["status", "gate", "eta", "seats", "aps", ""]) : f.text())
                + f.pick([":", ": ", " :\n "]) + jsonValue(&f, depth: depth + 1, valid: valid)
        }
        return "{" + members.joined(separator: f.pick([",", ", ", ",\n  "])) + "}"
    }

    static func jsonValue(_ f: inout FuzzBytes, depth: Int, valid: Bool) -> String {
        switch f.int(depth >= 3 ? 4 : 6) {
        case 0: return jsonString(f.text())
        case 1: return f.pick(valid ? validNumbers : validNumbers + invalidNumbers)
        case 2: return f.pick(["true", "false", "null"])
        case 3: return valid ? jsonString(f.pick(FuzzBytes.pieces)) : f.pick(jsonPieces)
        case 4:
            let items = (0..<f.int(4)).map { _ in jsonValue(&f, depth: depth + 1, valid: valid) }
            return "[" + items.joined(separator: ",") + "]"
        default: return jsonObject(&f, depth: depth, valid: valid)
        }
    }

    /// A JSON string of `s`, written by the core's own writer.
    static func jsonString(_ s: String) -> String { JSONValue.string(s).compact }

    /// Number spellings the payload must copy as written, and ones the reader refuses.
    static let validNumbers = ["0", "-0", "1", "2.50", "1.764612E9", "1e-7", "12345678901234567890"]
    static let invalidNumbers = ["1e999", "-1e999", "01", "1.", ".5", "+1", "NaN", "Infinity"]

    /// Pieces that are not JSON values, or are JSON the reader must think about.
    static let jsonPieces = [
        "\"\\uD800\"", "\"\\uDC00\\uD800\"", "\"\\uD83D\\uDE00\"", "\"\\u00e9\"", "\"\\/\"", "\"a\u{1}b\"", "'x'", "",
        "{\"a\":1,\"a\":2}", "[", "}", "\"unterminated", "tru", "nul", "\u{FEFF}{}", "{}\u{0}",
    ]

    static func variableName(_ f: inout FuzzBytes) -> String {
        f.bool()
            ? f.pick([
                "mediaUrl", "VAR", "title", "aps", "_mId", "_dId", "_msg", "from", "googleX", "gcm.x", "notification",
                "",
            ]) : f.text()
    }

    static func variables(_ f: inout FuzzBytes) -> [AppVariable] {
        (0..<f.int(5)).map { _ in AppVariable(name: variableName(&f), label: f.text()) }
    }

    static func iosApp(_ f: inout FuzzBytes) -> IOSApp {
        var a = IOSApp(
            environment: f.pick(IOSEnvironment.allCases), label: f.text(), integrationKey: f.text(),
            bundleId: f.bool() ? "com.neotrips.app" : f.text(), connector: f.pick(IOSConnector.allCases), icon: f.text()
        )
        switch f.int(3) {
        case 0: a.auth = .token(keyId: f.text(), teamId: f.text(), keyFile: f.text())
        case 1: a.auth = .certificate(certificateFile: f.text(), passwordRef: f.text())
        default: a.auth = nil
        }
        a.variables = variables(&f)
        a.subscriptionParams = (0..<f.int(3)).map { _ in
            SubscriptionParam(name: f.text(), label: f.text(), field: f.text())
        }
        a.sounds = (0..<f.int(3)).map { _ in Sound(name: f.bool() ? "chime.caf" : f.text(), label: f.text()) }
        a.channels = (0..<f.int(3)).map { _ in
            BroadcastChannel(
                id: f.bool() ? "dHJpcHM=" : f.text(), label: f.text(), storage: f.bool() ? .none : .mostRecent)
        }
        return a
    }

    static func androidApp(_ f: inout FuzzBytes) -> AndroidApp {
        var a = AndroidApp(
            label: f.text(), integrationKey: f.text(), packageName: f.text(), api: f.pick(AndroidAPI.allCases),
            connector: f.pick(AndroidConnector.allCases), maxConnectPerChild: f.maybe { 1 + $0.int(64) }, icon: f.text()
        )
        switch f.int(3) {
        case 0: a.auth = .serviceAccount(projectId: f.text(), clientEmail: f.text(), keyFile: f.text())
        case 1: a.auth = .serverKey(serverKeyRef: f.text())
        default: a.auth = nil
        }
        a.variables = variables(&f)
        a.subscriptionParams = (0..<f.int(3)).map { _ in
            SubscriptionParam(name: f.text(), label: f.text(), field: f.text())
        }
        return a
    }

    static func unset<R>(_ table: [FieldDefinition<R>], _ r: inout R, _ f: inout FuzzBytes) {
        for d in table where d.text(r) == nil {
            let value: String? =
                switch d.kind {
                case .flag, .bool: f.maybe { $0.bool() ? "true" : "false" }
                case .choice(let values, _): f.maybe { $0.pick(values) }
                case .text, .path, .secret, .number: f.maybe { $0.text() }
                }
            d.set(&r, value)
        }
    }

    static func iosOptions(_ f: inout FuzzBytes) -> IOSOptions {
        IOSOptions(
            type: f.maybe { $0.pick(PushType.allCases) }, sound: f.maybe { $0.text() },
            critical: f.maybe { $0.bool() }, volume: f.maybe { $0.number() }, badge: f.maybe { $0.number() },
            category: f.maybe { $0.text() }, mutableContent: f.maybe { $0.bool() },
            contentAvailable: f.maybe { $0.bool() }, threadId: f.maybe { $0.text() },
            interruptionLevel: f.maybe { $0.pick(InterruptionLevel.allCases) },
            relevanceScore: f.maybe { $0.number() }, targetContentId: f.maybe { $0.text() },
            launchImage: f.maybe { $0.text() }, priority: f.maybe { $0.pick(APNsPriority.allCases) },
            collapseId: f.maybe { $0.text() }, expiration: f.maybe { $0.bool() ? "2026-12-01T00:00:00Z" : $0.text() })
    }

    static func androidOptions(_ f: inout FuzzBytes) -> AndroidOptions {
        AndroidOptions(
            type: f.maybe { $0.pick(AndroidDeliveryType.allCases) },
            priority: f.maybe { $0.pick(AndroidPriority.allCases) },
            ttl: f.maybe { $0.number() }, collapseKey: f.maybe { $0.text() }, channelId: f.maybe { $0.text() },
            sound: f.maybe { $0.text() }, icon: f.maybe { $0.text() },
            color: f.maybe { $0.bool() ? "#FF6600" : $0.text() }, tag: f.maybe { $0.text() },
            clickAction: f.maybe { $0.text() }, image: f.maybe { $0.text() }, ticker: f.maybe { $0.text() },
            sticky: f.maybe { $0.bool() }, visibility: f.maybe { $0.pick(NotificationVisibility.allCases) },
            notificationPriority: f.maybe { $0.pick(NotificationPriority.allCases) },
            notificationCount: f.maybe { $0.number() })
    }
}
