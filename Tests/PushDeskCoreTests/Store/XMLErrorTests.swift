import XCTest

@testable import PushDeskCore

/// Every class of file error says where (line:column) and what.
final class XMLErrorTests: XCTestCase {
    private let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    private func serviceError(_ body: String, file: String = "services/s.xml") -> StoreError? {
        serviceError(Data((head + body).utf8), file: file)
    }

    private func serviceError(_ data: Data, file: String = "services/s.xml") -> StoreError? {
        do {
            _ = try ServiceXML.decode(data, file: file)
            return nil
        } catch { return error as? StoreError }
    }

    private func assertError(
        _ e: StoreError?, line: Int, column: Int, _ text: String, file: StaticString = #filePath, l: UInt = #line
    ) {
        guard let e else { return XCTFail("expected an error", file: file, line: l) }
        XCTAssertEqual(e.line, line, e.description, file: file, line: l)
        XCTAssertEqual(e.column, column, e.description, file: file, line: l)
        XCTAssertTrue(e.message.contains(text), "'\(e.message)' lacks '\(text)'", file: file, line: l)
        XCTAssertFalse(e.description.contains("\n"), "one line", file: file, line: l)
    }

    func testUnknownAttributeNamesItAndItsPosition() {
        let e = serviceError(
            "<service format=\"1\" name=\"s\">\n  <androidApp label=\"A\" colour=\"red\"/>\n</service>")
        assertError(
            e, line: 3, column: 25, "unknown attribute `colour` on <androidApp>; expected one of: label, integrationKey"
        )
        XCTAssertEqual(e?.description.hasPrefix("services/s.xml:3:25: error: "), true)
    }

    func testUnknownElement() {
        assertError(
            serviceError("<service format=\"1\" name=\"s\">\n  <windowsApp/>\n</service>"),
            line: 3, column: 3, "unknown element <windowsApp> inside <service>")
    }

    func testBadEnumValue() {
        assertError(
            serviceError("<service format=\"1\" name=\"s\">\n <iosApp environment=\"dev\"/></service>"),
            line: 3, column: 10, "`environment` on <iosApp> is \"dev\"; expected sandbox|production")
    }

    func testBadBooleanInDelivery() throws {
        let xml =
            head + "<delivery format=\"1\" name=\"d\" service=\"s\">\n  <ios mutableContent=\"yes\"/>\n</delivery>"
        XCTAssertThrowsError(try DeliveryXML.decode(Data(xml.utf8), file: "deliveries/d.xml")) { e in
            let e = e as? StoreError
            XCTAssertEqual(e?.line, 3)
            XCTAssertEqual(e?.column, 8)
            XCTAssertTrue(e?.message.contains("expected true|false") ?? false)
        }
    }

    func testMissingRequiredAttribute() {
        assertError(
            serviceError("<service format=\"1\" label=\"x\"/>"), line: 2, column: 1, "needs the attribute `name`")
    }

    func testWrongRoot() {
        assertError(
            serviceError("<delivery format=\"1\" name=\"x\"/>"), line: 2, column: 1, "the root element is <delivery>")
    }

    func testUnsupportedFormatVersion() {
        assertError(
            serviceError("<service format=\"2\" name=\"x\"/>"), line: 2, column: 10, "format \"2\" is not supported")
    }

    func testTruncatedFile() {
        assertError(
            serviceError("<service format=\"1\" name=\"s\">\n  <iosApp environment=\"sandbox\">\n    <variables>"),
            line: 4, column: 16, "inside <variables>: the file is cut short (truncated?)")
    }

    func testDTDWithEntityIsRefusedBeforeParsing() {
        assertError(
            serviceError(
                "<!DOCTYPE service [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<service format=\"1\" name=\"&xxe;\"/>"
            ),
            line: 2, column: 1, "a DTD (<!DOCTYPE …>) is not allowed")
    }

    func testUndeclaredEntity() {
        let e = serviceError("<service format=\"1\" name=\"s\" label=\"&nbsp;\"/>")
        XCTAssertEqual(e?.line, 2)
        XCTAssertTrue(e?.message.contains("entity") ?? false, e?.description ?? "no error")
    }

    func testInvalidUTF8() {
        var bytes = Array((head + "<service format=\"1\" name=\"s\" label=\"ab").utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"/>".utf8)
        assertError(serviceError(Data(bytes)), line: 2, column: 39, "invalid UTF-8")
    }

