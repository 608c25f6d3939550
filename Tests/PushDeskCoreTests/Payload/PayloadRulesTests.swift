import Foundation
import XCTest

@testable import PushDeskCore

/// Each delivery rule (docs/RULES.md and docs/RULES.md "Delivery rules") firing on its field,
/// and staying quiet on the nearest correct delivery.
final class PayloadRulesTests: XCTestCase {
    typealias F = PayloadFixture

    struct Case {
        var rule: String
        var severity: Severity
        var field: String
        var fires: () -> Preview
        var quiet: () -> Preview
    }

    static func d(
        title: String = "Summer is here", subtitle: String = "", body: String = "Hello",
        ios: IOSOptions = IOSOptions(), android: AndroidOptions = AndroidOptions(),
        variables: [VariableValue] = []
    ) -> Delivery {
        F.delivery(title: title, subtitle: subtitle, body: body, ios: ios, android: android, variables: variables)
    }
    /// A Live Activity that no `liveactivity.*` rule flags (priority 5), changed by `edit`;
    /// `update` and `end` leave out what only a start takes.
    static func la(event: String = "start", _ edit: (inout Delivery) -> Void = { _ in }) -> Delivery {
        var x = d(
            title: "Boarding", body: "Gate B12", ios: IOSOptions(type: .liveactivity, priority: .powerConsiderate))
        x.liveActivity = LiveActivity(event: event, contentState: #"{"gate":"B12"}"#)
        if event == "start" {
            x.liveActivity?.attributesType = "TripAttributes"
            x.liveActivity?.attributes = #"{"flight":"NT 401"}"#
        }
        edit(&x)
        return x
    }

    /// The fixture service with certificate auth on its iOS apps.
    static func certificateService() -> Service {
        var s = F.service()
        for i in s.apps.indices {
            if case .ios(var a) = s.apps[i] {
                a.auth = .certificate(certificateFile: "credentials/push.p12", passwordRef: "push")
                s.apps[i] = .ios(a)
            }
        }
        return s
    }
    /// The fixture service whose iOS apps both have this broadcast channel.
    static func withChannel(_ id: String) -> Service {
        var s = F.service()
        for i in s.apps.indices {
            if case .ios(var a) = s.apps[i] {
                a.channels = [BroadcastChannel(id: id, label: "Trips")]
                s.apps[i] = .ios(a)
            }
        }
        return s
    }

    static func p(
        _ d: Delivery, service: Service = F.service(), profile: Profile? = F.ana, token: String? = nil,
        now: Date = F.now
    ) -> Preview {
        F.preview(d, service: service, profile: profile, token: token, now: now)
    }

    /// Every case: these and the language rules' (`PayloadRulesTests+Languages.swift`).
    var cases: [Case] { ruleCases + Self.languageCases }

    let ruleCases: [Case] = [
        Case(
            rule: "size.limit", severity: .error, field: "payload",
            fires: { p(d(body: String(repeating: "a", count: 4100))) },
            quiet: { p(d(body: String(repeating: "a", count: 3900))) }),
        Case(
            rule: "sound.unknown", severity: .error, field: "ios.sound",
            fires: { p(d(ios: IOSOptions(sound: "bell.caf"))) }, quiet: { p(d(ios: IOSOptions(sound: "chime.caf"))) }),
        Case(
            rule: "sound.unknown", severity: .error, field: "ios.sound",
            fires: { p(d(ios: IOSOptions(sound: "Default"))) }, quiet: { p(d(ios: IOSOptions(sound: "default"))) }),
        Case(
            rule: "variable.undeclared", severity: .error, field: "variables.promo",
            fires: { p(d(variables: [VariableValue(name: "promo", value: "x")])) },
            quiet: {
                p(d(variables: [VariableValue(name: "promo", value: ""), VariableValue(name: "VAR", value: "x")]))
            }),
        Case(
            rule: "variable.reserved", severity: .error, field: "variables.gcm.notification.x",
            fires: { p(d(variables: [VariableValue(name: "gcm.notification.x", value: "1")])) },
            quiet: { p(d(variables: [VariableValue(name: "VAR", value: "1")])) }),
        Case(
            rule: "variable.reserved", severity: .error, field: "variables._msg",
            fires: { p(d(variables: [VariableValue(name: "_msg", value: "1")])) },
            quiet: { p(d(variables: [VariableValue(name: "msg", value: "")])) }),
        Case(
            rule: "silent.content", severity: .error, field: "ios.badge",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .silent, badge: "1"))) },
            quiet: { p(d(title: "", body: "", ios: IOSOptions(type: .silent))) }),
        Case(
            rule: "silent.content", severity: .error, field: "content.body",
            fires: { p(d(title: "", body: "x", ios: IOSOptions(type: .silent))) },
            quiet: { p(d(title: "", body: "x", ios: IOSOptions(type: .alert))) }),
        Case(
            rule: "alert.empty", severity: .error, field: "content.body",
            fires: { p(d(title: "", subtitle: "only a subtitle", body: "")) }, quiet: { p(d(title: "", body: "x")) }),
        Case(
            rule: "badge.range", severity: .error, field: "ios.badge",
            fires: { p(d(ios: IOSOptions(badge: "2.5"))) }, quiet: { p(d(ios: IOSOptions(badge: "0"))) }),
        Case(
            rule: "relevance.range", severity: .error, field: "ios.relevanceScore",
            fires: { p(d(ios: IOSOptions(relevanceScore: "1.01"))) },
            quiet: { p(d(ios: IOSOptions(relevanceScore: "1"))) }),
        Case(
            rule: "volume.range", severity: .error, field: "ios.volume",
            fires: { p(d(ios: IOSOptions(critical: true, volume: "-0.1"))) },
            quiet: { p(d(ios: IOSOptions(critical: true, volume: "0"))) }),
        Case(
            rule: "interruption.critical", severity: .warning, field: "ios.interruptionLevel",
            fires: { p(d(ios: IOSOptions(interruptionLevel: .critical))) },
            quiet: { p(d(ios: IOSOptions(interruptionLevel: .timeSensitive))) }),
        Case(
            rule: "interruption.critical", severity: .warning, field: "ios.critical",
            fires: { p(d(ios: IOSOptions(critical: true))) }, quiet: { p(d(ios: IOSOptions(critical: false))) }),
        Case(
            rule: "priority.background", severity: .error, field: "ios.priority",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .silent, priority: .immediate))) },
            quiet: { p(d(title: "", body: "", ios: IOSOptions(type: .silent, priority: .powerConsiderate))) }),
        Case(
            rule: "collapse-id.length", severity: .error, field: "ios.collapseId",
            fires: { p(d(ios: IOSOptions(collapseId: String(repeating: "é", count: 33)))) },
            quiet: { p(d(ios: IOSOptions(collapseId: String(repeating: "é", count: 32)))) }),
        Case(
            rule: "ttl.range", severity: .error, field: "android.ttl",
            fires: { p(d(android: AndroidOptions(ttl: "2419201"))) },
            quiet: { p(d(android: AndroidOptions(ttl: "2419200"))) }),
        Case(
            rule: "ttl.range", severity: .error, field: "android.ttl",
            fires: { p(d(android: AndroidOptions(ttl: "-1"))) }, quiet: { p(d(android: AndroidOptions(ttl: "0"))) }),
        Case(
            rule: "color.format", severity: .error, field: "android.color",
            fires: { p(d(android: AndroidOptions(type: .notification, color: "#F60"))) },
            quiet: { p(d(android: AndroidOptions(type: .notification, color: "#ff6600"))) }),
        Case(
            rule: "image.url", severity: .error, field: "android.image",
            fires: { p(d(android: AndroidOptions(type: .notification, image: "http://cdn.example/a.jpg"))) },
            quiet: { p(d(android: AndroidOptions(type: .notification, image: "https://cdn.example/a.jpg"))) }),
        Case(
            rule: "image.url", severity: .error, field: "variables.mediaUrl",
            fires: { p(d(variables: [VariableValue(name: "mediaUrl", value: "cdn.example/a.jpg")])) },
            quiet: { p(d(variables: [VariableValue(name: "mediaUrl", value: "https://cdn.example/a.jpg")])) }),
        Case(
            rule: "mutable.no-alert", severity: .warning, field: "ios.mutableContent",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .silent, mutableContent: true))) },
            quiet: { p(d(ios: IOSOptions(mutableContent: true))) }),
        Case(
            rule: "rich.binary-connector", severity: .error, field: "ios.mutableContent",
            fires: { p(d(ios: IOSOptions(mutableContent: true)), service: F.service(ios: .binary)) },
            quiet: { p(d(ios: IOSOptions(mutableContent: true))) }),
        Case(
            rule: "rich.binary-connector", severity: .error, field: "content.subtitle",
            fires: { p(d(subtitle: "s"), service: F.service(ios: .binary)) },
            quiet: { p(d(), service: F.service(ios: .binary)) }),
        Case(
            rule: "connector.binary", severity: .warning, field: "apps[1].connector",
            fires: { p(d(), service: F.service(ios: .binary)) }, quiet: { p(d()) }),
        Case(
            rule: "connector.v1-httpv1", severity: .error, field: "apps[2].connector",
            fires: { p(d(), service: F.service(connector: .v1)) },
            quiet: { p(d(), service: F.service(api: .legacy, connector: .v1)) }),
        Case(
            rule: "fcm.legacy-api", severity: .warning, field: "apps[2].api",
            fires: { p(d(), service: F.service(api: .legacy)) }, quiet: { p(d()) }),
        Case(
            rule: "personalization.unknown-field", severity: .error, field: "variables.VAR",
            fires: { p(d(variables: [VariableValue(name: "VAR", value: "<%= recipient.tier %>")])) },
            quiet: { p(d(variables: [VariableValue(name: "VAR", value: "<%= recipient.lastName %>")])) }),
        Case(
            rule: "expiration.past", severity: .warning, field: "ios.expiration",
            fires: { p(d(ios: IOSOptions(expiration: "2026-11-20T23:59:59Z"))) },
            quiet: { p(d(ios: IOSOptions(expiration: "2026-11-21T00:00:00Z"))) }),
        // Extra rules (docs/RULES.md).
        Case(
            rule: "expiration.format", severity: .error, field: "ios.expiration",
            fires: { p(d(ios: IOSOptions(expiration: "2026-02-30T00:00:00Z"))) },
            quiet: { p(d(ios: IOSOptions(expiration: "2028-02-29T12:30:00.250Z"))) }),
        Case(
            rule: "variable.duplicate", severity: .error, field: "variables.VAR",
            fires: {
                p(d(variables: [VariableValue(name: "VAR", value: "a"), VariableValue(name: "VAR", value: "b")]))
            },
            quiet: {
                p(
                    d(variables: [
                        VariableValue(name: "VAR", value: "a"),
                        VariableValue(name: "mediaUrl", value: "https://a.example/b"),
                    ]))
            }),
        Case(
            rule: "type.ignored-option", severity: .warning, field: "ios.category",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .silent, category: "c"))) },
            quiet: { p(d(ios: IOSOptions(type: .alert, category: "c"))) }),
        Case(
            rule: "type.ignored-option", severity: .warning, field: "ios.volume",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .silent, volume: "1"))) },
            quiet: { p(d(ios: IOSOptions(type: .alert, critical: true, volume: "1"))) }),
        Case(
            rule: "type.ignored-option", severity: .warning, field: "content.title",
            fires: { p(d(body: "", ios: IOSOptions(type: .widgets))) },
            quiet: { p(d(title: "", body: "", ios: IOSOptions(type: .widgets))) }),
        Case(
            rule: "type.ignored-option", severity: .warning, field: "variables.VAR",
            fires: {
                p(d(title: "", body: "", ios: IOSOptions(type: .controls), variables: [.init(name: "VAR", value: "x")]))
            },
            quiet: {
                p(d(title: "", body: "", ios: IOSOptions(type: .voip), variables: [.init(name: "VAR", value: "x")]))
            }),
        Case(
            rule: "type.ignored-option", severity: .warning, field: "ios.badge",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .voip, badge: "1"))) },
            quiet: { p(d(ios: IOSOptions(type: .alert, badge: "1"))) }),
        Case(
            rule: "type.ignored-option", severity: .warning, field: "ios.expiration",
            fires: {
                p(d(title: "", body: "", ios: IOSOptions(type: .pushtotalk, expiration: "2026-12-01T00:00:00Z")))
            },
            quiet: { p(d(title: "", body: "", ios: IOSOptions(type: .voip, expiration: "2026-12-01T00:00:00Z"))) }),
        Case(
            rule: "type.priority", severity: .error, field: "ios.priority",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .pushtotalk, priority: .powerConsiderate))) },
            quiet: { p(d(title: "", body: "", ios: IOSOptions(type: .pushtotalk, priority: .immediate))) }),
        Case(
            rule: "type.priority", severity: .error, field: "ios.priority",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .widgets, priority: .low))) },
            quiet: { p(d(title: "", body: "", ios: IOSOptions(type: .widgets, priority: .powerConsiderate))) }),
        Case(
            rule: "type.token-auth", severity: .error, field: "ios.type",
            fires: { p(d(title: "", body: "", ios: IOSOptions(type: .location)), service: certificateService()) },
            quiet: { p(d(title: "", body: "", ios: IOSOptions(type: .voip)), service: certificateService()) }),
        Case(
            rule: "liveactivity.json", severity: .error, field: "liveActivity.contentState",
            fires: { p(la { $0.liveActivity?.contentState = #"{"gate":"B12","gate":"C3"}"# }) }, quiet: { p(la()) }),
        Case(
            rule: "liveactivity.event", severity: .error, field: "liveActivity.event",
            fires: { p(la { $0.liveActivity?.event = "pause" }) }, quiet: { p(la()) }),
        // Every event needs its content state (docs/PAYLOADS.md): empty or blank, whatever the event.
        Case(
            rule: "liveactivity.content-state", severity: .error, field: "liveActivity.contentState",
            fires: { p(la(event: "start") { $0.liveActivity?.contentState = "" }) }, quiet: { p(la(event: "start")) }),
        Case(
            rule: "liveactivity.content-state", severity: .error, field: "liveActivity.contentState",
            fires: { p(la(event: "update") { $0.liveActivity?.contentState = "" }) },
            quiet: { p(la(event: "update")) }),
        Case(
            rule: "liveactivity.content-state", severity: .error, field: "liveActivity.contentState",
            fires: { p(la(event: "end") { $0.liveActivity?.contentState = " \n  " }) }, quiet: { p(la(event: "end")) }),
        Case(
            rule: "liveactivity.event", severity: .error, field: "ios.type",
            fires: { p(la { $0.liveActivity = nil }) }, quiet: { p(la()) }),
        Case(
            rule: "liveactivity.start-alert", severity: .error, field: "content.body",
            fires: { p(la { $0.content.body = "" }) }, quiet: { p(la()) }),
        Case(
            rule: "liveactivity.start-attributes", severity: .error, field: "liveActivity.attributesType",
            fires: { p(la { $0.liveActivity?.attributesType = nil }) }, quiet: { p(la()) }),
        Case(
            rule: "liveactivity.stale-date", severity: .warning, field: "liveActivity.staleDate",
            fires: { p(la { $0.liveActivity?.staleDate = "2000-01-01T00:00:00Z" }) },
            quiet: { p(la { $0.liveActivity?.staleDate = "2099-01-01T00:00:00Z" }) }),
        Case(
            rule: "liveactivity.dismissal-date", severity: .warning, field: "liveActivity.dismissalDate",
            fires: { p(la(event: "end") { $0.liveActivity?.dismissalDate = "2099-01-01T00:00:00Z" }) },
            quiet: { p(la(event: "end") { $0.liveActivity?.dismissalDate = "2000-01-01T00:00:00Z" }) }),
        Case(
            rule: "liveactivity.date", severity: .error, field: "liveActivity.staleDate",
            fires: { p(la { $0.liveActivity?.staleDate = "soon" }) }, quiet: { p(la()) }),
        Case(
            rule: "liveactivity.alert-title", severity: .warning, field: "content.title",
            fires: { p(la(event: "update") { $0.content.title = "" }) }, quiet: { p(la(event: "update")) }),
        Case(
            rule: "liveactivity.input-channel", severity: .warning, field: "liveActivity.inputPushChannel",
            fires: { p(la { $0.liveActivity?.inputPushChannel = "dHJpcHMtbGl2ZQ==" }) },
            quiet: {
                p(
                    la { $0.liveActivity?.inputPushChannel = "dHJpcHMtbGl2ZQ==" },
                    service: withChannel("dHJpcHMtbGl2ZQ=="))
            }),
        Case(
            rule: "liveactivity.budget", severity: .info, field: "ios.priority",
            fires: { p(la { $0.ios.priority = nil }) }, quiet: { p(la()) }),
        Case(
            rule: "notification.empty", severity: .warning, field: "content.body",
            fires: { p(d(title: "", body: "", android: AndroidOptions(type: .notification))) },
            quiet: { p(d(title: "", body: "", android: AndroidOptions(type: .data))) }),
        Case(
            rule: "android.ignored-option", severity: .warning, field: "android.channelId",
            fires: { p(d(android: AndroidOptions(type: .data, channelId: "offers"))) },
            quiet: { p(d(android: AndroidOptions(type: .notification, channelId: "offers"))) }),
        Case(
            rule: "legacy.ignored-option", severity: .warning, field: "android.sticky",
            fires: {
                p(d(android: AndroidOptions(type: .notification, sticky: true)), service: F.service(api: .legacy))
            },
            quiet: { p(d(android: AndroidOptions(type: .notification, sticky: true))) }),
        Case(
            rule: "android.analytics-label", severity: .error, field: "android.analyticsLabel",
            fires: { p(d(android: AndroidOptions(analyticsLabel: "summer sale"))) },
            quiet: { p(d(android: AndroidOptions(analyticsLabel: "summer-sale_2026.%7E~"))) }),
        Case(
            rule: "notification-count.range", severity: .error, field: "android.notificationCount",
            fires: { p(d(android: AndroidOptions(type: .notification, notificationCount: "1e3"))) },
            quiet: { p(d(android: AndroidOptions(type: .notification, notificationCount: "1000"))) }),
        Case(
            rule: "token.format", severity: .warning, field: "token",
            fires: { p(d(), token: "not/a token") }, quiet: { p(d(), token: "0123456789abcdefABCDEF") }),
        Case(
            rule: "variable.collision", severity: .error, field: "variables.title",
            fires: { p(d(variables: [VariableValue(name: "title", value: "x")]), service: titleService()) },
            quiet: {
                p(
                    d(
                        android: AndroidOptions(type: .notification),
                        variables: [VariableValue(name: "title", value: "x")]),
                    service: titleService())
            }),
    ]

    static func titleService() -> Service {
        var a = F.androidApp()
        a.variables = [AppVariable(name: "title")]
        return Service(name: "neotrips", label: "N", apps: [.android(a)])
    }

    /// `sound.unknown` names the app as the other rules do: by label, platform and
    /// environment, with its key (an integration key may be a UUID nobody recognises).
    func testSoundUnknownNamesTheAppByLabelAndKey() {
        let f = Self.p(Self.d(ios: IOSOptions(sound: "bell.caf"))).allFindings.filter { $0.rule == "sound.unknown" }
        XCTAssertEqual(
            f.map(\.message),
            [
                "sound \"bell.caf\" is neither \"default\" nor a sound of iOS sandbox app “Neotrips iOS (sandbox)” (key neotrips-ios-dev); use one of: default, chime.caf",
                "sound \"bell.caf\" is neither \"default\" nor a sound of iOS production app “Neotrips iOS” (key neotrips-ios); use one of: default, chime.caf",
            ])
    }

    func testEachRuleFiresOnItsFieldAndStaysQuietOtherwise() {
        for c in cases {
            let fired = c.fires().allFindings.filter { $0.rule == c.rule }
            XCTAssertTrue(
                fired.contains { $0.field.description == c.field && $0.severity == c.severity },
                "\(c.rule) should fire on \(c.field): got \(fired.map(\.formatted))")
            for f in fired {
                XCTAssertFalse(f.message.isEmpty)
                XCTAssertTrue(f.file == "deliveries/summer-sale.xml" || f.file == "services/neotrips.xml", f.file)
            }
            let quiet = c.quiet().allFindings.filter { $0.rule == c.rule }
            XCTAssertEqual(quiet.map(\.formatted), [], "\(c.rule) should stay quiet")
        }
    }

    func testEveryRuleInTheCatalogueIsExercised() throws {
        // docs/RULES.md lists each delivery rule as "### `id`"; each must have a case here.
        let docs = packageRoot.appendingPathComponent("docs/RULES.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "## Delivery rules").last)
        let ids = section.components(separatedBy: "\n### `").dropFirst().compactMap {
            $0.components(separatedBy: "`").first
        }
        XCTAssertGreaterThan(ids.count, 25)
        // App settings are service rules (documented under "Service rules"); previews show them.
        let tested = Set(cases.map(\.rule)).union([
            "preview.unknown-app", "delivery.service-missing", "profile.unreadable",
            "simulator.type", "simulator.platform",
        ])  // delivery.service-missing, profile.unreadable: PayloadCLITests; simulator.*: SimulatorFileTests
        .subtracting(["connector.binary", "connector.v1-httpv1", "fcm.legacy-api"])
        XCTAssertEqual(Set(ids).subtracting(tested), [], "documented rules without a test")
        XCTAssertEqual(tested.subtracting(ids), [], "tested rules not documented")
    }

    func testCachedServiceFindingsGiveTheSamePreview() {
        let service = F.service(ios: .binary, api: .legacy)
        let d = Self.d(ios: IOSOptions(mutableContent: true))
        let fresh = Self.p(d, service: service)
        let cached = PreviewEngine.preview(
            delivery: d, service: service, profile: F.ana, appKey: nil, token: nil, now: F.now,
            serviceFindings: ServiceRules.check(service: service))
        XCTAssertEqual(fresh, cached)
        XCTAssertTrue(fresh.targets[2].diagnostics.contains { $0.rule == "fcm.legacy-api" })
    }

    func testUnknownAppKey() {
        let p = F.preview(Self.d(), app: "nope")
        XCTAssertEqual(p.targets.count, 0)
        XCTAssertEqual(p.diagnostics.map(\.rule), ["preview.unknown-app"])
    }

    func testCleanDeliveryHasNoFindingsOnAnyTarget() {
        XCTAssertEqual(Self.p(Self.d()).allFindings.map(\.formatted), [])
    }

    func testValidateCheckDedupesAndLeavesAppSettingsToServiceRules() {
        let d = Self.d(title: "", body: "", variables: [VariableValue(name: "VAR", value: "<%= recipient.nickname %>")])
        let findings = DeliveryRules.check(delivery: d, service: F.service(ios: .binary), profiles: [F.ana], now: F.now)
        XCTAssertEqual(
            findings.map { "\($0.rule) \($0.field)" },
            ["alert.empty content.body", "personalization.unknown-field variables.VAR"])
        XCTAssertTrue(findings.allSatisfy { $0.file == "deliveries/summer-sale.xml" })
        // Without sample profiles nothing can be said about fields.
        XCTAssertEqual(
            DeliveryRules.check(delivery: d, service: F.service(), profiles: [], now: F.now).map(\.rule),
            ["alert.empty"])
    }
}
