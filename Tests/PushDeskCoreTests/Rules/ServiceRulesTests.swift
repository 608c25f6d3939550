import XCTest

@testable import PushDeskCore

/// Each service rule fires on the smallest change that breaks it, and not on the clean demo.
final class ServiceRulesTests: XCTestCase {
    private var clean: Service { DemoStore.neotrips }

    private func rules(_ s: Service) -> [String] { ServiceRules.check(service: s).map(\.rule) }

    /// Applies `change` to the demo service and expects exactly `rule` (with `severity`) at `field`.
    private func assertFires(
        _ rule: String, _ severity: Severity, field: String,
        file: StaticString = #filePath, line: UInt = #line, _ change: (inout Service) -> Void
    ) {
        XCTAssertFalse(rules(clean).contains(rule), "\(rule) fires on the clean demo", file: file, line: line)
        var s = clean
        change(&s)
        let hits = ServiceRules.check(service: s).filter { $0.rule == rule }
        XCTAssertEqual(
            hits.count, 1, "\(rule): \(ServiceRules.check(service: s).map(\.formatted))", file: file, line: line)
        XCTAssertEqual(hits.first?.severity, severity, file: file, line: line)
        XCTAssertEqual(hits.first?.field.description, field, file: file, line: line)
        XCTAssertEqual(hits.first?.file, "services/\(s.name).xml", file: file, line: line)
    }

    func testCleanDemoHasNoFinding() {
        XCTAssertEqual(ServiceRules.check(service: clean), [])
    }

    func testConnectorBinary() {
        assertFires("connector.binary", .warning, field: "apps[1].connector") { s in
            if case .ios(var a) = s.apps[1] {
                a.connector = .binary
                s.apps[1] = .ios(a)
            }
        }
    }

    func testConnectorV1WithHTTPv1() {
        assertFires("connector.v1-httpv1", .error, field: "apps[2].connector") { s in
            if case .android(var a) = s.apps[2] {
                a.connector = .v1
                a.maxConnectPerChild = nil
                s.apps[2] = .android(a)
            }
        }
    }

    func testLegacyAPIWarnsAndNeedsServerKey() {
        var s = clean
        if case .android(var a) = s.apps[2] {
            a.api = .legacy
            a.auth = .serverKey(serverKeyRef: "fcm-key")
            s.apps[2] = .android(a)
        }
        let f = ServiceRules.check(service: s)
        XCTAssertEqual(f.map(\.rule), ["fcm.legacy-api"])
        XCTAssertEqual(f.first?.severity, .warning)
        if case .android(var a) = s.apps[2] {
            a.auth = .serviceAccount(projectId: "p", clientEmail: "e", keyFile: "k")
            s.apps[2] = .android(a)
        }
        XCTAssertTrue(rules(s).contains("auth.api-mismatch"))
    }

    func testReservedVariableNames() {
        for name in ["aps", "_mId", "_dId", "_msg", "from", "message_type", "notification", "google.c.a", "gcm.n.e"] {
            var s = clean
            s.apps[0].variables.append(AppVariable(name: name))
            let hits = ServiceRules.check(service: s).filter { $0.rule == "variable.reserved" }
            XCTAssertEqual(hits.map(\.field), ["apps[0].variables[2].name"], name)
            XCTAssertEqual(hits.first?.severity, .error)
        }
        var ok = clean
        ok.apps[0].variables.append(AppVariable(name: "gallery"))
        XCTAssertFalse(rules(ok).contains("variable.reserved"), "a name merely containing g… is fine")
    }

    func testDuplicatesInLists() {
        assertFires("variable.duplicate", .error, field: "apps[2].variables[2].name") { s in
            s.apps[2].variables.append(AppVariable(name: "VAR"))
        }
        assertFires("param.duplicate", .error, field: "apps[0].subscriptionParams[1].name") { s in
            s.apps[0].subscriptionParams.append(SubscriptionParam(name: "loyaltyId", field: "@other"))
        }
        assertFires("sound.duplicate", .error, field: "apps[1].sounds[2].name") { s in
            if case .ios(var a) = s.apps[1] {
                a.sounds.append(Sound(name: "chime.caf"))
                s.apps[1] = .ios(a)
            }
        }
    }

    func testRequiredFields() {
        assertFires("field.required", .error, field: "label") { s in s.label = " " }
        assertFires("field.required", .error, field: "apps[0].integrationKey") { s in s.apps[0].integrationKey = "" }
        assertFires("field.required", .error, field: "marketingUrl") { s in s.marketingUrl = "" }
        assertFires("field.required", .error, field: "apps[1].bundleId") { s in
            if case .ios(var a) = s.apps[1] {
                a.bundleId = ""
                s.apps[1] = .ios(a)
            }
        }
        assertFires("field.required", .error, field: "apps[0].auth.teamId") { s in
            if case .ios(var a) = s.apps[0] {
                a.auth = .token(keyId: "ABC123DEFG", teamId: "", keyFile: "k.p8")
                s.apps[0] = .ios(a)
            }
        }
    }