    func testUTF16IsRecognised() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in (head + "<service/>").utf16 { bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        assertError(serviceError(Data(bytes)), line: 1, column: 1, "UTF-16")
    }

    func testNULByte() {
        var bytes = Array((head + "<service format=\"1\" name=\"s\"").utf8)
        bytes += [0]
        bytes += Array("/>".utf8)
        assertError(serviceError(Data(bytes)), line: 2, column: 29, "NUL byte")
    }

    func testDeepNestingIsBoundedAndPositioned() {
        let deep = "<service format=\"1\" name=\"s\">" + String(repeating: "<a>", count: 100_000)
        let e = serviceError(deep)
        XCTAssertEqual(e?.line, 2)
        XCTAssertTrue(e?.message.contains("nested deeper than 32") ?? false, e?.description ?? "none")
    }

    func testFiftyMegabytesOfNestingIsRefusedQuickly() {
        let chunk = String(repeating: "<a>", count: 1 << 20)
        var big = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + "<service format=\"1\" name=\"s\">"
        for _ in 0..<17 { big += chunk }
        let data = Data(big.utf8)
        let start = Date()
        let e = serviceError(data)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "refused by size, before any parsing")
        assertError(e, line: 1, column: 1, "PushDesk files are at most 8 MB")
    }

    func testStrayTextAndDuplicateChild() {
        assertError(
            serviceError("<service format=\"1\" name=\"s\">hello</service>"), line: 2, column: 1,
            "unexpected text inside <service>")
        assertError(
            serviceError(
                "<service format=\"1\" name=\"s\"><iosApp environment=\"sandbox\"><variables/><variables/></iosApp></service>"
            ),
            line: 2, column: 72, "<variables> appears twice")
    }

    func testAttributeOfTheOtherAuthMode() {
        assertError(
            serviceError(
                "<service format=\"1\" name=\"s\"><iosApp environment=\"sandbox\"><auth mode=\"token\" passwordRef=\"p\"/></iosApp></service>"
            ),
            line: 2, column: 79, "`passwordRef` does not belong to auth mode \"token\"")
    }

    func testDuplicateVariableValueInDelivery() throws {
        let xml =
            head
            + "<delivery format=\"1\" name=\"d\"><variables>\n<value name=\"V\">a</value>\n<value name=\"V\">b</value></variables></delivery>"
        XCTAssertThrowsError(try DeliveryXML.decode(Data(xml.utf8), file: "d")) { e in
            XCTAssertEqual((e as? StoreError)?.line, 4)
            XCTAssertTrue("\(e)".contains("given twice"))
        }
    }

    func testControlCharactersInErrorMessagesAreEscaped() {
        let e = serviceError("<service format=\"1\" name=\"s\"><iosApp environment=\"dev&#x9B;2J\"/></service>")
        XCTAssertNotNil(e)
        XCTAssertFalse(e!.description.unicodeScalars.contains { $0.value == 0x9B }, e!.description)
        XCTAssertTrue(e!.description.contains("\\u{9B}"), e!.description)
    }

    func testFileNameMustMatchRecordName() throws {
        let root = try makeTempDir(self)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("services"), withIntermediateDirectories: true)
        try (head + "<service format=\"1\" name=\"other\"/>").write(
            to: root.appendingPathComponent("services/s.xml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Store(root: root).load(Service.self, "s")) { e in
            let e = e as? StoreError
            XCTAssertEqual(e?.file, "services/s.xml")
            XCTAssertEqual(e?.line, 2)
            XCTAssertEqual(e?.column, 21)
            XCTAssertTrue(e?.message.contains("does not match the file name") ?? false)
        }
    }

    func testSymlinkOutsideTheStoreIsRefused() throws {
        let root = try makeTempDir(self)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("services"), withIntermediateDirectories: true)
        let outside = root.deletingLastPathComponent().appendingPathComponent("outside.xml")
        try (head + "<service format=\"1\" name=\"s\"/>").write(to: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("services/s.xml"), withDestinationURL: outside)
        XCTAssertThrowsError(try Store(root: root).load(Service.self, "s")) { e in
            XCTAssertTrue("\(e)".contains("symbolic link"), "\(e)")
        }
    }
}
