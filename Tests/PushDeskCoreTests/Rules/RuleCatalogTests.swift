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
