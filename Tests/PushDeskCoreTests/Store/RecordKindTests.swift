import Foundation
import XCTest

@testable import PushDeskCore

/// Each record kind is one row: its folder, its files' root element and its record type
/// agree with what the codec writes and what the store, recovery and merge driver read.
final class RecordKindTests: XCTestCase {
    func testEachKindsRowMatchesItsRecordsFiles() throws {
        let records: [any EditableRecord] = [DemoStore.neotrips, DemoStore.summerSale, DemoStore.ana]
        XCTAssertEqual(records.map { type(of: $0).kind }, RecordKind.allCases)
        for record in records {
            let kind = type(of: record).kind
            XCTAssertTrue(kind.recordType == type(of: record), "\(kind)")
            let path = kind.path(record.name)
            XCTAssertEqual(path, "\(kind.folder)/\(record.name).xml")
            XCTAssertEqual(RecordKind(path: path), kind)
            XCTAssertEqual(RecordKind(path: "team/store/" + path), kind)
            XCTAssertEqual(RecordKind.record(file: path)?.kind, kind)
            XCTAssertEqual(RecordKind.record(file: path)?.name, record.name)
            // The codec writes the root element the kind names.
            let text = try XCTUnwrap(encoded(record))
            XCTAssertEqual(try XMLReader.parse(Data(text.utf8), file: path).name, kind.rootElement)
        }
        XCTAssertNil(RecordKind.record(file: "secrets/x.xml"))
        XCTAssertNil(RecordKind.record(file: "services/readme.md"))
        XCTAssertNil(RecordKind(path: "services"))
        XCTAssertEqual(RecordKind.expected, "service, delivery or profile")
    }

    func testStoreFoldersAndGitAttributesComeFromTheKinds() {
        XCTAssertEqual(
            GitSetup.attributeLines,
            ["services/*.xml merge=pushdesk", "deliveries/*.xml merge=pushdesk", "profiles/*.xml merge=pushdesk"])
        XCTAssertEqual(StaleTempFiles.folders.prefix(3), ["services", "deliveries", "profiles"])
    }

    private func encoded<R: EditableRecord>(_ record: R) -> String? { R.encode(record) }
}