    func testIdentifierAndURLSyntax() {
        assertFires("bundle-id.format", .error, field: "apps[0].bundleId") { s in
            if case .ios(var a) = s.apps[0] {
                a.bundleId = "neotrips"
                s.apps[0] = .ios(a)
            }
        }
        assertFires("package-name.format", .error, field: "apps[2].packageName") { s in
            if case .android(var a) = s.apps[2] {
                a.packageName = "com.1neotrips.app"
                s.apps[2] = .android(a)
            }
        }
        assertFires("url.format", .error, field: "trackingUrl") { s in s.trackingUrl = "tracking.neotrips.example" }
        assertFires("url.format", .error, field: "marketingUrl") { s in s.marketingUrl = "ftp://m.example/" }
        assertFires("param.field", .error, field: "apps[2].subscriptionParams[0].field") { s in
            s.apps[2].subscriptionParams[0].field = "loyaltyId"
        }
        assertFires("target-mapping.format", .error, field: "targetMapping") { s in
            s.targetMapping = "appSubscriptionRcp"
        }
        assertFires("integration-key.format", .error, field: "apps[2].integrationKey") { s in
            s.apps[2].integrationKey = "neo trips"
        }
        assertFires("service.name", .error, field: "name") { s in s.name = "../evil" }
    }

    /// A field is exactly `@` and an XML name: what Campaign's schema accepts for an
    /// attribute. `@@loyaltyId` is what typing `@loyaltyId` into a pre-filled `@` gave.
    func testParamFieldIsOneAtAndAnXMLName() {
        for bad in ["@@loyaltyId", "@loyalty id", "@a@b", "@a/b", "@", "loyaltyId", "@1abc", "@-x", ""] {
            assertFires("param.field", .error, field: "apps[2].subscriptionParams[0].field") { s in
                s.apps[2].subscriptionParams[0].field = bad
            }
        }
        for good in ["@loyaltyId", "@_x", "@a.b-c_1", "@clé", "@ns:attr"] {
            var s = clean
            s.apps[2].subscriptionParams[0].field = good
            XCTAssertFalse(rules(s).contains("param.field"), good)
        }
    }

    func testIOSPairing() {
        assertFires("ios.pairing", .warning, field: "apps[0].environment") { s in s.apps.remove(at: 1) }
        var two = clean
        if case .ios(var a) = two.apps[1] {
            a.environment = .sandbox
            two.apps[1] = .ios(a)
        }
        let hits = ServiceRules.check(service: two).filter { $0.rule == "ios.pairing" }
        XCTAssertEqual(hits.filter { $0.severity == .error }.map(\.field), ["apps[1].environment"], "two sandbox apps")
        XCTAssertEqual(hits.filter { $0.severity == .warning }.count, 1, "and no production app")
        assertFires("ios.pair-bundle", .warning, field: "apps[1].bundleId") { s in
            if case .ios(var a) = s.apps[1] {
                a.bundleId = "com.neotrips.other"
                s.apps[1] = .ios(a)
            }
        }
    }

    func testMissingAuthAndMaxConnectOnV1() {
        assertFires("auth.missing", .warning, field: "apps[2].auth") { s in
            if case .android(var a) = s.apps[2] {
                a.auth = nil
                s.apps[2] = .android(a)
            }
        }
        var s = clean
        if case .android(var a) = s.apps[2] {
            a.api = .legacy
            a.connector = .v1
            a.auth = .serverKey(serverKeyRef: "k")
            s.apps[2] = .android(a)
        }
        XCTAssertTrue(rules(s).contains("connector.max-connect-v1"))
    }

    func testLongVariableName() {
        assertFires("variable.long-name", .warning, field: "apps[0].variables[2].name") { s in
            s.apps[0].variables.append(AppVariable(name: String(repeating: "x", count: 33)))
        }
    }

    func testDuplicateIntegrationKeyAcrossServicesNamesBothFiles() {
        var other = Service(
            name: "other", label: "Other", marketingUrl: "https://m.example/", trackingUrl: "https://t.example/")
        other.apps = [
            .android(
                AndroidApp(
                    label: "Other Android", integrationKey: "neotrips-android", packageName: "com.other.app",
                    auth: .serviceAccount(projectId: "p", clientEmail: "e@p", keyFile: "k.json")))
        ]
        let snap = StoreSnapshot(services: [clean, other])
        let hits = ServiceRules.check(snap).filter { $0.rule == "integration-key.duplicate" }
        XCTAssertEqual(Set(hits.map(\.file)), ["services/neotrips.xml", "services/other.xml"])
        XCTAssertTrue(hits.allSatisfy { $0.severity == .error })
        XCTAssertTrue(hits.first { $0.file == "services/other.xml" }!.message.contains("services/neotrips.xml"))
        XCTAssertEqual(
            ServiceRules.check(StoreSnapshot(services: [clean])).filter { $0.rule == "integration-key.duplicate" }, [])
    }

    func testSandboxAndProductionSharingAKeyIsADuplicate() {
        var s = clean
        s.apps[1].integrationKey = s.apps[0].integrationKey
        let hits = ServiceRules.check(StoreSnapshot(services: [s])).filter { $0.rule == "integration-key.duplicate" }
        XCTAssertEqual(hits.map(\.field), ["apps[0].integrationKey", "apps[1].integrationKey"])
    }

    func testFindingsArePositionedFromTheFile() throws {
        let root = try makeTempDir(self)
        var s = clean
        if case .ios(var a) = s.apps[1] {
            a.connector = .binary
            s.apps[1] = .ios(a)
        }
        try Store(root: root).save(s)
        let f = ServiceRules.check(Store(root: root).loadAll()).first { $0.rule == "connector.binary" }
        XCTAssertEqual(f?.line, 17)
        XCTAssertNotNil(f?.column)
        let line = try String(contentsOf: root.appendingPathComponent("services/neotrips.xml"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)[16]
        XCTAssertTrue(Array(line.utf8).dropFirst(f!.column! - 1).starts(with: Array("connector=".utf8)), String(line))
    }
}
