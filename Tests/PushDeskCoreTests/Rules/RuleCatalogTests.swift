import XCTest

@testable import PushDeskCore

/// docs/RULES.md against the rule catalog, as docs/KEYS.md is checked against the key
/// registry: every rule is documented in its section with its severity, and the document
/// names no rule the catalog lacks.
final class RuleCatalogTests: XCTestCase {
    /// The section of docs/RULES.md that lists the rules of each scope.
    private static func section(_ scope: RuleScope) -> String {
        switch scope {
        case .file: "File rules"
        case .service, .app, .integrationKeys: "Service rules"
        case .delivery, .target, .preview: "Delivery rules"
        case .profile: "Profile rules"
        case .listen: "Listen rules"
        case .credential: "Credential rules"
        case .connection: "Connection rules"
        case .package: "Import rules"
        }
    }

    /// The table rows of docs/RULES.md whose first cell is a rule id: (section, id, severities).
    private func documentedRows() throws -> [(section: String, id: String, severities: Set<String>)] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/RULES.md"), encoding: .utf8)
        var section = ""
        var rows: [(String, String, Set<String>)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { section = String(line.dropFirst(3)) }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard line.hasPrefix("|"), cells.count > 3, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else {
                continue
            }
            let severities = Set(cells[2].split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) })
            rows.append((section, String(cells[1].dropFirst().dropLast()), severities))
        }
        return rows
    }

    func testEveryCatalogRuleIsDocumentedWithItsSeverity() throws {
        let rows = try documentedRows()
        XCTAssertFalse(rows.isEmpty, "no rule table found in docs/RULES.md")
        for rule in RuleCatalog.all {
            let row = rows.first { $0.id == rule.id && $0.section == Self.section(rule.scope) }
            XCTAssertNotNil(row, "\(rule) is not in the \"\(Self.section(rule.scope))\" table of docs/RULES.md")
            if let row {
                XCTAssertTrue(
                    row.severities.contains(rule.severity.rawValue),
                    "docs/RULES.md gives \(rule.id) the severity \(row.severities.sorted()), the catalog \(rule.severity)"
                )
            }
        }
    }

    func testRulesDocNamesNoRuleTheCatalogLacks() throws {
        for row in try documentedRows() {
            let rules = RuleCatalog.all.filter { $0.id == row.id && Self.section($0.scope) == row.section }
            XCTAssertFalse(rules.isEmpty, "docs/RULES.md (\(row.section)) names \(row.id), which the catalog lacks")
            for severity in row.severities where !rules.contains(where: { $0.severity.rawValue == severity }) {
                XCTFail("docs/RULES.md gives \(row.id) the severity \(severity); the catalog does not")
            }
        }
    }

    /// A rule is one (id, scope, severity); two values for the same would spell it twice.
    func testEachRuleIsListedOnce() {
        var seen = Set<String>()
        for rule in RuleCatalog.all {
            XCTAssertTrue(seen.insert(rule.description).inserted, "\(rule) is in the catalog twice")
            XCTAssertFalse(rule.summary.isEmpty, "\(rule) has no summary")
        }
    }

    /// What the checks report is what they declare: every finding of the service checks
    /// over a store broken in many ways is a rule of the check that made it.
    func testServiceChecksReportOnlyTheirDeclaredRules() {
        var broken = DemoStore.neotrips
        broken.name = "bad name"
        broken.label = " "
        broken.marketingUrl = "ftp://x"
        broken.trackingUrl = ""
        broken.targetMapping = "x"
        broken.apps += broken.apps
        let declared = Set((RuleCatalog.serviceChecks.flatMap(\.rules)).map(\.description))
        let findings = ServiceRules.check(service: broken)
        XCTAssertGreaterThan(findings.count, 5)
        for f in findings {
            let rule = RuleCatalog.all.first {
                $0.id == f.rule && $0.severity == f.severity && [.service, .app].contains($0.scope)
            }
            XCTAssertNotNil(rule, "\(f.formatted) is no rule of the catalog")
            if let rule {
                XCTAssertTrue(declared.contains(rule.description), "\(rule) is not declared by a service check")
            }
        }
    }

    /// The catalog is every rule: each rule a check of any scope declares (service, app,
    /// iOS target, Live Activity, Android target) is in `all`, so docs/RULES.md, held to `all`
    /// above, documents every rule a check can raise.
    func testEveryRuleACheckDeclaresIsInTheCatalog() {
        let catalog = Set(RuleCatalog.all.map(\.description))
        XCTAssertGreaterThan(RuleCatalog.checkedRules.count, 40)
        for rule in RuleCatalog.checkedRules {
            XCTAssertTrue(catalog.contains(rule.description), "\(rule) is declared by a check but not in the catalog")
        }
        for id in ["liveactivity.content-state", "badge.range", "ttl.range", "legacy.ignored-option"] {
            XCTAssertTrue(RuleCatalog.checkedRules.contains { $0.id == id }, "\(id) is no row of a delivery check")
        }
    }

    /// What the delivery checks report is what their rows declare: every finding of the iOS,
    /// Live Activity and Android target checks over deliveries broken in many ways is a rule
    /// of a row of that list.
    func testDeliveryChecksReportOnlyTheirDeclaredRules() {
        let now = Date(timeIntervalSince1970: 1_796_136_000)
        let ios = IOSApp(
            environment: .production, label: "K", integrationKey: "k", bundleId: "com.k.app", connector: .binary)
        let android = AndroidApp(label: "A", integrationKey: "a", packageName: "com.k.app", api: .legacy)
        var broken: [Delivery] = []
        var d = Delivery(name: "x", service: "s")
        d.ios = IOSOptions(
            type: .silent, sound: "bell", volume: "3", badge: "-1", mutableContent: true, interruptionLevel: .critical,
            relevanceScore: "2", priority: .immediate, collapseId: String(repeating: "c", count: 80), expiration: "soon"
        )
        d.content.title = "t"
        d.content.subtitle = "s"
        d.android = AndroidOptions(
            type: .data, ttl: "-4", channelId: "c", color: "red", image: "http://x", sticky: true)
        broken.append(d)
        d.ios.type = .alert
        d.ios.expiration = "2000-01-01T00:00:00Z"
        d.content = DeliveryContent()
        broken.append(d)
        for event in ["start", "update", "end", "pause"] {
            var la = Delivery(name: "la", service: "s")
            la.ios = IOSOptions(type: .liveactivity, relevanceScore: "x")
            la.content.body = "b"
            la.liveActivity = LiveActivity(
                event: event, attributesType: event == "end" ? "T" : nil, staleDate: "later",
                dismissalDate: "2099-01-01T00:00:00Z", inputPushChannel: "Y2g=",
                contentState: event == "end" ? "[" : " ")
            broken.append(la)
        }
        var none = Delivery(name: "n", service: "s")
        none.ios.type = .liveactivity
        broken.append(none)
        let iosRules = Set(RuleCatalog.iosTargetChecks.flatMap(\.rules).map(\.id))
        let androidRules = Set(RuleCatalog.androidTargetChecks.flatMap(\.rules).map(\.id))
        var seen = Set<String>()
        for d in broken {
            for f in DeliveryRules.iosFindings(d, app: ios, token: "not hex", now: now, file: "deliveries/x.xml") {
                seen.insert(f.rule)
                XCTAssertTrue(iosRules.contains(f.rule), "\(f.formatted) is no rule of an iOS target row")
            }
            for f in DeliveryRules.androidFindings(d, app: android, file: "deliveries/x.xml") {
                seen.insert(f.rule)
                XCTAssertTrue(androidRules.contains(f.rule), "\(f.formatted) is no rule of an Android target row")
            }
        }
        XCTAssertGreaterThan(seen.count, 20, "the broken deliveries break too little: \(seen.sorted())")
        XCTAssertTrue(seen.contains("liveactivity.content-state"), "\(seen.sorted())")
    }

    /// The ids and severities docs/RULES.md pins are rules of the catalog with that severity.
    func testThePinnedRulesAreInTheCatalog() {
        let pinned: [(String, Severity)] = [
            ("size.limit", .error), ("sound.unknown", .error), ("variable.undeclared", .error),
            ("variable.reserved", .error), ("silent.content", .error), ("alert.empty", .error),
            ("badge.range", .error), ("relevance.range", .error), ("volume.range", .error),
            ("interruption.critical", .warning), ("priority.background", .error), ("collapse-id.length", .error),
            ("ttl.range", .error), ("color.format", .error), ("image.url", .error), ("mutable.no-alert", .warning),
            ("rich.binary-connector", .error), ("connector.binary", .warning), ("connector.v1-httpv1", .error),
            ("fcm.legacy-api", .warning), ("integration-key.duplicate", .error), ("certificate.shared", .error),
            ("personalization.unknown-field", .error), ("expiration.past", .warning),
        ]
        for (id, severity) in pinned {
            XCTAssertTrue(
                RuleCatalog.rules(id: id).contains { $0.severity == severity },
                "docs/RULES.md pins \(id) as \(severity)")
        }
    }
}
