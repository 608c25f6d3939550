import Foundation
import PushDeskCore

/// How long saving one service takes in a store: `Store.save`, the path the console and
/// every command use (encode, temp file, write, fsync, rename, fsync of the directory).
enum SaveBench {
    /// Microseconds of each save of the store's first service (loaded once; saved unchanged,
    /// so the file keeps its bytes).
    static func run(store root: URL, runs: Int) throws -> [Double] {
        let store = Store(root: root)
        guard let name = try store.names(Service.self).first else {
            throw StoreError(file: "services", "the store has no service to save", kind: .io)
        }
        let service = try store.load(Service.self, name)
        let clock = ContinuousClock()
        return try (0..<runs).map { _ in
            let start = clock.now
            try store.save(service)
            let d = clock.now - start
            return Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
        }
    }
}
