import XCTest

@testable import PushDeskCore

/// Every kind of file the product writes validates against the XSDs in docs/schema.
final class SchemaValidationTests: XCTestCase {
    func testWrittenFilesValidateWithXmllint() throws {
        guard
            let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw XCTSkip("xmllint is missing; `make test` installs libxml2-utils")
        }
        let root = try makeTempDir(self)
        let store = Store(root: root)
        try DemoStore.write(to: root)
        try store.save(fullService())
        try store.save(fullDelivery())
        try store.save(Delivery(name: "minimal", service: "full"))
        try store.save(liveActivityDelivery())
        try store.save(
            Delivery(
                name: "languages", service: "full",
                content: DeliveryContent(
                    title: "T", localized: LocalizedKeys(bodyKey: "B", titleArgs: ["a"], bodyArgs: ["b", "c"])),
                variants: [
                    DeliveryVariant(locale: "de", title: "D", subtitle: "S", body: "B"),
                    DeliveryVariant(locale: "zh-Hant", variables: [VariableValue(name: "mediaUrl", value: "u")]),
                ]))
        var legacy = fullService(name: "legacy")
        legacy.apps = [
            .android(
                AndroidApp(
                    label: "L", integrationKey: "l", packageName: "com.l.l", api: .legacy, connector: .v1,
                    auth: .serverKey(serverKeyRef: "key")))
        ]
        try store.save(legacy)
        let schemas = packageRoot.appendingPathComponent("docs/schema")
        var checked = 0
        for (folder, xsd) in [("services", "service.xsd"), ("deliveries", "delivery.xsd"), ("profiles", "profile.xsd")]
        {
            let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                .sorted()
            XCTAssertFalse(files.isEmpty)
            let r = try runProcess(
                xmllint,
                ["--noout", "--schema", schemas.appendingPathComponent(xsd).path]
                    + files.map { root.appendingPathComponent("\(folder)/\($0)").path })
            XCTAssertEqual(r.status, 0, r.stderr)
            checked += files.count
        }
        XCTAssertEqual(checked, 10)
    }

    func testTheSchemaRejectsWhatTheReaderRejects() throws {
        guard let xmllint = ["/usr/bin/xmllint"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("xmllint is missing; `make test` installs libxml2-utils")
        }
        let root = try makeTempDir(self)
        let bad = root.appendingPathComponent("bad.xml")
        try #"<?xml version="1.0"?><service format="1" name="s"><androidApp colour="red"/></service>"#.write(
            to: bad, atomically: true, encoding: .utf8)
        let r = try runProcess(
            xmllint,
            ["--noout", "--schema", packageRoot.appendingPathComponent("docs/schema/service.xsd").path, bad.path])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertThrowsError(try ServiceXML.decode(try Data(contentsOf: bad), file: "bad.xml"))
        for text in [
            #"<delivery format="1" name="d"><variants><variant/></variants></delivery>"#,
            #"<delivery format="1" name="d"><variants><variant locale="de"><tag/></variant></variants></delivery>"#,
            #"<delivery format="1" name="d"><content><localized key="K"/></content></delivery>"#,
        ] {
            try (#"<?xml version="1.0"?>"# + text).write(to: bad, atomically: true, encoding: .utf8)
            let d = try runProcess(
                xmllint,
                ["--noout", "--schema", packageRoot.appendingPathComponent("docs/schema/delivery.xsd").path, bad.path])
            XCTAssertNotEqual(d.status, 0, text)
            XCTAssertThrowsError(try DeliveryXML.decode(try Data(contentsOf: bad), file: "bad.xml"), text)
        }
    }

    /// The `<ios>`, `<liveActivity>` and `<android>` attribute lists of delivery.xsd are the option tables'.
    func testDeliverySchemaAttributesAreTheOptionTables() throws {
        let url = packageRoot.appendingPathComponent("docs/schema/delivery.xsd")
        let original = try String(contentsOf: url, encoding: .utf8)
        let ios = try XCTUnwrap(
            DeliverySchema.replacingAttributes(in: original, element: "ios", IOSOptions.definitions))
        let live = try XCTUnwrap(
            DeliverySchema.replacingAttributes(in: ios, element: "liveActivity", LiveActivity.definitions))
        let generated = try XCTUnwrap(
            DeliverySchema.replacingAttributes(in: live, element: "android", AndroidOptions.definitions))
        if ProcessInfo.processInfo.environment["PUSHDESK_UPDATE_DOCS"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(
            committed, generated,
            "docs/schema/delivery.xsd is stale: run `PUSHDESK_UPDATE_DOCS=1 swift test --filter SchemaValidationTests`")
    }
}
