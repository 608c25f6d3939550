import Foundation
import XCTest

@testable import PushDeskCore

/// Services, deliveries and profiles go through one record API: listed, saved against a
/// baseline, loaded with their fingerprint, refused on conflict, deleted only when unchanged.
final class StoreRecordTests: XCTestCase {
    func testEveryKindSavesLoadsAndDeletesThroughOneImplementation() throws {
        var service = fullService()
        var delivery = fullDelivery()
        var profile = Profile(name: "ana", fields: [("firstName", "Ana"), ("email", "ana@example.com")])
        try lifecycle(
            service,
            edited: {
                service.label = "Edited"
                return service
            }())
        try lifecycle(
            delivery,
            edited: {
                delivery.label = "Edited"
                return delivery
            }())
        try lifecycle(
            profile,
            edited: {
                profile.fields[0].value = "Anna"
                return profile
            }())
    }

    private func lifecycle<R: StoreRecord>(_ record: R, edited: R, line: UInt = #line) throws {
        let store = Store(root: try makeTempDir(self))
        let path = R.path(record.name)
        XCTAssertEqual(path, "\(R.folder)/\(record.name).xml", line: line)

        let written = try store.save(record, baseline: .absent)
        XCTAssertEqual(try store.names(R.self), [record.name], line: line)
        let (loaded, _, fp) = try store.loadRecord(R.self, record.name)
        XCTAssertEqual(loaded, record, line: line)
        XCTAssertTrue(fp.matches(written), "the save's fingerprint is the next baseline", line: line)
        XCTAssertEqual(try store.load(R.self, record.name), record, line: line)

        // Someone else created it meanwhile: a save that expected no file writes nothing.
        XCTAssertThrowsError(try store.save(edited, baseline: .absent), line: line) {
            XCTAssertTrue($0 is StoreConflict)
        }
        XCTAssertEqual(try store.load(R.self, record.name), record, line: line)

        let second = try store.save(edited, baseline: .read(fp))
        XCTAssertEqual(try store.load(R.self, record.name), edited, line: line)

        // A delete against the first version is refused and the file stays.
        XCTAssertThrowsError(try store.delete(R.self, record.name, baseline: .read(fp)), line: line) {
            XCTAssertTrue($0 is StoreConflict)
        }
        XCTAssertEqual(try store.names(R.self), [record.name], line: line)
        try store.delete(R.self, record.name, baseline: .read(second))
        XCTAssertEqual(try store.names(R.self), [], line: line)
    }

    /// A record's codec reads back what it writes, for recovery entries and diffs.
    func testCodecsRoundTripThroughTheProtocol() throws {
        let d = fullDelivery()
        let text = try XCTUnwrap(Delivery.encode(d))
        XCTAssertEqual(try Delivery.decode(Array(text.utf8), file: "deliveries/everything.xml"), d)
        let s = fullService()
        XCTAssertEqual(try Service.decode(Array(try XCTUnwrap(Service.encode(s)).utf8), file: "services/full.xml"), s)
        XCTAssertEqual(Service.kind, .service)
        XCTAssertEqual(Delivery.kind, .delivery)
        XCTAssertEqual([Service.noun, Delivery.noun, Profile.noun], ["service", "delivery", "profile"])
    }
}
