import Foundation

@testable import PushDeskCore
@testable import PushDeskTUI

/// The console's store kept in memory, for screen tests that count or steer what the
/// console asks of it. Records are held as the XML a save writes (through the core's
/// codecs), baselines as fingerprints of that text, checks by the core's rules: only the
/// disk is missing.
final class FakeConsoleStore: ConsoleStorage, @unchecked Sendable {
    let root = "/nonexistent/fake-store"
    private let lock = NSLock()
    private var files: [String: String] = [:]
    private var secrets: [String: String] = [:]
    private var checker = IncrementalValidation(StoreSnapshot())
    private var loadedProfiles: [Profile]
    private(set) var checks = 0

    init(services: [Service], deliveries: [Delivery], profiles: [Profile] = []) {
        loadedProfiles = profiles
        for s in services { files[Service.path(s.name)] = Service.encode(s) }
        for d in deliveries { files[Delivery.path(d.name)] = Delivery.encode(d) }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func records<R: StoreRecord>(_: R.Type) -> [R] {
        files.keys.filter { $0.hasPrefix(R.folder + "/") }.sorted().compactMap { path in
            files[path].flatMap { try? R.decode(Array($0.utf8), file: path) }
        }
    }

    private static func fingerprint(_ text: String) -> FileFingerprint {
        FileFingerprint(bytes: Array(text.utf8), modified: Date(timeIntervalSince1970: 0))
    }

    func load() -> (services: [Service], errors: [String]) {
        locked {
            var snap = StoreSnapshot(
                services: records(Service.self), deliveries: records(Delivery.self), profiles: loadedProfiles)
            for (path, text) in files { snap.fingerprints[path] = Self.fingerprint(text) }
            checker = IncrementalValidation(snap)
            return (snap.services, [])
        }
    }

    func check(_ services: [Service], _ deliveries: [Delivery]) -> [Finding] {
        locked {
            checks += 1
            return checker.findings(services: services, deliveries: deliveries)
        }
    }

    func deliveries() -> [Delivery] { locked { checker.snapshot.deliveries } }
    func profiles() -> [Profile] { locked { checker.snapshot.profiles } }
    func index() -> [String] { locked { records(Service.self).map(\.name) } }
    func fileCount() -> Int { locked { files.count } }
    func baseline(_ path: String) -> RecordBaseline {
        locked { checker.snapshot.fingerprints[path].map { .read($0) } ?? .absent }
    }

    private func checkUnchanged(_ path: String, _ baseline: RecordBaseline) throws {
        let now = files[path].map(Self.fingerprint)
        switch (baseline, now) {
        case (.absent, nil): return
        case (.read(let then), .some(let now)) where then.matches(now): return
        default: throw StoreConflict(file: path, expected: baseline, current: now)
        }
    }

    func saveChecked<R: EditableRecord>(record: R, _ baseline: RecordBaseline) throws -> FileFingerprint {
        try locked {
            let path = R.path(record.name)
            try checkUnchanged(path, baseline)
            guard let text = R.encode(record) else { throw StoreError(file: path, "cannot be written") }
            files[path] = text
            return Self.fingerprint(text)
        }
    }

    func deleteChecked<R: EditableRecord>(_ type: R.Type, _ name: String, _ baseline: RecordBaseline) throws {
        try locked {
            try checkUnchanged(R.path(name), baseline)
            files[R.path(name)] = nil
        }
    }

    func loadCurrent<R: EditableRecord>(_ type: R.Type, _ name: String) throws -> (R, FileFingerprint) {
        try locked {
            let path = R.path(name)
            guard let text = files[path] else { throw StoreError(file: path, "no such file in the store", kind: .io) }
            return (try R.decode(Array(text.utf8), file: path), Self.fingerprint(text))
        }
    }

    func readText(_ path: String) -> String? { locked { files[path] } }
    func setSecret(_ reference: String, _ value: String) throws { locked { secrets[reference] = value } }
    func secretExists(_ reference: String) -> Bool { locked { secrets[reference] != nil } }
}
